/*
 * WebP decoding for derived images. The whole file is read into memory (libwebp decodes from memory; at most
 * WF_WEBP_MAX_FILE_BYTES). A still image goes through WebPDecode, scaled by libwebp itself when the pipeline
 * asks for 1/d (straight to ceil(width / d) × ceil(height / d), as libjpeg's DCT scaling), RGB when opaque and
 * RGBA with alpha; an animation gives its first frame composed on the canvas (through webp_frames.c), shrunk
 * by d with an alpha-weighted box filter. libwebp has no row callback, so the image is decoded into one buffer,
 * which must fit the request's decoder memory limit, and then pushed to the sink row by row. The ICC profile
 * comes from the ICCP chunk when VP8X flags one. What libwebp itself holds at full size (a lossless image
 * whole, an alpha plane) counts against that limit too.
 */
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>

#include "decode.h"
#include "webp_format.h"
#include "webp_support.h"

static uint32_t scaled(uint32_t size, uint32_t denominator) { return (size + denominator - 1) / denominator; }

static int within_memory(uint64_t bytes, uint32_t width, uint32_t height, const wf_decode_options *options,
                         wf_decode_outcome *out) {
    if (options->max_memory == 0 || bytes <= options->max_memory) return 0;
    wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "decoding %u×%u needs %llu bytes, over the %llu-byte decoder memory limit",
                    width, height, (unsigned long long)bytes, (unsigned long long)options->max_memory);
    return -1;
}

/* What libwebp holds at full size besides the output, whatever the scale it is asked for: a lossless image's
 * decoder keeps every (packed) pixel as 32-bit ARGB (its transforms and back-references reach any earlier
 * pixel; a 2.4 MB 12000×12000 file took 677 MiB), and a lossy one with alpha its alpha plane, and the lossless
 * alpha stream's own plane. Refused from the header, as an interlaced PNG is (png_decode.c). */
static int within_whole_budget(const WebPBitstreamFeatures *features, const wf_webp_layout *layout, uint64_t output,
                               const wf_decode_options *options, wf_decode_outcome *out) {
    uint64_t pixels = (uint64_t)features->width * (uint64_t)features->height;
    uint64_t whole = features->format == 2 ? wf_webp_lossless_row(layout->vp8l, layout->vp8l_length, (uint32_t)features->width) * (uint64_t)features->height * 4
                   : features->has_alpha ? pixels * 2 : 0;
    uint64_t limit = options->max_memory ? options->max_memory : (uint64_t)WF_DEFAULT_MAX_MEMORY;
    if (whole == 0 || output + whole <= limit) return 0;
    wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "WebP needs more than the %llu MiB decoding limit (a large %s: %llu MiB held whole)",
                    (unsigned long long)(limit >> 20), features->format == 2 ? "lossless file" : "file with alpha",
                    (unsigned long long)((output + whole + (1u << 20) - 1) >> 20));
    return -1;
}

static const char *describe(VP8StatusCode code) {
    switch (code) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
    case VP8_STATUS_SUSPENDED: return "suspended";
    case VP8_STATUS_USER_ABORT: return "aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "not enough data";
    default: return "unknown error";
    }
}

static void push_rows(const uint8_t *pixels, uint32_t height, size_t stride, wf_pixel_sink *sink) {
    for (uint32_t y = 0; y < height; y++) {
        memcpy(sink->row(sink->self), pixels + (size_t)y * stride, stride);
        sink->commit(sink->self);
    }
}

static int begin(wf_pixel_sink *sink, uint32_t width, uint32_t height, int channels, wf_decode_outcome *out) {
    char message[200] = "";
    wf_derive_status status = sink->begin(sink->self, width, height, channels, message, sizeof message);
    if (status == WF_DERIVE_OK) return 0;
    wf_outcome_fail(out, status, "%s", message);
    return -1;
}

