/*
 * What of a TIFF Waterfall reads (tiff_support.h: wf_tiff_check): IFD0, if it is a picture libtiff's RGBA
 * route converts, coded by a codec on the allow-list. Everything here reads tags libtiff already parsed;
 * no pixel is touched.
 */
#include "tiff_support.h"
#include "source_file.h"

#include "readers.h"

#include <stdio.h>
#include <string.h>

/* The codecs Waterfall lets libtiff run: the ones photographs and scans are written with, whose decoders
 * are the most used and fuzzed. Old-style JPEG (6), JBIG, LERC, LZMA, the fax codecs and the Pixar, SGI,
 * ThunderScan and NeXT ones are refused by name. */
static const uint16_t allowed[] = {COMPRESSION_NONE, COMPRESSION_LZW, COMPRESSION_JPEG, COMPRESSION_ADOBE_DEFLATE,
                                   COMPRESSION_DEFLATE, COMPRESSION_PACKBITS, COMPRESSION_ZSTD, COMPRESSION_WEBP};

static const struct {
    uint16_t code;
    const char *name;
} names[] = {
    {COMPRESSION_CCITTRLE, "CCITT modified Huffman"}, {COMPRESSION_CCITTFAX3, "CCITT Group 3 fax"},
    {COMPRESSION_CCITTFAX4, "CCITT Group 4 fax"}, {COMPRESSION_OJPEG, "old-style JPEG"},
    {COMPRESSION_NEXT, "NeXT"}, {COMPRESSION_THUNDERSCAN, "ThunderScan"}, {COMPRESSION_PIXARFILM, "Pixar film"},
    {COMPRESSION_PIXARLOG, "PixarLog"}, {COMPRESSION_JBIG, "JBIG"}, {COMPRESSION_SGILOG, "SGILog"},
    {COMPRESSION_SGILOG24, "SGILog24"}, {COMPRESSION_JP2000, "JPEG 2000"}, {COMPRESSION_LERC, "LERC"},
    {COMPRESSION_LZMA, "LZMA"}, {COMPRESSION_JXL, "JPEG XL"}, {COMPRESSION_ZSTD, "ZSTD"}, {COMPRESSION_WEBP, "WebP"},
};


static wf_status check_compression(TIFF *tif, char *reason, size_t size) {
    uint16_t compression = COMPRESSION_NONE;
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    const char *name = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == compression) name = names[i].name;
    int listed = 0;
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) listed |= allowed[i] == compression;
    if (!listed && name) return wf_refuse(reason, size, WF_ERR_UNSUPPORTED, "unsupported TIFF compression: %s", name);
    if (!listed) return wf_refuse(reason, size, WF_ERR_UNSUPPORTED, "unsupported TIFF compression: %u", compression);
    if (!TIFFIsCODECConfigured(compression))
        return wf_refuse(reason, size, WF_ERR_UNSUPPORTED, "unsupported TIFF compression: %s (not in this libtiff)",
                      name ? name : "?");
    return WF_OK;
}

/* A camera raw file, or a first page that is only a preview of another. */
static wf_status check_kind(TIFF *tif, char *reason, size_t size) {
    void *dng_version = NULL;
    if (TIFFGetField(tif, TIFFTAG_DNGVERSION, &dng_version))
        return wf_refuse(reason, size, WF_ERR_UNSUPPORTED, "unsupported TIFF: a DNG camera raw file (its first image is a preview)");
    uint32_t subfile = 0;
    if (TIFFGetField(tif, TIFFTAG_SUBFILETYPE, &subfile) && (subfile & FILETYPE_REDUCEDIMAGE))
        return wf_refuse(reason, size, WF_ERR_UNSUPPORTED,
                      "unsupported TIFF: its first image is a reduced-resolution preview (NewSubfileType %u)", subfile);
    return WF_OK;
}

static wf_status check_samples(TIFF *tif, char *reason, size_t size) {
    uint16_t format = SAMPLEFORMAT_UINT, bits = 1, samples = 1;
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    if (format == SAMPLEFORMAT_IEEEFP || format == SAMPLEFORMAT_COMPLEXIEEEFP)
        return wf_refuse(reason, size, WF_ERR_UNSUPPORTED, "unsupported TIFF: floating-point samples (%u bits)", bits);
    if (format != SAMPLEFORMAT_UINT && format != SAMPLEFORMAT_VOID)
        return wf_refuse(reason, size, WF_ERR_UNSUPPORTED, "unsupported TIFF: signed samples (SampleFormat %u)", format);
    if (bits != 1 && bits != 2 && bits != 4 && bits != 8 && bits != 16)
        return wf_refuse(reason, size, WF_ERR_UNSUPPORTED, "unsupported TIFF: %u bits a sample", bits);
    if (samples < 1 || samples > 5)
        return wf_refuse(reason, size, WF_ERR_UNSUPPORTED, "unsupported TIFF: %u samples a pixel", samples);
    return WF_OK;
}

/* An extra sample is alpha as libtiff's RGBA route takes it (tif_getimage.c, with this build's
 * DEFAULT_EXTRASAMPLE_AS_ALPHA: 4 RGB samples and no ExtraSamples tag are colour and alpha). */
static int has_alpha(TIFF *tif, uint16_t photometric) {
    uint16_t samples = 1, extras = 0, *kinds = NULL;
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extras, &kinds);
    if (extras >= 1 && kinds)
        return kinds[0] == EXTRASAMPLE_ASSOCALPHA || kinds[0] == EXTRASAMPLE_UNASSALPHA ||
               (kinds[0] == EXTRASAMPLE_UNSPECIFIED && samples > 3);
#ifdef DEFAULT_EXTRASAMPLE_AS_ALPHA
    return samples == 4 && photometric == PHOTOMETRIC_RGB;
#else
    return 0;
#endif
}

static void describe(TIFF *tif, wf_tiff_layout *layout) {
    uint16_t photometric = PHOTOMETRIC_MINISWHITE, orientation = ORIENTATION_TOPLEFT, bits = 1;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &layout->width);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &layout->height);
    TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric);
    TIFFGetFieldDefaulted(tif, TIFFTAG_ORIENTATION, &orientation);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    layout->orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    layout->gray = photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE;
    layout->cmyk = photometric == PHOTOMETRIC_SEPARATED;
    layout->alpha = has_alpha(tif, photometric);
    layout->channels = (layout->gray ? 1 : 3) + layout->alpha;
    layout->bits = bits;
}

wf_status wf_tiff_check(wf_tiff *t, wf_tiff_layout *layout, char *reason, size_t size) {
    memset(layout, 0, sizeof *layout);
    TIFF *tif = t->tif;
    wf_status status = check_kind(tif, reason, size);
    if (status == WF_OK) status = check_compression(tif, reason, size);
    if (status == WF_OK) status = check_samples(tif, reason, size);
    if (status != WF_OK) return status;
    describe(tif, layout);
    if (layout->width == 0 || layout->height == 0)
        return wf_refuse(reason, size, WF_ERR_CORRUPT, "corrupt TIFF: its first image has no width or height");
    char why[1024] = "";
    if (!TIFFRGBAImageOK(tif, why)) {
        why[sizeof why - 1] = '\0';
        wf_lowercase_first(why);
        return wf_refuse(reason, size, WF_ERR_UNSUPPORTED, "unsupported TIFF: %.150s", why);
    }
    return WF_OK;
}
