/*
 * AVIF decoding by libavif (with dav1d), for derived images. libheif's route through the same dav1d took
 * about a quarter more CPU in a build (its plane copies, its RGB conversion and a full-size turn), so the
 * common AVIF, an 8-bit opaque SDR photo with an sRGB-like colour description or an ICC profile, is decoded
 * here:
 * converted to RGB by libavif's own portable code (not libyuv, whose results may depend on the processor),
 * cropped by `clap`, turned by `irot` and mirrored by `imir` in that order, as the HEIF rules and libheif
 * apply them. Anything else (alpha, 10 bits and more, HDR, wide-gamut nclx, sequences, any error) is left
 * to the libheif route, which owns the messages for damaged files.
 */
#include <avif/avif.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"

/* Whether the image is one this route decodes as libheif would, colour included. */
static int eligible(const avifDecoder *decoder) {
    const avifImage *image = decoder->image;
    if (decoder->imageCount != 1 || decoder->alphaPresent || image->depth != 8) return 0;
    if (image->yuvFormat == AVIF_PIXEL_FORMAT_NONE) return 0;
    /* sRGB primaries (or none said), and a curve browsers show as sRGB: no profile is made for them */
    if (image->colorPrimaries != AVIF_COLOR_PRIMARIES_BT709 && image->colorPrimaries != AVIF_COLOR_PRIMARIES_UNSPECIFIED)
        return 0;
    switch (image->transferCharacteristics) {
    case AVIF_TRANSFER_CHARACTERISTICS_BT470M:
    case AVIF_TRANSFER_CHARACTERISTICS_BT470BG:
    case AVIF_TRANSFER_CHARACTERISTICS_LINEAR:
    case AVIF_TRANSFER_CHARACTERISTICS_SMPTE2084:
    case AVIF_TRANSFER_CHARACTERISTICS_HLG: return 0;
    default: return 1;
    }
}

/* The EXIF orientation that turns an image as irot's anticlockwise quarter turns do. */
static int rotation_orientation(uint8_t angle) {
    static const int orientations[4] = {1, 8, 3, 6};
    return orientations[angle & 3];
}

/* The part of the image clap keeps (all of it without clap); 0 when the clap box is not valid. */
static int clean_aperture(const avifImage *image, avifCropRect *rect) {
    *rect = (avifCropRect){0, 0, image->width, image->height};
    if (!(image->transformFlags & AVIF_TRANSFORM_CLAP)) return 1;
    avifDiagnostics diagnostics;
    return avifCropRectConvertCleanApertureBox(rect, &image->clap, image->width, image->height, image->yuvFormat,
                                               &diagnostics);
}

/* `pixels` (width × height RGB, rows `stride` apart) turned by irot, then mirrored by imir, as a new tight
 * buffer (`width` and `height` become the turned size); NULL when out of memory. */
static uint8_t *turned(const avifImage *image, const uint8_t *pixels, size_t stride, uint32_t *width,
                       uint32_t *height) {
    size_t row = (size_t)*width * 3;
    uint8_t *out = malloc(row * *height);
    if (!out) return NULL;
    for (uint32_t y = 0; y < *height; y++) memcpy(out + (size_t)y * row, pixels + (size_t)y * stride, row);
    int turns[2] = {image->transformFlags & AVIF_TRANSFORM_IROT ? rotation_orientation(image->irot.angle) : 1,
                    /* imir mode 0 exchanges top and bottom (EXIF 4), mode 1 left and right (EXIF 2) */
                    image->transformFlags & AVIF_TRANSFORM_IMIR ? (image->imir.mode == 0 ? 4 : 2) : 1};
    for (int i = 0; i < 2; i++) {
        uint8_t *next = wf_orient(out, width, height, 3, turns[i]);
        if (next != out) free(out);
        out = next;
        if (!out) return NULL;
    }
    return out;
}

