/* Internal: the frames of an animation (GIF, animated WebP), each composed onto the canvas as RGBA, for the
 * first-frame stills of tiles and for animated views. */
#ifndef WF_ANIMATION_H
#define WF_ANIMATION_H

#include "derive.h"

/* Frames from one open source. `next` returns 1 with `*rgba` (width × height × 4 bytes, valid until the
 * next call) and the frame's duration, 0 after the last frame, -1 on failure with `out` saying why. */
typedef struct {
    void *state;
    uint32_t width, height; /* the canvas (logical screen) */
    int32_t loop_count;     /* 0 = forever */
    int (*next)(void *state, const uint8_t **rgba, int32_t *duration_ms, wf_decode_outcome *out);
    void (*close)(void *state);
} wf_frames;

/* Limits on what an animation may cost: frames read, and canvas pixels times frames (a frame-count bomb of
 * a million 1-pixel frames, or ten thousand full-screen ones, is refused, not decoded). */
#define WF_MAX_FRAMES 10000u
#define WF_MAX_FRAME_PIXELS 2000000000ull

/* 0 and `frames` ready, or -1 with `out` saying why. The stream must stay valid until `close`. */
int wf_gif_frames_open(wf_stream *stream, const wf_decode_options *options, wf_frames *frames, wf_decode_outcome *out);
/* A GIF's first frame as a still, where it is the whole picture (at the screen's corner and size, no
 * transparent colour): its rows go to `sink` as RGB (RGBA when its colour table is short: an
 * index past it shows the transparent canvas), with no canvas. 1 when it answered
 * (the still made, or `out` says why not), 0 when the frame must be composed: `next` then draws it. */
int wf_gif_plain_first(wf_frames *frames, wf_pixel_sink *sink, wf_decode_outcome *out);
int wf_webp_frames_open(wf_stream *stream, const wf_decode_options *options, wf_frames *frames, wf_decode_outcome *out);

#endif
