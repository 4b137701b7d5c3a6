/*
 * A BMP's headers (bmp_support.h): read at offsets, each field checked before it is used, so a header that
 * lies (a palette past the data, masks that overlap, a height of -2^31) is refused with the reason.
 */
#include "bmp_support.h"

#include "readers.h"

#include <stdio.h>
#include <string.h>

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | le16(p + 2) << 16; }


/* The DIB header's fields (`d` holds all `dib_size` of its bytes). */
static wf_status read_dib(const uint8_t *d, wf_bmp *b, uint32_t *colours, char *reason, size_t size) {
    uint32_t planes;
    if (b->dib_size == 12) {
        b->width = le16(d + 4), b->height = le16(d + 6), planes = le16(d + 8), b->bpp = le16(d + 10);
        b->compression = WF_BI_RGB, b->palette_entry = 3, *colours = 0;
    } else {
        int32_t width = (int32_t)le32(d + 4), height = (int32_t)le32(d + 8);
        if (width <= 0 || height == 0 || height == INT32_MIN)
            return wf_refuse(reason, size, WF_ERR_CORRUPT, "corrupt BMP: a size of %d×%d", width, height);
        b->width = (uint32_t)width, b->top_down = height < 0;
        b->height = height < 0 ? (uint32_t)-height : (uint32_t)height;
        planes = le16(d + 12), b->bpp = le16(d + 14), b->compression = le32(d + 16), *colours = le32(d + 32);
        b->palette_entry = 4;
        if (b->dib_size >= 52) memcpy(b->masks, (uint32_t[]){le32(d + 40), le32(d + 44), le32(d + 48), 0}, 16);
        if (b->dib_size >= 56) b->masks[3] = le32(d + 52);
        if (b->dib_size >= 108) b->cs_type = le32(d + 56);
        if (b->dib_size >= 124) b->profile_offset = 14 + (uint64_t)le32(d + 112), b->profile_size = le32(d + 116);
    }
    if (b->width == 0 || b->height == 0)
        return wf_refuse(reason, size, WF_ERR_CORRUPT, "corrupt BMP: a size of %u×%u", b->width, b->height);
    if (planes != 1) return wf_refuse(reason, size, WF_ERR_CORRUPT, "corrupt BMP: %u planes (a BMP has 1)", planes);
    return WF_OK;
}

static wf_status check_coding(const wf_bmp *b, char *reason, size_t size) {
    uint32_t c = b->compression, bpp = b->bpp;
    if (c == WF_BI_JPEG || c == WF_BI_PNG)
        return wf_refuse(reason, size, WF_ERR_UNSUPPORTED, "unsupported BMP compression: %s inside a BMP",
                      c == WF_BI_JPEG ? "a JPEG" : "a PNG");
    if (c > WF_BI_ALPHABITFIELDS) return wf_refuse(reason, size, WF_ERR_UNSUPPORTED, "unsupported BMP compression: %u", c);
    int fits = c == WF_BI_RGB    ? bpp == 1 || bpp == 4 || bpp == 8 || bpp == 16 || bpp == 24 || bpp == 32
               : c == WF_BI_RLE8 ? bpp == 8
               : c == WF_BI_RLE4 ? bpp == 4
                                 : bpp == 16 || bpp == 32;
    if (!fits) return wf_refuse(reason, size, WF_ERR_CORRUPT, "corrupt BMP: %u bits a pixel with compression %u", bpp, c);
    if (b->top_down && (c == WF_BI_RLE8 || c == WF_BI_RLE4))
        return wf_refuse(reason, size, WF_ERR_CORRUPT, "corrupt BMP: a top-down image cannot be run-length coded");
    return WF_OK;
}

/* A mask is one run of set bits, within the pixel. */
static int contiguous(uint32_t mask, uint32_t bpp) {
    if (bpp < 32 && (mask >> bpp) != 0) return 0;
    while (mask && !(mask & 1)) mask >>= 1;
    return (mask & (mask + 1)) == 0;
}

/* The colour masks of 16- and 32-bit pixels: BI_RGB's fixed ones, or the file's (after a 40-byte header, or
 * inside a larger one). `after` is where the bytes after the header and its masks begin. */
