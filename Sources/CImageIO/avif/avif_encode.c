/*
 * The AVIF encoder of derived still images: libavif with libaom chosen explicitly (other AV1 encoders may be
 * linked in; aom is the reference and gives the same bytes for the same input), full range, `maxThreads` 1
 * so the bytes are deterministic (parallelism comes from deriving several photos at once).
 *
 * - Colour is YUV 4:2:0 at WF_AVIF_COLOUR_DEPTH bits (avif_support.h says why 8) from the 8-bit pixels
 *   (BT.601 matrix, libavif's own RGB conversion, libyuv avoided so the rounding does not depend on the
 *   CPU's SIMD). Gray stays gray: 8-bit YUV 4:0:0 (monochrome AV1), the gray samples as Y; it is a third
 *   smaller than gray spread over RGB, and a GRAY-space ICC profile still describes it.
 * - From speed 9 up, libaom's quantisation matrices (avif_support.h says why).
 * - Alpha, when some pixel is not opaque, is an alpha auxiliary image, coded losslessly (avif_support.h).
 * - Colour: the ICC profile when there is one (a `colr` prof box; the AV1 sequence header then says
 *   primaries and transfer "unspecified", matrix BT.601, so nothing contradicts the profile); else nclx
 *   1/13/6 (BT.709 primaries, the sRGB transfer curve, BT.601 matrix), full range: sRGB said explicitly,
 *   which Chrome, Firefox and Safari render as sRGB (2/2/6, "unspecified", is left to the decoder's guess).
 * - No Exif, no XMP: only the image (and alpha) items and the colour description.
 * Creates `path` as a new file and removes it again on failure. Never prints.
 */
#include <avif/avif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avif_format.h"
#include "avif_support.h"
#include "output_file.h"

/* The pixels into `image`'s planes; an avifResult. */
static avifResult fill(avifImage *image, const uint8_t *pixels, uint32_t width, uint32_t height, int channels) {
    int alpha = channels == 2 || channels == 4;
    if (channels >= 3) {
        avifRGBImage rgb;
        avifRGBImageSetDefaults(&rgb, image);
        rgb.depth = 8; /* the pixels are 8-bit whatever the image's depth */
        rgb.format = alpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB;
        rgb.avoidLibYUV = AVIF_TRUE;
        rgb.pixels = (uint8_t *)pixels;
        rgb.rowBytes = width * (uint32_t)channels;
        avifResult result = avifImageRGBToYUV(image, &rgb);
        if (result != AVIF_RESULT_OK) return result;
        if (!alpha || image->alphaPlane) return AVIF_RESULT_OK;
        if (image->depth != 8) return AVIF_RESULT_REFORMAT_FAILED; /* the copy below writes 8-bit samples */
    } else {
        avifResult result = avifImageAllocatePlanes(image, AVIF_PLANES_YUV);
        if (result != AVIF_RESULT_OK) return result;
        for (uint32_t y = 0; y < height; y++) {
            uint8_t *row = image->yuvPlanes[AVIF_CHAN_Y] + (size_t)y * image->yuvRowBytes[AVIF_CHAN_Y];
            const uint8_t *in = pixels + (size_t)y * width * (size_t)channels;
            for (uint32_t x = 0; x < width; x++) row[x] = in[(size_t)x * (size_t)channels];
        }
        if (!alpha) return AVIF_RESULT_OK;
    }
    /* The alpha plane, when the conversion did not make it. */
    avifResult result = avifImageAllocatePlanes(image, AVIF_PLANES_A);
    if (result != AVIF_RESULT_OK) return result;
    for (uint32_t y = 0; y < height; y++) {
        uint8_t *row = image->alphaPlane + (size_t)y * image->alphaRowBytes;
        const uint8_t *in = pixels + (size_t)y * width * (size_t)channels;
        for (uint32_t x = 0; x < width; x++) row[x] = in[(size_t)x * (size_t)channels + (size_t)channels - 1];
    }
    return AVIF_RESULT_OK;
}

