/*
 * AVIF decoding by libavif (with dav1d), for derived images. libheif's route through the same dav1d took
 * about a quarter more CPU in a build (its plane copies, its RGB conversion and a full-size turn), so the
 * common AVIF, an 8-bit opaque SDR photo with an sRGB-like colour description or an ICC profile, is decoded
 * here:
 * converted to RGB by libavif's own portable code (not libyuv, whose results may depend on the processor),
 * cropped by `clap`, turned by `irot` and mirrored by `imir` in that order, as the HEIF rules and libheif
 * apply them. Anything else (alpha, 10 bits and more, HDR, wide-gamut nclx, sequences, any error) is left
 * to the libheif route, which owns the messages for damaged files.
 *
 * An AVIF whose YCbCr is JPEG's own (the BT.601 matrix at full range, avifenc's default) and whose every
 * output is a JPEG is not converted at all: its planes go to the sink as they are, cropped, with the turn
 * left to the small images (decode.h's begin_planes), as a YCbCr JPEG's do.
 */
#include <avif/avif.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "avif_format.h"
#include "decode.h"
#include "heif_graph.h"
#include "icc_cap.h"
#include "orient.h"
#include "source_file.h"

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

/* The EXIF-numbered orientation of irot followed by imir. */
static int display_turn(const avifImage *image) {
    int rotation = image->transformFlags & AVIF_TRANSFORM_IROT ? rotation_orientation(image->irot.angle) : 1;
    /* imir mode 0 exchanges top and bottom (EXIF 4), mode 1 left and right (EXIF 2) */
    int mirror = image->transformFlags & AVIF_TRANSFORM_IMIR ? (image->imir.mode == 0 ? 4 : 2) : 1;
    return wf_orientation_then(rotation, mirror);
}

/* `pixels` (width × height RGB, rows `stride` apart) turned by irot, then mirrored by imir, as a new tight
 * buffer (`width` and `height` become the turned size); NULL when out of memory. */
static uint8_t *turned(const avifImage *image, const uint8_t *pixels, size_t stride, uint32_t *width,
                       uint32_t *height) {
    size_t row = (size_t)*width * 3;
    uint8_t *out = malloc(row * *height);
    if (!out) return NULL;
    for (uint32_t y = 0; y < *height; y++) memcpy(out + (size_t)y * row, pixels + (size_t)y * stride, row);
    int turn = display_turn(image);
    uint8_t *next = turn ? wf_orient(out, width, height, 3, turn) : NULL;
    if (next != out) free(out);
    out = next;
    return out;
}

/* The cropped planes to a sink that takes them, where they are JPEG's YCbCr: 1 when sent, 0 when the RGB
 * route should run (nothing sent). */
static int push_planes(const avifImage *image, const avifCropRect *rect, wf_pixel_sink *sink) {
    if (!sink->begin_planes || image->yuvRange != AVIF_RANGE_FULL ||
        (image->matrixCoefficients != AVIF_MATRIX_COEFFICIENTS_BT601 &&
         image->matrixCoefficients != AVIF_MATRIX_COEFFICIENTS_BT470BG))
        return 0;
    uint32_t step_x = image->yuvFormat == AVIF_PIXEL_FORMAT_YUV444 ? 1 : 2;
    uint32_t step_y = image->yuvFormat == AVIF_PIXEL_FORMAT_YUV420 ? 2 : 1;
    if (image->yuvFormat != AVIF_PIXEL_FORMAT_YUV420 && image->yuvFormat != AVIF_PIXEL_FORMAT_YUV422 &&
        image->yuvFormat != AVIF_PIXEL_FORMAT_YUV444)
        return 0;
    if (rect->x % step_x != 0 || rect->y % step_y != 0) return 0; /* clap keeps whole chroma samples */
    int turn = display_turn(image);
    if (turn == 0) return 0;
    wf_plane_layout layout;
    for (int c = 0; c < 3; c++) {
        uint32_t sx = c == 0 ? 1 : step_x, sy = c == 0 ? 1 : step_y;
        layout.step_x[c] = sx;
        layout.step_y[c] = sy;
        layout.width[c] = (rect->width + sx - 1) / sx;
        layout.height[c] = (rect->height + sy - 1) / sy;
    }
    char message[200] = "";
    if (sink->begin_planes(sink->self, rect->width, rect->height, &layout, turn, message, sizeof message) != WF_DERIVE_OK)
        return 0;
    for (int c = 0; c < 3; c++) {
        const uint8_t *plane = image->yuvPlanes[c] + (size_t)(rect->y / layout.step_y[c]) * image->yuvRowBytes[c] +
                               rect->x / layout.step_x[c];
        for (uint32_t y = 0; y < layout.height[c]; y++) {
            memcpy(sink->plane_row(sink->self, c), plane + (size_t)y * image->yuvRowBytes[c], layout.width[c]);
            sink->plane_commit(sink->self, c);
        }
    }
    return 1;
}

/* The ICC profile, as the libheif route reports it. */
static void keep_icc(const avifImage *image, const wf_decode_options *options, wf_decode_outcome *out) {
    if (options->want_icc && image->icc.size > 0 && wf_icc_fits(image->icc.size, out)) {
        out->icc = malloc(image->icc.size);
        if (out->icc) {
            memcpy(out->icc, image->icc.data, image->icc.size);
            out->icc_length = image->icc.size;
        }
    }
}

/* Rows of the display image to the sink (or its planes), and the ICC profile; 1 when done, 0 to leave it to
 * libheif. */
static int push(const avifImage *image, const wf_decode_options *options, wf_pixel_sink *sink,
                wf_decode_outcome *out) {
    avifCropRect rect;
    if (!clean_aperture(image, &rect)) return 0;
    if (push_planes(image, &rect, sink)) {
        keep_icc(image, options, out);
        out->status = WF_DERIVE_OK;
        return 1;
    }
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
    uint8_t *moved = NULL;
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
    keep_icc(image, options, out);
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

/* Whether the file at `path` passes the item-graph check libheif's and libavif's routes make first. */
static int graph_allowed(const char *path) {
    wf_source_failure failure;
    int fd = wf_open_source(path, &failure);
    if (fd < 0) return 0;
    wf_stream stream;
    wf_stream_init_fd(&stream, fd);
    wf_heif_refusal refusal;
    int allowed = wf_heif_check_graph(&stream, wf_stream_size(&stream), &refusal) == 0;
    close(fd);
    return allowed;
}

int wf_decodes_with_libavif(const char *path) {
    if (!graph_allowed(path)) return 0;
    avifDecoder *decoder = avifDecoderCreate();
    if (!decoder) return 0;
    int eligible_file = avifDecoderSetIOFile(decoder, path) == AVIF_RESULT_OK &&
                        avifDecoderParse(decoder) == AVIF_RESULT_OK && eligible(decoder);
    avifDecoderDestroy(decoder);
    return eligible_file;
}
