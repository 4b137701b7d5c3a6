/* BMP headers: the file header and the DIB header, checked (bmp_support.c). */
#include "bmp_format.h"
#include "bmp_support.h"
#include "readers.h"

int wf_sniff_bmp(const uint8_t *bytes, size_t length) {
    if (!WF_STARTS_WITH(bytes, length, "BM") || length < 18) return 0;
    uint32_t dib = (uint32_t)bytes[14] | (uint32_t)bytes[15] << 8 | (uint32_t)bytes[16] << 16 | (uint32_t)bytes[17] << 24;
    return dib == 12 || dib == 40 || dib == 52 || dib == 56 || dib == 64 || dib == 108 || dib == 124;
}

void wf_read_bmp_header(wf_stream *stream, wf_header *out) {
    wf_bmp bmp;
    char reason[200];
    wf_status status = wf_bmp_parse(stream, &bmp, reason, sizeof reason);
    if (status != WF_OK) {
        wf_fail(out, status, "%s", reason);
        return;
    }
    out->width = bmp.width;
    out->height = bmp.height;
    out->bit_depth = (int32_t)bmp.bpp;
    /* A 32-bit BI_RGB file's alpha is known from its pixels only: reported as 4 components all the same. */
    out->alpha = wf_bmp_alpha_mask(&bmp);
    out->components = out->alpha || (bmp.bpp == 32 && bmp.compression == WF_BI_RGB) ? 4 : 3;
    out->status = WF_OK;
}
