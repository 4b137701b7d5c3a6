/*
 * Animated views: an animated GIF or WebP becomes an animated WebP that fits the request's box (never
 * upscaled). Every frame is composed on the canvas by the source's frames reader, resampled with the same
 * Lanczos-3 filter as still images (alpha premultiplied while filtering), and encoded with libwebp's
 * WebPAnimEncoder with the source's timing and loop count. Nothing but the ICC profile (when the source
 * has one) is carried over: no EXIF, no XMP. The same input gives the same bytes (single-threaded encoder).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <webp/encode.h>
#include <webp/mux.h>

#include "animation.h"
#include "derive.h"
#include "formats.h"
#include "output_file.h"
#include "resample.h"
#include "source_file.h"

/* Encoder settings, chosen by measurement (docs/formats.md, "Animations"): lossy at the request's quality,
 * with libwebp free to pick lossless for frames where that is smaller (flat-colour, GIF-like content).
 * Method 2, not 4: on 40 photographic 1200×800 frames it halves the time (2.7 s against 5.5 s) for 1% more
 * bytes; mixing costs nothing on photos. */
enum { ENCODER_METHOD = 2, ALLOW_MIXED = 1 };

typedef struct {
    WebPAnimEncoder *encoder;
    WebPConfig config;
    uint32_t width, height;
    int timestamp;
    uint32_t frames;
    int alpha; /* some output pixel is not opaque */
} animation;

static void fail(wf_derive_result *out, wf_derive_status status, const char *message) {
    out->status = status;
    snprintf(out->message, sizeof out->message, "%s", message);
}

static int start(animation *a, const wf_frames *frames, const wf_derive_request *request, wf_derive_result *out) {
    WebPAnimEncoderOptions options;
    if (!WebPAnimEncoderOptionsInit(&options) || !WebPConfigInit(&a->config)) {
        fail(out, WF_DERIVE_ERR_LIMIT, "libwebp's encoder does not match its headers");
        return -1;
    }
    options.anim_params.loop_count = frames->loop_count;
    options.anim_params.bgcolor = 0x00000000; /* transparent, as browsers show the background anyway */
    options.allow_mixed = ALLOW_MIXED;
    options.verbose = 0;
    a->config.quality = (float)request->quality;
    a->config.method = ENCODER_METHOD;
    a->config.thread_level = 0; /* deterministic bytes */
    a->encoder = WebPAnimEncoderNew((int)a->width, (int)a->height, &options);
    if (!a->encoder) {
        fail(out, WF_DERIVE_ERR_LIMIT, "out of memory for the animation encoder");
        return -1;
    }
    return 0;
}

/* A frame at the output size: the canvas itself, or a new resampled buffer. */
static uint8_t *fitted(const uint8_t *canvas, const wf_frames *frames, const animation *a) {
    if (a->width == frames->width && a->height == frames->height) return (uint8_t *)canvas;
    wf_resampler resampler;
    if (wf_resampler_init(&resampler, frames->width, frames->height, a->width, a->height, 4) != 0) return NULL;
    size_t stride = (size_t)frames->width * 4;
    for (uint32_t y = 0; y < frames->height; y++) {
        memcpy(wf_resampler_row(&resampler), canvas + y * stride, stride);
        wf_resampler_commit(&resampler);
    }
    uint8_t *output = wf_resampler_take_output(&resampler);
    wf_resampler_free(&resampler);
    return output;
}

static int any_transparent(const uint8_t *rgba, size_t pixels) {
    for (size_t i = 0; i < pixels; i++)
        if (rgba[i * 4 + 3] != 255) return 1;
    return 0;
}

static int add_frame(animation *a, const uint8_t *rgba, int32_t duration, wf_derive_result *out) {
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) return -1;
    picture.use_argb = 1;
    picture.width = (int)a->width;
    picture.height = (int)a->height;
    int ok = WebPPictureImportRGBA(&picture, rgba, (int)a->width * 4) &&
             WebPAnimEncoderAdd(a->encoder, &picture, a->timestamp, &a->config);
    WebPPictureFree(&picture);
    if (!ok) {
        fail(out, WF_DERIVE_ERR_LIMIT, "the animation encoder failed on a frame");
        return -1;
    }
    a->alpha |= any_transparent(rgba, (size_t)a->width * a->height);
    a->timestamp += duration > 0 ? duration : 0;
    a->frames++;
    return 0;
}

