/* Internal: giflib behind Waterfall's conventions (a read function over wf_stream, errors as one line,
 * nothing printed: giflib itself never prints or exits). */
#ifndef WF_GIF_SUPPORT_H
#define WF_GIF_SUPPORT_H

#include <gif_lib.h>

#include "animation.h"
#include "cimageio.h"
#include "decode.h"
#include "stream.h"

/* giflib 5.2 refuses an initial LZW code size of 12 and over (the clear code would be 4096, one past the
 * largest 12-bit code); the header walk refuses the same, so the two agree. */
#define WF_GIF_MAX_CODE_SIZE 11

typedef struct {
    GifFileType *gif;
    wf_stream *stream;
    int ended; /* a read came back short: the file is cut, whatever error giflib then reports */
} wf_gif;

/* Opens `stream` (DGifOpen: the screen descriptor and the global colour table); 0 on success, else -1 with
 * `out` saying why. Always call wf_gif_close. */
int wf_gif_open(wf_gif *gif, wf_stream *stream, wf_decode_outcome *out);
void wf_gif_close(wf_gif *gif);

/* The header walk (gif_header.c) over `stream` from where it stands, at the file's start: wf_read_gif_header's
 * answer in `out`, and for the animation budget (when not NULL) in `frame_pixels` the frames' stored sizes
 * summed and in `restores` whether a frame after the first restores what was under it (disposal 3: a second
 * canvas). */
void wf_gif_survey(wf_stream *stream, wf_header *out, uint64_t *frame_pixels, int *restores);

/* giflib's error `code` while reading `what` ("frame 3") as one line, "truncated GIF: …" when the file ended,
 * "corrupt GIF: …" otherwise. */
void wf_gif_fail(const wf_gif *gif, int code, const char *what, wf_decode_outcome *out);

/* A GIF's first frame as a still, where it is the whole picture (at the screen's corner and size, no
 * transparent colour): its rows go to `sink` as RGB (RGBA when its colour table is short: an
 * index past it shows the transparent canvas), with no canvas. 1 when it answered
 * (the still made, or `out` says why not), 0 when the frame must be composed: `next` then draws it. */
int wf_gif_plain_first(wf_frames *frames, wf_pixel_sink *sink, wf_decode_outcome *out);

#endif