/* Rows of the display image to the sink, and the ICC profile; 1 when done, 0 to leave it to libheif. */
static int push(const avifImage *image, const wf_decode_options *options, wf_pixel_sink *sink,
                wf_decode_outcome *out) {
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_RGB;
    rgb.depth = 8;
    rgb.chromaUpsampling = AVIF_CHROMA_UPSAMPLING_NEAREST;
    rgb.avoidLibYUV = AVIF_TRUE;
    avifRGBImageAllocatePixels(&rgb);
    if (!rgb.pixels || avifImageYUVToRGB(image, &rgb) != AVIF_RESULT_OK) {
        avifRGBImageFreePixels(&rgb);
        return 0;
    }
    /* The rows go to the sink from where they are, unless the image must be turned first. */
    avifCropRect rect;
    uint8_t *moved = NULL;
    if (!clean_aperture(image, &rect)) {
        avifRGBImageFreePixels(&rgb);
        return 0;
    }
    uint32_t width = rect.width, height = rect.height;
    size_t stride = rgb.rowBytes;
    const uint8_t *pixels = rgb.pixels + (size_t)rect.y * stride + (size_t)rect.x * 3;
    if (image->transformFlags & (AVIF_TRANSFORM_IROT | AVIF_TRANSFORM_IMIR)) {
        moved = turned(image, pixels, stride, &width, &height);
        pixels = moved;
        stride = (size_t)width * 3;
    }
    char message[200] = "";
    /* no pixels (out of memory), or not the size the header reader saw: the libheif route says why */
    int began = pixels && sink->begin(sink->self, width, height, 3, message, sizeof message) == WF_DERIVE_OK;
    for (uint32_t y = 0; began && y < height; y++) {
        memcpy(sink->row(sink->self), pixels + (size_t)y * stride, (size_t)width * 3);
        sink->commit(sink->self);
    }
    free(moved);
    avifRGBImageFreePixels(&rgb);
    if (!began) return 0;
    if (options->want_icc && image->icc.size > 0 && image->icc.size <= WF_MAX_ICC_LENGTH) {
        out->icc = malloc(image->icc.size);
        if (out->icc) {
            memcpy(out->icc, image->icc.data, image->icc.size);
            out->icc_length = image->icc.size;
        }
    }
    out->status = WF_DERIVE_OK;
    return 1;
}

/* libavif reads from memory here: files beyond this (no photo is; a hostile file may be) go to libheif,
 * which reads only what it needs. */
static const size_t largest_file = 64u << 20;

int wf_decode_avif(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out) {
    size_t length = 0;
    size_t limit = options->max_memory < largest_file ? (size_t)options->max_memory : largest_file;
    uint8_t *bytes = wf_stream_slurp(stream, limit, &length);
    if (!bytes) return 0;
    avifDecoder *decoder = avifDecoderCreate();
    int handled = 0;
    if (decoder) {
        decoder->maxThreads = 1;
        decoder->ignoreExif = AVIF_TRUE;
        decoder->ignoreXMP = AVIF_TRUE;
        if (avifDecoderSetIOMemory(decoder, bytes, length) == AVIF_RESULT_OK &&
            avifDecoderParse(decoder) == AVIF_RESULT_OK && eligible(decoder) &&
            (uint64_t)decoder->image->width * decoder->image->height * 8 <= options->max_memory /* YUV, RGB, a turn */ &&
            avifDecoderNextImage(decoder) == AVIF_RESULT_OK)
            handled = push(decoder->image, options, sink, out);
        avifDecoderDestroy(decoder);
    }
    free(bytes);
    return handled;
}

int wf_decodes_with_libavif(const char *path) {
    avifDecoder *decoder = avifDecoderCreate();
    if (!decoder) return 0;
    int eligible_file = avifDecoderSetIOFile(decoder, path) == AVIF_RESULT_OK &&
                        avifDecoderParse(decoder) == AVIF_RESULT_OK && eligible(decoder);
    avifDecoderDestroy(decoder);
    return eligible_file;
}