/* Every frame of the source into the encoder; 0 when all went in. */
static int encode_frames(animation *a, wf_frames *frames, wf_derive_result *out) {
    wf_decode_outcome decoded = {.status = WF_DERIVE_OK};
    const uint8_t *canvas;
    int32_t duration;
    int status;
    while ((status = frames->next(frames->state, &canvas, &duration, &decoded)) == 1) {
        uint8_t *frame = fitted(canvas, frames, a);
        if (!frame) {
            fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
            return -1;
        }
        int added = add_frame(a, frame, duration, out);
        if (frame != canvas) free(frame);
        if (added != 0) return -1;
    }
    if (status < 0) {
        fail(out, decoded.status, decoded.message);
        return -1;
    }
    if (a->frames == 0) {
        fail(out, WF_DERIVE_ERR_CORRUPT, "an animation without frames");
        return -1;
    }
    return 0;
}

/* The assembled animation, with the ICC profile added as an ICCP chunk when there is one. */
static int assemble(animation *a, const wf_decode_outcome *decoded, WebPData *webp, wf_derive_result *out) {
    WebPData plain = {0};
    if (!WebPAnimEncoderAdd(a->encoder, NULL, a->timestamp, NULL) || !WebPAnimEncoderAssemble(a->encoder, &plain)) {
        fail(out, WF_DERIVE_ERR_LIMIT, "the animation encoder could not assemble the file");
        return -1;
    }
    if (!decoded->icc) {
        *webp = plain;
        return 0;
    }
    WebPMux *mux = WebPMuxCreate(&plain, 1);
    WebPData icc = {.bytes = decoded->icc, .size = decoded->icc_length};
    int ok = mux && WebPMuxSetChunk(mux, "ICCP", &icc, 1) == WEBP_MUX_OK && WebPMuxAssemble(mux, webp) == WEBP_MUX_OK;
    WebPMuxDelete(mux);
    WebPDataClear(&plain);
    if (!ok) {
        fail(out, WF_DERIVE_ERR_LIMIT, "could not add the colour profile to the animation");
        return -1;
    }
    out->icc_length = (int32_t)decoded->icc_length;
    return 0;
}

static int open_frames(const wf_header *header, wf_stream *stream, const wf_derive_request *request, wf_frames *frames,
                       wf_decode_outcome *decoded, wf_derive_result *out) {
    wf_decode_options options = {.scale_denom = 1, .max_scans = request->max_scans, .max_memory = request->max_memory,
                                 .want_icc = 1};
    const wf_format_entry *entry = wf_format_entry_of(header->format);
    int status = -1;
    if (!entry || !entry->open_frames)
        wf_outcome_fail(decoded, WF_DERIVE_ERR_UNSUPPORTED, "not an animation format");
    /* A GIF's budget from its blocks before a frame is decoded (a WebP's is checked from its chunks as it opens). */
    else if (!entry->animation_budget || entry->animation_budget(stream, &options, decoded) == 0)
        status = entry->open_frames(stream, &options, frames, decoded);
    if (status != 0) fail(out, decoded->status, decoded->message);
    return status;
}

static void make(const wf_header *header, wf_stream *stream, const wf_derive_request *request, wf_encoded *output,
                 wf_derive_result *out) {
    wf_frames frames;
    wf_decode_outcome decoded = {.status = WF_DERIVE_OK};
    if (open_frames(header, stream, request, &frames, &decoded, out) != 0) return;
    animation a = {0};
    wf_fit(frames.width, frames.height, request->max_width, request->max_height, &a.width, &a.height);
    WebPData webp = {0};
    if (start(&a, &frames, request, out) == 0 && encode_frames(&a, &frames, out) == 0 &&
        assemble(&a, &decoded, &webp, out) == 0) {
        wf_derive_status status = wf_output_keep(output, webp.bytes, webp.size, out->message, sizeof out->message);
        out->status = status;
        if (status == WF_DERIVE_OK) {
            out->width = a.width;
            out->height = a.height;
            out->output_format = WF_FORMAT_WEBP;
            out->frames = a.frames;
            out->channels = a.alpha ? 4 : 3;
            out->scale_denom = 1;
            out->warnings += decoded.warnings;
            snprintf(out->message, sizeof out->message, "%s", decoded.message); /* a note, as a still's (icc_cap.h) */
        }
    }
    WebPDataClear(&webp);
    WebPAnimEncoderDelete(a.encoder);
    frames.close(frames.state);
    free(decoded.icc);
}

void wf_write_animated_webp(int source, const wf_header *header, const wf_derive_request *request,
                            wf_encoded *output, wf_derive_result *out) {
    out->icc_length = 0;
    wf_stream *stream = malloc(sizeof *stream);
    if (stream) {
        wf_stream_init_fd(stream, source);
        make(header, stream, request, output, out);
        free(stream);
    } else {
        fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
    }
}
