/*
 * The WebP encoder of derived still images: libwebp's WebPEncode, lossy (VP8) at the request's quality,
 * single-threaded so the same input gives the same bytes. Alpha, when the image has any, is kept as an ALPH
 * chunk compressed losslessly (alpha_quality 100): cut-out edges stay exactly as resampled, only colour is
 * lossy; the colour under fully transparent pixels may be changed by the encoder (`exact` off), as nobody
 * sees it. Gray is written as RGB (WebP has no gray mode). The ICC profile is added as an ICCP chunk with
 * libwebpmux and is the only metadata: no EXIF, no XMP. A GRAY-space profile cannot describe RGB data (the
 * ICC specification; libpng refuses the same pairing), so it is dropped with a warning. Creates `path` as a
 * new file and removes it again on failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/encode.h>
#include <webp/mux.h>

#include "output_file.h"
#include "webp_format.h"

static int is_gray_profile(const uint8_t *icc, size_t length) {
    return length >= 20 && memcmp(icc + 16, "GRAY", 4) == 0;
}

/* RGB or RGBA from 1-4 channels; `pixels` itself when it already is. */
static const uint8_t *as_rgb(const uint8_t *pixels, size_t count, int channels, uint8_t **owned) {
    *owned = NULL;
    if (channels >= 3) return pixels;
    int alpha = channels == 2, out_channels = alpha ? 4 : 3;
    uint8_t *rgb = malloc(count * (size_t)out_channels);
    if (!rgb) return NULL;
    for (size_t i = 0; i < count; i++) {
        uint8_t g = pixels[i * (size_t)channels];
        uint8_t *p = rgb + i * (size_t)out_channels;
        p[0] = p[1] = p[2] = g;
        if (alpha) p[3] = pixels[i * 2 + 1];
    }
    *owned = rgb;
    return rgb;
}

static const char *encoder_error(WebPEncodingError code) {
    switch (code) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "the image is too large for WebP (16383 pixels a side at most)";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW:
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "the image is too large for one WebP partition";
    default: return "libwebp's encoder failed";
    }
}

/* The encoded file in `webp` (WebPMemoryWriter's memory, or the mux's). 0 on success. */
static int encode(const uint8_t *rgb, uint32_t width, uint32_t height, int alpha, int quality, int method, WebPMemoryWriter *writer,
                  char *message, size_t size) {
    WebPConfig config;
    WebPPicture picture;
    if (!WebPConfigInit(&config) || !WebPPictureInit(&picture)) {
        snprintf(message, size, "libwebp's encoder does not match its headers");
        return -1;
    }
    config.quality = (float)quality;
    config.method = method;
    config.thread_level = 0;    /* deterministic bytes; parallelism comes from several photos at a time */
    config.alpha_compression = 1;
    config.alpha_quality = 100; /* lossless alpha */
    config.exact = 0;
    if (!WebPValidateConfig(&config)) {
        snprintf(message, size, "libwebp refused its own configuration");
        return -1;
    }
    picture.use_argb = 0; /* lossy: straight to YUV */
    picture.width = (int)width;
    picture.height = (int)height;
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = writer;
    int stride = (int)width * (alpha ? 4 : 3);
    int ok = alpha ? WebPPictureImportRGBA(&picture, rgb, stride) : WebPPictureImportRGB(&picture, rgb, stride);
    if (!ok) {
        snprintf(message, size, "%s", encoder_error(picture.error_code));
        WebPPictureFree(&picture);
        return -1;
    }
    ok = WebPEncode(&config, &picture);
    if (!ok) snprintf(message, size, "cannot encode the WebP: %s", encoder_error(picture.error_code));
    WebPPictureFree(&picture);
    return ok ? 0 : -1;
}

/* `plain` with an ICCP chunk; 0 on success (`out` then owns new memory). */
static int add_profile(const WebPMemoryWriter *plain, const uint8_t *icc, size_t icc_length, WebPData *out) {
    WebPData image = {.bytes = plain->mem, .size = plain->size};
    WebPMux *mux = WebPMuxCreate(&image, 1);
    WebPData profile = {.bytes = icc, .size = icc_length};
    int ok = mux && WebPMuxSetChunk(mux, "ICCP", &profile, 1) == WEBP_MUX_OK && WebPMuxAssemble(mux, out) == WEBP_MUX_OK;
    WebPMuxDelete(mux);
    return ok ? 0 : -1;
}

wf_derive_status wf_write_webp(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                               int quality, int method, const uint8_t *icc, size_t icc_length, int *icc_kept,
                               char *message, size_t size) {
    *icc_kept = 0;
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        snprintf(message, size, "%u×%u is too large for WebP (%d pixels a side at most)", width, height, WEBP_MAX_DIMENSION);
        return WF_DERIVE_ERR_REQUEST;
    }
    uint8_t *owned;
    const uint8_t *rgb = as_rgb(pixels, (size_t)width * height, channels, &owned);
    if (!rgb) {
        snprintf(message, size, "out of memory");
        return WF_DERIVE_ERR_LIMIT;
    }
    int alpha = channels == 2 || channels == 4;
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    wf_derive_status status = WF_DERIVE_OK;
    if (encode(rgb, width, height, alpha, quality, method, &writer, message, size) != 0) {
        status = WF_DERIVE_ERR_LIMIT;
    } else if (icc && icc_length > 0 && !is_gray_profile(icc, icc_length)) {
        WebPData muxed = {0};
        if (add_profile(&writer, icc, icc_length, &muxed) != 0) {
            snprintf(message, size, "could not add the colour profile to the WebP");
            status = WF_DERIVE_ERR_LIMIT;
        } else {
            status = wf_output_keep(out, muxed.bytes, muxed.size, message, size);
            *icc_kept = status == WF_DERIVE_OK;
        }
        WebPDataClear(&muxed);
    } else {
        status = wf_output_keep(out, writer.mem, writer.size, message, size);
    }
    WebPMemoryWriterClear(&writer);
    free(owned);
    return status;
}

wf_derive_status wf_encode_webp(wf_encoded *out, const wf_still *still, wf_encode_note *note) {
    const wf_raster *image = still->image;
    return wf_write_webp(out, image->pixels, image->width, image->height, image->channels, still->quality,
                         WF_WEBP_METHOD, still->icc, still->icc_length, &note->icc_kept, note->message,
                         sizeof note->message);
}
