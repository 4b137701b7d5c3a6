/* For tests: the frames of an animation (GIF, WebP) exactly as the animated-view writer gets them, each the
 * whole canvas after composing, so that compositing can be checked without an encoder in between. */
#ifndef CIMAGEIO_ANIMATION_H
#define CIMAGEIO_ANIMATION_H

#include "cimageio.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wf_animation wf_animation;

typedef struct {
    wf_derive_status status;
    uint32_t width, height; /* the canvas */
    int32_t loop_count;     /* plays, 0 = forever */
    char message[200];      /* one line, when status != WF_DERIVE_OK */
} wf_animation_info;

/* NULL with `info` saying why, or the open animation (free with wf_animation_close). */
wf_animation *wf_animation_open(const char *path, wf_animation_info *info);

/* 1 with the canvas (width × height × 4 RGBA bytes, valid until the next call) and the frame's duration,
 * 0 after the last frame, -1 on failure with `info` saying why. */
int wf_animation_next(wf_animation *animation, const uint8_t **rgba, int32_t *duration_ms, wf_animation_info *info);

void wf_animation_close(wf_animation *animation);

#ifdef __cplusplus
}
#endif

#endif