static void decode_still(const uint8_t *bytes, size_t length, const WebPBitstreamFeatures *features, const wf_webp_layout *layout,
                         const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out) {
    uint32_t d = options->scale_denom > 1 ? options->scale_denom : 1;
    uint32_t width = scaled((uint32_t)features->width, d), height = scaled((uint32_t)features->height, d);
    int channels = features->has_alpha ? 4 : 3;
    size_t stride = (size_t)width * (size_t)channels;
    if (within_memory((uint64_t)stride * height, width, height, options, out) != 0 ||
        within_whole_budget(features, layout, (uint64_t)stride * height, options, out) != 0)
        return;
    uint8_t *pixels = malloc(stride * height);
    if (!pixels) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory for a %u×%u image", width, height);
        return;
    }
    WebPDecoderConfig config;
    WebPInitDecoderConfig(&config);
    if (d > 1) {
        config.options.use_scaling = 1;
        config.options.scaled_width = (int)width;
        config.options.scaled_height = (int)height;
    }
    config.output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = pixels;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = stride * height;
    if (begin(sink, width, height, channels, out) == 0) {
        VP8StatusCode code = WebPDecode(bytes, length, &config);
        if (code == VP8_STATUS_OK) {
            push_rows(pixels, height, stride, sink);
            out->status = WF_DERIVE_OK;
        } else if (code == VP8_STATUS_NOT_ENOUGH_DATA) {
            wf_outcome_fail(out, WF_DERIVE_ERR_TRUNCATED, "truncated WebP: the image data ends early");
        } else {
            wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt WebP: %s", describe(code));
        }
    }
    WebPFreeDecBuffer(&config.output);
    free(pixels);
}

/* One output row of the canvas shrunk by d: each pixel the alpha-weighted mean of its d × d block (cut at the
 * edges), so transparent pixels lend no colour to their neighbours. */
static void shrink_row(const uint8_t *canvas, uint32_t width, uint32_t height, uint32_t d, uint32_t y, uint8_t *row) {
    uint32_t out_width = scaled(width, d), y_end = (y + 1) * d < height ? (y + 1) * d : height;
    for (uint32_t x = 0; x < out_width; x++) {
        uint32_t x_end = (x + 1) * d < width ? (x + 1) * d : width;
        uint64_t sum[3] = {0, 0, 0}, alpha = 0, count = 0;
        for (uint32_t sy = y * d; sy < y_end; sy++) {
            const uint8_t *p = canvas + ((size_t)sy * width + (size_t)x * d) * 4;
            for (uint32_t sx = x * d; sx < x_end; sx++, p += 4) {
                for (int c = 0; c < 3; c++) sum[c] += (uint64_t)p[c] * p[3];
                alpha += p[3];
                count++;
            }
        }
        uint8_t *o = row + (size_t)x * 4;
        for (int c = 0; c < 3; c++) o[c] = alpha ? (uint8_t)((sum[c] + alpha / 2) / alpha) : 0;
        o[3] = (uint8_t)((alpha + count / 2) / count);
    }
}

static void decode_first_frame(uint8_t *bytes, size_t length, const wf_decode_options *options, wf_pixel_sink *sink,
                               wf_decode_outcome *out) {
    wf_frames frames;
    if (wf_webp_frames_from_memory(bytes, length, 1, options, &frames, out) != 0) return;
    uint32_t d = options->scale_denom > 1 ? options->scale_denom : 1;
    uint32_t width = scaled(frames.width, d), height = scaled(frames.height, d);
    const uint8_t *canvas = NULL;
    int32_t duration = 0;
    int status = frames.next(frames.state, &canvas, &duration, out);
    if (status == 0) wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt WebP: an animation without frames");
    if (status == 1 && begin(sink, width, height, 4, out) == 0) {
        if (d == 1) {
            push_rows(canvas, height, (size_t)width * 4, sink);
        } else {
            for (uint32_t y = 0; y < height; y++) {
                shrink_row(canvas, frames.width, frames.height, d, y, sink->row(sink->self));
                sink->commit(sink->self);
            }
        }
        out->status = WF_DERIVE_OK;
    }
    frames.close(frames.state);
    if (out->status != WF_DERIVE_OK) {
        free(out->icc);
        out->icc = NULL;
        out->icc_length = 0;
    }
}

void wf_decode_webp(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out) {
    size_t length = 0;
    uint8_t *bytes = wf_webp_slurp(stream, &length, out);
    if (!bytes) return;
    WebPBitstreamFeatures features;
    VP8StatusCode code = WebPGetFeatures(bytes, length, &features);
    if (code != VP8_STATUS_OK) {
        free(bytes);
        if (code == VP8_STATUS_NOT_ENOUGH_DATA) wf_outcome_fail(out, WF_DERIVE_ERR_TRUNCATED, "truncated WebP: the file ends inside its header");
        else wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt WebP: %s in the header", describe(code));
        return;
    }
    if (features.has_animation) {
        decode_first_frame(bytes, length, options, sink, out); /* the frames own `bytes` now */
        return;
    }
    wf_webp_layout layout;
    if (wf_webp_layout_for_decode(bytes, length, &layout, out) == 0) {
        decode_still(bytes, length, &features, &layout, options, sink, out);
        if (out->status == WF_DERIVE_OK) wf_webp_take_icc(&layout, options, out);
    }
    free(bytes);
}
