/*
 * WebP frames: libwebpdemux's WebPAnimDecoder over the whole file in memory, each frame composed onto the
 * canvas (disposal and blending as the format says, transparent background as browsers show it) as RGBA.
 * A still WebP is an animation of one frame. The frame count and the animation's pixel budget (canvas ×
 * frames) are checked from the chunk headers before libwebp parses anything: WebPAnimDecoderNew indexes
 * every frame, and a million 1-pixel frames would cost it a million allocations.
 */
#include <stdlib.h>
#include <string.h>
#include <webp/demux.h>

#include "webp_format.h"
#include "webp_support.h"

typedef struct {
    uint8_t *bytes;
    size_t length;
    WebPAnimDecoder *decoder;
    int timestamp;  /* where the previous frame ended, in ms */
    uint32_t index; /* frames handed out */
} frames_state;

static void close_frames(void *opaque) {
    frames_state *state = opaque;
    if (!state) return;
    WebPAnimDecoderDelete(state->decoder);
    free(state->bytes);
    free(state);
}

static int next_frame(void *opaque, const uint8_t **rgba, int32_t *duration_ms, wf_decode_outcome *out) {
    frames_state *state = opaque;
    if (!WebPAnimDecoderHasMoreFrames(state->decoder)) return 0;
    uint8_t *canvas = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetNext(state->decoder, &canvas, &timestamp)) {
        wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt WebP: frame %u cannot be decoded", state->index + 1);
        return -1;
    }
    *rgba = canvas;
    *duration_ms = timestamp - state->timestamp;
    state->timestamp = timestamp;
    state->index++;
    return 1;
}

/* The limits of animation.h, from the chunk headers; 0 when the animation may be decoded. libwebp's animation
 * decoder keeps two canvases (the frame being composed and the one before), and decoding a lossless frame
 * holds it whole once more (an 8000×8000 animation of two lossless frames took 846 MiB); the whole animation's
 * pixels count only when more than the first frame will be asked for. */
static int check_limits(const wf_webp_layout *layout, int first_only, const wf_decode_options *options,
                        wf_decode_outcome *out) {
    if (wf_animation_canvas_fits("WebP", layout->canvas_width, layout->canvas_height, 2, layout->frame_whole,
                                 options ? options->max_memory : 0, out) != 0)
        return -1;
    if (first_only) return 0;
    return wf_animation_within_budget("WebP", layout->canvas_width, layout->canvas_height, layout->frames,
                                      layout->frame_pixels, out);
}

static int open_decoder(frames_state *state, const wf_webp_layout *layout, wf_frames *frames, wf_decode_outcome *out) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "libwebp's animation decoder does not match its headers");
        return -1;
    }
    options.color_mode = MODE_RGBA; /* straight alpha: the resampler premultiplies itself */
    options.use_threads = 0;
    WebPData data = {.bytes = state->bytes, .size = state->length};
    state->decoder = WebPAnimDecoderNew(&data, &options);
    WebPAnimInfo info;
    if (!state->decoder || !WebPAnimDecoderGetInfo(state->decoder, &info)) {
        wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt WebP: libwebp cannot read the frames");
        return -1;
    }
    if (info.canvas_width != layout->canvas_width || info.canvas_height != layout->canvas_height) {
        wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt WebP: the image is %u×%u, its canvas %u×%u", info.canvas_width,
                        info.canvas_height, layout->canvas_width, layout->canvas_height);
        return -1;
    }
    frames->width = info.canvas_width;
    frames->height = info.canvas_height;
    frames->loop_count = (int32_t)info.loop_count;
    return 0;
}

int wf_webp_frames_from_memory(uint8_t *bytes, size_t length, int first_only, const wf_decode_options *options,
                               wf_frames *frames, wf_decode_outcome *out) {
    frames_state *state = calloc(1, sizeof *state);
    if (!state) {
        free(bytes);
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        return -1;
    }
    state->bytes = bytes;
    state->length = length;
    wf_webp_layout layout;
    if (wf_webp_layout_for_decode(bytes, length, &layout, out) != 0 || check_limits(&layout, first_only, options, out) != 0 ||
        open_decoder(state, &layout, frames, out) != 0) {
        close_frames(state);
        return -1;
    }
    wf_webp_take_icc(&layout, options, out);
    frames->state = state;
    frames->next = next_frame;
    frames->close = close_frames;
    return 0;
}

int wf_webp_frames_open(wf_stream *stream, const wf_decode_options *options, wf_frames *frames, wf_decode_outcome *out) {
    size_t length = 0;
    uint8_t *bytes = wf_webp_slurp(stream, &length, out);
    if (!bytes) return -1;
    return wf_webp_frames_from_memory(bytes, length, 0, options, frames, out);
}
