/*
 * TIFF decoding for derived images: libtiff's RGBA route (TIFFRGBAImage), which converts every layout the
 * checks let through (1-16 bits, gray, palette, RGB, CMYK, YCbCr, contiguous or separate planes, strips or
 * tiles), asked for the image as stored: libtiff would otherwise flip rows and columns for the Orientation
 * tag itself (without turning 5-8), and the derive pipeline turns it upright with all 8, as it does a JPEG.
 *
 * Band by band, one strip or one row of tiles at a time, so the memory held is a band of 32-bit pixels and
 * the strip or tile libtiff decodes it from: both counted against the decoder memory limit from the tags,
 * before any pixel is read ("decoding this TIFF would need 600 MiB ..."), libtiff's own allocations capped.
 */
#include "decode.h"
#include "icc_cap.h"
#include "tiff_format.h"
#include "tiff_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most libtiff may allocate at once while decoding: a strip or a tile (a single-strip 8-bit RGB image
 * of up to 89 megapixels), within the memory limit, which counts it too. */
#define WF_TIFF_DECODE_MAX_ALLOC ((uint64_t)256 << 20)

/* Rows decoded at a time: a strip, or a row of tiles. */
static uint32_t band_rows(TIFF *tif, uint32_t height) {
    uint32_t rows = 0;
    if (TIFFIsTiled(tif)) TIFFGetField(tif, TIFFTAG_TILELENGTH, &rows);
    else TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows);
    return rows == 0 || rows > height ? height : rows;
}

/* The band of 32-bit pixels, and the strip or tile (one a plane when planes are separate) libtiff decodes
 * it from, against the memory limit. */
static int within_budget(TIFF *tif, uint32_t width, uint32_t band, const wf_decode_options *options,
                         wf_decode_outcome *out) {
    uint64_t limit = options->max_memory ? options->max_memory : (uint64_t)WF_DEFAULT_MAX_MEMORY;
    uint16_t planar = PLANARCONFIG_CONTIG, samples = 1;
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    uint64_t chunk = TIFFIsTiled(tif) ? TIFFTileSize64(tif) : TIFFStripSize64(tif);
    uint64_t need = (uint64_t)width * band * 4 + chunk * (planar == PLANARCONFIG_SEPARATE ? samples : 1);
    if (need <= limit) return 1;
    wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT,
                    "decoding this TIFF would need %llu MiB, over the %llu MiB limit (%u rows a %s, %u pixels wide)",
                    (unsigned long long)((need + (1u << 20) - 1) >> 20), (unsigned long long)(limit >> 20), band,
                    TIFFIsTiled(tif) ? "tile" : "strip", width);
    return 0;
}

static uint8_t straight(uint32_t premultiplied, uint32_t alpha) {
    if (alpha == 0) return 0;
    if (premultiplied >= alpha) return 255;
    return (uint8_t)((premultiplied * 255 + alpha / 2) / alpha);
}

/* One row of libtiff's ABGR words as the sink's channels; `premultiplied`: the colour is associated with
 * the alpha, and the pipeline takes it straight, as PNG stores it. */
static void put_row(const uint32_t *in, uint8_t *out, uint32_t width, int gray, int alpha, int premultiplied) {
    for (uint32_t x = 0; x < width; x++) {
        uint32_t p = in[x], a = TIFFGetA(p);
        uint8_t r = (uint8_t)TIFFGetR(p), g = (uint8_t)TIFFGetG(p), b = (uint8_t)TIFFGetB(p);
        if (premultiplied && a != 255) r = straight(r, a), g = straight(g, a), b = straight(b, a);
        *out++ = r;
        if (!gray) *out++ = g, *out++ = b;
        if (alpha) *out++ = (uint8_t)a;
    }
}

/* The ICC profile, when it describes what the sink gets: a gray profile for gray, an RGB one for colour;
 * a CMYK file's describes ink and is dropped, as a CMYK JPEG's is. */
static void keep_icc(TIFF *tif, const wf_tiff_layout *layout, wf_decode_outcome *out) {
    uint32_t length = 0;
    const uint8_t *profile = NULL;
    if (!TIFFGetField(tif, TIFFTAG_ICCPROFILE, &length, &profile) || length == 0 || !profile) return;
    const char *space = layout->gray ? "GRAY" : "RGB ";
    if (layout->cmyk || length < 20 || memcmp(profile + 16, space, 4) != 0) {
        out->warnings++;
        return;
    }
    if (!wf_icc_fits(length, out)) return;
    out->icc = malloc(length);
    if (!out->icc) return;
    memcpy(out->icc, profile, length);
    out->icc_length = length;
}

