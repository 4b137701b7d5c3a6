/*
 * Internal: a BMP's headers, parsed and checked once for the header reader and the decoder: the 14-byte file
 * header, a DIB header of one of the sizes Windows defined (BITMAPCOREHEADER 12, BITMAPINFOHEADER 40, its
 * Adobe V2/V3 extensions 52/56 with colour masks, V4 108, V5 124), the colour masks and the palette's place.
 * Everything is read at offsets (pread), nothing before the checks pass.
 */
#ifndef WF_BMP_SUPPORT_H
#define WF_BMP_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "cimageio.h"
#include "stream.h"

enum { WF_BI_RGB = 0, WF_BI_RLE8 = 1, WF_BI_RLE4 = 2, WF_BI_BITFIELDS = 3, WF_BI_JPEG = 4, WF_BI_PNG = 5,
       WF_BI_ALPHABITFIELDS = 6 };

typedef struct {
    uint64_t file_size;
    uint64_t data_offset;     /* the pixel data, from the file's start */
    uint32_t dib_size;
    uint32_t width, height;   /* height as a magnitude; `top_down` for a negative one */
    int top_down;
    uint32_t bpp, compression;
    uint32_t masks[4];        /* red, green, blue, alpha (0: none) for 16 and 32 bits */
    uint64_t palette_offset;
    uint32_t palette_count;   /* entries read (at most 1 << bpp, at most 256) */
    uint32_t palette_entry;   /* 3 bytes (core header) or 4 */
    uint32_t cs_type;         /* V4/V5 colour space: 'MBED' embedded, 'LINK' linked, ... */
    uint64_t profile_offset, profile_size; /* V5's embedded profile, from the file's start */
} wf_bmp;

#define WF_BMP_CS_EMBEDDED 0x4D424544u /* 'MBED' */
#define WF_BMP_CS_LINKED 0x4C494E4Bu   /* 'LINK' */

/* Parses and checks the headers. WF_OK, or the status with a one-line `reason`. */
wf_status wf_bmp_parse(wf_stream *stream, wf_bmp *bmp, char *reason, size_t size);

/* Whether the pixels carry alpha the header can tell: an alpha mask (16 or 32 bits). A 32-bit BI_RGB file's
 * fourth bytes are alpha only when one is not 0, which only its pixels tell. */
int wf_bmp_alpha_mask(const wf_bmp *bmp);

#endif
