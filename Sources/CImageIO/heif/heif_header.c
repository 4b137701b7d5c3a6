/*
 * The HEIF and AVIF header: libheif parses the boxes (ftyp, meta and what it holds) and never the image
 * data. The size reported is the primary image's display size: its `ispe` with `clap`, `irot` and `imir`
 * applied, as libheif and the browsers show it; the EXIF orientation inside is informative only and is
 * not applied on top (iPhones write both), so the orientation here is always 1.
 */
#include <stdio.h>

#include "heif_support.h"
#include "readers.h"

static const char *name_of(wf_format format) { return format == WF_FORMAT_AVIF ? "AVIF" : "HEIF"; }

void wf_read_heif_header(wf_stream *stream, wf_header *out) {
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
        out->status = WF_OK;
        out->width = (uint32_t)width;
        out->height = (uint32_t)height;
        out->orientation = 1;
        out->alpha = heif_image_handle_has_alpha_channel(heif.primary);
        out->components = out->alpha ? 4 : 3;
        int depth = heif_image_handle_get_luma_bits_per_pixel(heif.primary);
        out->bit_depth = depth > 0 ? depth : 8;
    }
    wf_heif_close(&heif);
}