int32_t wf_avif_matched_quality(int32_t speed) {
    if (speed == 0) speed = 9; /* the request's default */
    return speed <= 6 ? 73 : speed == 7 ? 76 : speed == 8 ? 78 : 83;
}

wf_derive_status wf_write_avif(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                               int quality, int speed, const uint8_t *icc, size_t icc_length, char *message,
                               size_t size) {
    if (!avifCodecName(AVIF_CODEC_CHOICE_AOM, AVIF_CODEC_FLAG_CAN_ENCODE)) {
        snprintf(message, size, "this libavif has no libaom encoder");
        return WF_DERIVE_ERR_UNSUPPORTED;
    }
    avifImage *image = channels >= 3 ? avifImageCreate(width, height, WF_AVIF_COLOUR_DEPTH, AVIF_PIXEL_FORMAT_YUV420)
                                     : avifImageCreate(width, height, 8, AVIF_PIXEL_FORMAT_YUV400);
    avifEncoder *encoder = avifEncoderCreate();
    avifRWData encoded = AVIF_DATA_EMPTY;
    wf_derive_status status = WF_DERIVE_OK;
    if (!image || !encoder) {
        snprintf(message, size, "out of memory");
        status = WF_DERIVE_ERR_LIMIT;
        goto done;
    }
    image->yuvRange = AVIF_RANGE_FULL;
    image->matrixCoefficients = AVIF_MATRIX_COEFFICIENTS_BT601;
    if (icc && icc_length > 0) {
        avifImageSetProfileICC(image, icc, icc_length);
        image->colorPrimaries = AVIF_COLOR_PRIMARIES_UNSPECIFIED;
        image->transferCharacteristics = AVIF_TRANSFER_CHARACTERISTICS_UNSPECIFIED;
    } else {
        image->colorPrimaries = AVIF_COLOR_PRIMARIES_BT709;
        image->transferCharacteristics = AVIF_TRANSFER_CHARACTERISTICS_SRGB;
    }
    avifResult result = fill(image, pixels, width, height, channels);
    if (result != AVIF_RESULT_OK) {
        snprintf(message, size, "cannot convert the image for AVIF: %s", avifResultToString(result));
        status = result == AVIF_RESULT_OUT_OF_MEMORY ? WF_DERIVE_ERR_LIMIT : WF_DERIVE_ERR_WRITE;
        goto done;
    }
    encoder->codecChoice = AVIF_CODEC_CHOICE_AOM;
    encoder->maxThreads = 1;
    encoder->speed = speed;
    encoder->minQuantizer = encoder->maxQuantizer = wf_avif_quantizer(quality);
    encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = WF_AVIF_ALPHA_QUANTIZER;
    if (speed >= WF_AVIF_QM_MIN_SPEED) avifEncoderSetCodecSpecificOption(encoder, "enable-qm", "1");
    result = avifEncoderWrite(encoder, image, &encoded);
    if (result != AVIF_RESULT_OK) {
        if (encoder->diag.error[0])
            snprintf(message, size, "cannot encode the AVIF: %s: %s", avifResultToString(result), encoder->diag.error);
        else
            snprintf(message, size, "cannot encode the AVIF: %s", avifResultToString(result));
        for (char *c = message; *c; c++) if (*c == '\n' || *c == '\r') *c = ' ';
        status = result == AVIF_RESULT_OUT_OF_MEMORY ? WF_DERIVE_ERR_LIMIT : WF_DERIVE_ERR_WRITE;
        goto done;
    }
    status = wf_output_keep(out, encoded.data, encoded.size, message, size);
done:
    avifRWDataFree(&encoded);
    if (encoder) avifEncoderDestroy(encoder);
    if (image) avifImageDestroy(image);
    return status;
}

wf_derive_status wf_encode_avif(wf_encoded *out, const wf_still *still, wf_encode_note *note) {
    const wf_raster *image = still->image;
    return wf_write_avif(out, image->pixels, image->width, image->height, image->channels, still->quality, still->speed,
                         still->icc, still->icc_length, note->message, sizeof note->message);
}