static void fail_read(const wf_tiff *t, wf_decode_outcome *out) {
    if (wf_tiff_failure(t) == WF_ERR_TRUNCATED)
        wf_outcome_fail(out, WF_DERIVE_ERR_TRUNCATED, "truncated TIFF: the image data ends early");
    else
        wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt TIFF: %s", t->message[0] ? t->message : "unreadable image data");
}

/* Every band through the sink; 0, or -1 with `out` saying why. */
static int read_bands(wf_tiff *t, TIFFRGBAImage *image, const wf_tiff_layout *layout, uint32_t band,
                      wf_pixel_sink *sink, wf_decode_outcome *out) {
    uint32_t width = layout->width, height = layout->height;
    uint32_t *raster = malloc((size_t)width * band * sizeof *raster);
    if (!raster) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory for a band of %u TIFF rows", band);
        return -1;
    }
    int alpha = image->alpha != 0 && layout->alpha;
    /* libtiff associates unassociated colour (its UaToAa table) and passes associated colour on; gray it
     * passes on as stored, so only a file's own associated gray needs undoing. */
    int premultiplied = alpha && (!layout->gray || image->alpha == EXTRASAMPLE_ASSOCALPHA);
    for (uint32_t y = 0; y < height; y += band) {
        uint32_t rows = band < height - y ? band : height - y;
        image->row_offset = (int)y;
        image->col_offset = 0;
        if (!TIFFRGBAImageGet(image, raster, width, rows)) {
            fail_read(t, out);
            free(raster);
            return -1;
        }
        for (uint32_t r = 0; r < rows; r++) {
            put_row(raster + (size_t)r * width, sink->row(sink->self), width, layout->gray, alpha, premultiplied);
            sink->commit(sink->self);
        }
    }
    free(raster);
    return 0;
}

static void decode(wf_tiff *t, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out) {
    wf_tiff_layout layout;
    char reason[200];
    wf_status status = wf_tiff_check(t, &layout, reason, sizeof reason);
    if (status != WF_OK) {
        wf_outcome_fail(out, status == WF_ERR_UNSUPPORTED ? WF_DERIVE_ERR_UNSUPPORTED : WF_DERIVE_ERR_CORRUPT, "%s", reason);
        return;
    }
    TIFFRGBAImage image;
    char why[1024] = "";
    if (!TIFFRGBAImageBegin(&image, t->tif, 1, why)) {
        why[sizeof why - 1] = '\0';
        wf_outcome_fail(out, WF_DERIVE_ERR_UNSUPPORTED, "unsupported TIFF: %.150s", why);
        return;
    }
    /* The rows as stored: neither the requested nor the file's orientation makes libtiff flip anything. */
    image.req_orientation = ORIENTATION_TOPLEFT;
    image.orientation = ORIENTATION_TOPLEFT;
    uint32_t band = band_rows(t->tif, layout.height);
    if (within_budget(t->tif, layout.width, band, options, out)) {
        if (layout.alpha && image.alpha == 0) layout.channels--;
        char message[200] = "";
        wf_derive_status begun = sink->begin(sink->self, layout.width, layout.height, layout.channels, message, sizeof message);
        if (begun != WF_DERIVE_OK) wf_outcome_fail(out, begun, "%s", message);
        else if (read_bands(t, &image, &layout, band, sink, out) == 0) {
            if (options->want_icc) keep_icc(t->tif, &layout, out);
            out->warnings += t->warnings;
            out->status = WF_DERIVE_OK;
        }
    }
    TIFFRGBAImageEnd(&image);
}

void wf_decode_tiff(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out) {
    wf_tiff t;
    uint64_t limit = options->max_memory ? options->max_memory : (uint64_t)WF_DEFAULT_MAX_MEMORY;
    if (wf_tiff_open(&t, stream, limit < WF_TIFF_DECODE_MAX_ALLOC ? limit : WF_TIFF_DECODE_MAX_ALLOC) != 0) fail_read(&t, out);
    else decode(&t, options, sink, out);
    wf_tiff_close(&t);
}
