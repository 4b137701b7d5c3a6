/* Internal: the frames of an animation (GIF, animated WebP), each composed onto the canvas as RGBA, for the
 * first-frame stills of tiles and for animated views. */
#ifndef WF_ANIMATION_H
#define WF_ANIMATION_H

#include "decode.h"

/* Frames from one open source. `next` returns 1 with `*rgba` (width × height × 4 bytes, valid until the
 * next call) and the frame's duration, 0 after the last frame, -1 on failure with `out` saying why. */
typedef struct {
    void *state;
    uint32_t width, height; /* the canvas (logical screen) */
    int32_t loop_count;     /* 0 = forever */
    int (*next)(void *state, const uint8_t **rgba, int32_t *duration_ms, wf_decode_outcome *out);
    void (*close)(void *state);
} wf_frames;

/* Limits on what an animation may cost, the same for every format: frames read, and pixels decoded and
 * composed in all (each frame's own, and the canvas it is composed on: a frame-count bomb of a million
 * 1-pixel frames, or ten thousand full-screen ones, is refused, not decoded). The header readers refuse more
 * than WF_MAX_FRAMES frames; an animated view is refused over either limit from the frames' headers before
 * any frame is decoded (a 300-frame 1080p GIF is 622,080,000 pixels). */
#define WF_MAX_FRAMES 10000u
#define WF_MAX_FRAME_PIXELS 2000000000ull

/* 0 when `canvases` canvases of width × height RGBA, and `extra` bytes more, fit the decoder's memory limit
 * (0: wf_derive's default, 512 MiB, for readers given none); else -1 with `out` saying so ("a 16000×15000 WebP
 * canvas would need 1831 MiB, over the 512 MiB limit"). `format` names the format ("GIF", "WebP"). GIF keeps
 * one canvas, and a second when a frame after the first restores what was under it (disposal 3); libwebp's
 * animation decoder always two, and what it holds at full size to decode a frame (`extra`: a lossless frame
 * as 32-bit ARGB, a lossy one's alpha planes). */
int wf_animation_canvas_fits(const char *format, uint32_t width, uint32_t height, unsigned canvases, uint64_t extra,
                             uint64_t max_memory, wf_decode_outcome *out);

/* 0 when an animation of `frames` frames on a width × height canvas, whose frames store `frame_pixels`
 * pixels in all, is within WF_MAX_FRAMES and WF_MAX_FRAME_PIXELS; else -1 with `out` saying which. */
int wf_animation_within_budget(const char *format, uint32_t width, uint32_t height, uint32_t frames,
                               uint64_t frame_pixels, wf_decode_outcome *out);

#endif
