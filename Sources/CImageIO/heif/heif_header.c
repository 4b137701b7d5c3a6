/*
 * The HEIF and AVIF header: libheif parses the boxes (ftyp, meta and what it holds) and never the image
 * data. The size reported is the primary image's display size: its `ispe` with `clap`, `irot` and `imir`
 * applied, as libheif and the browsers show it; the EXIF orientation inside is informative only and is
 * not applied on top (iPhones write both), so the orientation here is always 1.
 */
#include <stdio.h>
#include <string.h>

#include "avif_format.h"
#include "heif_boxes.h"
#include "heif_format.h"
#include "heif_support.h"
#include "readers.h"

/* The brand an ISO base media file names right after "ftyp"; NULL when it is not one. */
static const uint8_t *iso_brand(const uint8_t *bytes, size_t length) {
    return length >= 12 && memcmp(bytes + 4, "ftyp", 4) == 0 ? bytes + 8 : NULL;
}

int wf_sniff_heic(const uint8_t *bytes, size_t length) {
    const uint8_t *brand = iso_brand(bytes, length);
    static const char *heif[] = {"heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"};
    for (size_t i = 0; brand && i < sizeof heif / sizeof *heif; i++)
        if (memcmp(brand, heif[i], 4) == 0) return 1;
    return 0;
}

int wf_sniff_avif(const uint8_t *bytes, size_t length) {
    const uint8_t *brand = iso_brand(bytes, length);
    return brand && (memcmp(brand, "avif", 4) == 0 || memcmp(brand, "avis", 4) == 0);
}

static const char *name_of(wf_format format) { return format == WF_FORMAT_AVIF ? "AVIF" : "HEIF"; }

static void succeed(wf_header *out, uint32_t width, uint32_t height, int alpha, int bit_depth) {
    out->status = WF_OK;
    out->width = width;
    out->height = height;
    out->orientation = 1;
    out->alpha = alpha;
    out->components = alpha ? 4 : 3;
    out->bit_depth = bit_depth > 0 ? bit_depth : 8;
}

/* The boxes answer plain files from one read; libheif decides every other one (see heif_boxes.h). A file
 * whose item graph is refused (heif_graph.h) is refused here too, so the header, the metadata and the
 * decode agree whichever route would have answered. */
void wf_read_heif_header(wf_stream *stream, wf_header *out) {
    /* An AVIF sequence is read as the animation browsers play (avif_sequence.c). */
    if (out->format == WF_FORMAT_AVIF && wf_read_avif_sequence_header(stream, out)) return;
    int64_t size = wf_stream_size(stream); /* one fstat for both readers */
    wf_heif_refusal refusal;
    if (wf_heif_check_graph(stream, size, &refusal) != 0) {
        wf_fail(out, refusal.status, "%s %s: %s", refusal.status == WF_ERR_CORRUPT ? "corrupt" : "unsupported",
                name_of(out->format), refusal.message);
        return;
    }
    wf_heif_facts facts;
    if (wf_heif_quick_facts(stream, size, &facts)) {
        succeed(out, facts.width, facts.height, facts.alpha, facts.bit_depth);
        return;
    }
    wf_read_heif_header_with_libheif(stream, out);
}

void wf_read_heif_header_with_libheif(wf_stream *stream, wf_header *out) {
    wf_heif heif;
    struct heif_error error;
    if (wf_heif_open(&heif, stream, 1, &error) != 0) {
        char text[200];
        wf_status status;
        wf_heif_describe(&heif, error, name_of(out->format), text, sizeof text, &status);
        wf_fail(out, status, "%s", text);
        wf_heif_close(&heif);
        return;
    }
    int width = heif_image_handle_get_width(heif.primary), height = heif_image_handle_get_height(heif.primary);
    if (width <= 0 || height <= 0) {
        wf_fail(out, WF_ERR_CORRUPT, "corrupt %s: the primary image has no size", name_of(out->format));
    } else {
        succeed(out, (uint32_t)width, (uint32_t)height, heif_image_handle_has_alpha_channel(heif.primary),
                heif_image_handle_get_luma_bits_per_pixel(heif.primary));
    }
    wf_heif_close(&heif);
}
