/* Internal: the AVIF folder's entry points: libavif's decoding route (the HEIF decoder tries it first) and the
 * encoder (common/formats.c lists them). */
#ifndef WF_AVIF_FORMAT_H
#define WF_AVIF_FORMAT_H

#include "animation.h"
#include "cimageio.h"
#include "decode.h"
#include "encode.h"
#include "stream.h"

/* AVIF by libavif, where it decodes the image as the libheif route would (8-bit, opaque, SDR, sRGB-like
 * or ICC): 1 when it did (`out` says how it went), 0 when the libheif route should (nothing sent to the
 * sink). */
int wf_decode_avif(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);

/* ---- AVIF sequences (major brand `avis`), by libavif's track reader: avif_sequence.c ---- */

int wf_avif_is_sequence(wf_stream *stream);
/* The header of a sequence, frames counted: 1 when answered, 0 when the file is no sequence libavif reads
 * (then the HEIF route reads its still item, or says why not). */
int wf_read_avif_sequence_header(wf_stream *stream, wf_header *out);
/* The first frame into `sink`: 1 when answered (`out` says how it went), 0 as for the header. */
int wf_decode_avif_sequence(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink,
                            wf_decode_outcome *out);
/* The frames of a sequence, for animated views (animation.h). */
int wf_avif_frames_open(wf_stream *stream, const wf_decode_options *options, wf_frames *frames, wf_decode_outcome *out);

/* ---- encoders: into `out`, in memory (left as it was on failure) ---- */

/* The still for the format table (encode.h), at its speed. */
wf_derive_status wf_encode_avif(wf_encoded *out, const wf_still *still, wf_encode_note *note);
/* AVIF by libaom: 8-bit full-range YUV 4:2:0 (4:0:0 for gray), alpha lossless, the ICC profile or else
 * nclx 1/13/6 (sRGB). One thread: the same pixels give the same bytes. `speed` 0-10, `quality` 1-100. */
wf_derive_status wf_write_avif(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                               int quality, int speed, const uint8_t *icc, size_t icc_length, char *message,
                               size_t size);

#endif