static wf_status read_masks(wf_stream *s, wf_bmp *b, uint64_t *after, char *reason, size_t size) {
    int fields = b->compression == WF_BI_BITFIELDS || b->compression == WF_BI_ALPHABITFIELDS;
    if (b->compression == WF_BI_RGB) {
        uint32_t rgb16[4] = {0x7C00, 0x03E0, 0x001F, 0}, rgb32[4] = {0xFF0000, 0xFF00, 0xFF, 0};
        memcpy(b->masks, b->bpp == 16 ? rgb16 : rgb32, sizeof b->masks);
    } else if (fields && b->dib_size == 40) {
        uint32_t count = b->compression == WF_BI_ALPHABITFIELDS ? 4 : 3;
        uint8_t raw[16];
        if (wf_stream_read_at(s, *after, raw, count * 4) != count * 4)
            return wf_refuse(reason, size, WF_ERR_TRUNCATED, "truncated BMP: the file ends inside its colour masks");
        for (uint32_t i = 0; i < count; i++) b->masks[i] = le32(raw + 4 * i);
        *after += count * 4;
    }
    if (!fields && b->compression != WF_BI_RGB) return WF_OK;
    if (b->bpp <= 8 || b->bpp == 24) return WF_OK;
    uint32_t all = 0;
    for (int i = 0; i < 4; i++) {
        if ((i < 3 && b->masks[i] == 0) || !contiguous(b->masks[i], b->bpp) || (all & b->masks[i]))
            return wf_refuse(reason, size, WF_ERR_CORRUPT, "corrupt BMP: colour masks %08X %08X %08X %08X", b->masks[0],
                          b->masks[1], b->masks[2], b->masks[3]);
        all |= b->masks[i];
    }
    return WF_OK;
}

int wf_bmp_alpha_mask(const wf_bmp *bmp) {
    return (bmp->bpp == 16 || bmp->bpp == 32) && bmp->compression != WF_BI_RGB && bmp->masks[3] != 0;
}

/* The palette (1-8 bits a pixel): as many entries as the header says, at most 1 << bpp, and only those that
 * lie before the pixel data. */
static wf_status place_palette(wf_bmp *b, uint64_t after, uint32_t colours, char *reason, size_t size) {
    if (b->bpp > 8) return WF_OK;
    uint32_t most = 1u << b->bpp;
    b->palette_offset = after;
    b->palette_count = colours == 0 || colours > most ? most : colours;
    uint64_t room = b->data_offset > after ? (b->data_offset - after) / b->palette_entry : 0;
    if (room < b->palette_count) b->palette_count = (uint32_t)room;
    if (b->palette_count == 0)
        return wf_refuse(reason, size, WF_ERR_CORRUPT, "corrupt BMP: no room for its palette before its pixels");
    return WF_OK;
}

wf_status wf_bmp_parse(wf_stream *s, wf_bmp *b, char *reason, size_t size) {
    memset(b, 0, sizeof *b);
    int64_t file_size = wf_stream_size(s);
    b->file_size = file_size < 0 ? UINT64_MAX : (uint64_t)file_size;
    uint8_t head[14 + 124];
    size_t got = wf_stream_read_at(s, 0, head, sizeof head);
    if (got < 18) return wf_refuse(reason, size, WF_ERR_TRUNCATED, "truncated BMP: the file ends inside its header");
    b->data_offset = le32(head + 10), b->dib_size = le32(head + 14);
    if (b->dib_size == 64)
        return wf_refuse(reason, size, WF_ERR_UNSUPPORTED, "unsupported BMP: an OS/2 2.x header");
    if (b->dib_size != 12 && b->dib_size != 40 && b->dib_size != 52 && b->dib_size != 56 && b->dib_size != 108 &&
        b->dib_size != 124)
        return wf_refuse(reason, size, WF_ERR_CORRUPT, "corrupt BMP: a DIB header of %u bytes", b->dib_size);
    if (got < 14 + b->dib_size)
        return wf_refuse(reason, size, WF_ERR_TRUNCATED, "truncated BMP: the file ends inside its header");
    uint32_t colours = 0;
    uint64_t after = 14 + (uint64_t)b->dib_size;
    wf_status status = read_dib(head + 14, b, &colours, reason, size);
    if (status == WF_OK) status = check_coding(b, reason, size);
    if (status == WF_OK) status = read_masks(s, b, &after, reason, size);
    if (status != WF_OK) return status;
    if (b->data_offset < after)
        return wf_refuse(reason, size, WF_ERR_CORRUPT, "corrupt BMP: its pixel data (at %llu) starts inside its header",
                      (unsigned long long)b->data_offset);
    if (b->data_offset >= b->file_size)
        return wf_refuse(reason, size, WF_ERR_TRUNCATED, "truncated BMP: the file ends before its pixel data");
    return place_palette(b, after, colours, reason, size);
}
