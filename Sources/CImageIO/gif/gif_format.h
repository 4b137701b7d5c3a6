/* Internal: the GIF folder's entry points: header reader, decoder and animation frames (common/formats.c
 * lists them). GIF carries no EXIF: there is no metadata reader. */
#ifndef WF_GIF_FORMAT_H
#define WF_GIF_FORMAT_H

#include "animation.h"
#include "cimageio.h"
#include "decode.h"
#include "stream.h"

int wf_sniff_gif(const uint8_t *bytes, size_t length);
void wf_read_gif_header(wf_stream *stream, wf_header *out);
/* GIF: the first frame composed onto the logical screen; RGBA. */
void wf_decode_gif(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);

/* A GIF's animation budget from its blocks (frames counted and their sizes summed by the header walk,
 * nothing decoded), for an animated view: 0 within it, else -1 with `out` saying why; the second canvas a
 * frame that restores what was under it needs must fit the decoder memory limit too. Reads the source
 * behind `stream` from its start, without moving `stream`. */
int wf_gif_animation_budget(wf_stream *stream, const wf_decode_options *options, wf_decode_outcome *out);

/* 0 and `frames` ready, or -1 with `out` saying why. The stream must stay valid until `close`. */
int wf_gif_frames_open(wf_stream *stream, const wf_decode_options *options, wf_frames *frames, wf_decode_outcome *out);

#endif
