/* The animation limits of animation.h, worded once for every format. */
#include <stdio.h>

#include "animation.h"

int wf_animation_canvas_fits(const char *format, uint32_t width, uint32_t height, unsigned canvases, uint64_t extra,
                             uint64_t max_memory, wf_decode_outcome *out) {
    uint64_t bytes = (uint64_t)width * height * 4 * canvases + extra;
    if (max_memory == 0) max_memory = (uint64_t)WF_DEFAULT_MAX_MEMORY;
    if (bytes <= max_memory) return 0;
    wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "a %u×%u %s canvas would need %llu MiB, over the %llu MiB limit", width, height,
                    format, (unsigned long long)(bytes >> 20), (unsigned long long)(max_memory >> 20));
    return -1;
}

int wf_animation_within_budget(const char *format, uint32_t width, uint32_t height, uint32_t frames,
                               uint64_t frame_pixels, wf_decode_outcome *out) {
    if (frames > WF_MAX_FRAMES) {
        wf_outcome_fail(out, WF_DERIVE_ERR_TOO_LARGE, "%s animation of %u frames, over the %u-frame limit", format, frames,
                        WF_MAX_FRAMES);
        return -1;
    }
    /* At most 10,000 canvases of 2^32 pixels and frames of 2^32 pixels each: no overflow. */
    uint64_t pixels = (uint64_t)width * height * frames + frame_pixels;
    if (pixels <= WF_MAX_FRAME_PIXELS) return 0;
    wf_outcome_fail(out, WF_DERIVE_ERR_TOO_LARGE,
                    "%s frames of %llu pixels in all, over the %llu-pixel limit for an animation (%u frames on a %u×%u canvas)",
                    format, (unsigned long long)pixels, (unsigned long long)WF_MAX_FRAME_PIXELS, frames, width, height);
    return -1;
}
