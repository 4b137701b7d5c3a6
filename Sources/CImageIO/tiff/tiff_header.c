/*
 * TIFF headers through libtiff: IFD0's tags, read from wherever IFD0 lies (libtiff and most scanners write
 * it after the image data), strip tables left unread.
 */
#include "readers.h"
#include "tiff_format.h"
#include "tiff_support.h"

int wf_sniff_tiff(const uint8_t *bytes, size_t length) {
    return WF_STARTS_WITH(bytes, length, "II*\0") || WF_STARTS_WITH(bytes, length, "MM\0*") ||
           WF_STARTS_WITH(bytes, length, "II+\0") || WF_STARTS_WITH(bytes, length, "MM\0+");
}

void wf_read_tiff_header(wf_stream *stream, wf_header *out) {
    wf_tiff t;
    if (wf_tiff_open(&t, stream, WF_TIFF_HEADER_MAX_ALLOC) != 0) {
        wf_status status = wf_tiff_failure(&t);
        if (status == WF_ERR_TRUNCATED)
            wf_fail(out, status, "truncated TIFF: the file ends after %llu bytes, before its first image's tags",
                    (unsigned long long)t.size);
        else
            wf_fail(out, status, "corrupt TIFF: %s", t.message);
        wf_tiff_close(&t);
        return;
    }
    wf_tiff_layout layout;
    char reason[200];
    wf_status status = wf_tiff_check(&t, &layout, reason, sizeof reason);
    if (status != WF_OK) {
        wf_fail(out, status, "%s", reason);
    } else {
        out->width = layout.width;
        out->height = layout.height;
        out->orientation = layout.orientation;
        out->alpha = layout.alpha;
        out->components = layout.channels;
        out->bit_depth = layout.bits;
        out->warnings = t.warnings;
        out->status = WF_OK;
    }
    wf_tiff_close(&t);
}
