/*
 * BMP decoding for derived images: 1, 4 and 8 bits through the palette, 16 and 32 through colour masks
 * (BI_RGB's fixed ones, BI_BITFIELDS, BI_ALPHABITFIELDS), 24-bit BGR, and RLE8/RLE4. Uncompressed rows are read
 * one at a time where they lie (a bottom-up file from its last row: pread, no whole-image buffer); an RLE
 * file, whose rows come bottom-up in a stream, is decoded into one RGBA buffer, budgeted from the header
 * (width × height × 4 against the decoder memory limit) before a byte of it is read.
 *
 * As browsers do: a 32-bit BI_RGB file's fourth bytes are alpha only when one of them is not 0 (Chromium's
 * and FFmpeg's rule: most such files leave them 0); pixels an RLE file skips (a delta, an early end of line
 * or of the bitmap) are transparent; a palette index past the palette is black. A mask narrower than 8 bits
 * is scaled to 0-255 rounded, as Chromium's tables do (Pillow truncates: 16 of 31 is 132 here, 131 there). A V5
 * header's embedded colour profile is kept (through the ICC cap); a linked one (a path) is never opened.
 */
#include "bmp_format.h"
#include "bmp_support.h"
#include "decode.h"
#include "icc_cap.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    wf_stream *stream;
    const wf_bmp *bmp;
    uint8_t palette[256][4];
    uint32_t shift[4], bits[4];
} decoder;

/* Reads an RLE stream a block at a time, at offsets. */
typedef struct {
    wf_stream *stream;
    uint64_t at, end;
    uint8_t block[4096];
    size_t length, next;
} byte_reader;

static int next_byte(byte_reader *r) {
    if (r->next == r->length) {
        if (r->at >= r->end) return -1;
        size_t want = r->end - r->at < sizeof r->block ? (size_t)(r->end - r->at) : sizeof r->block;
        r->length = wf_stream_read_at(r->stream, r->at, r->block, want);
        r->at += r->length;
        r->next = 0;
        if (r->length == 0) return -1;
    }
    return r->block[r->next++];
}

static void read_palette(decoder *d) {
    const wf_bmp *b = d->bmp;
    for (int i = 0; i < 256; i++) memcpy(d->palette[i], (uint8_t[]){0, 0, 0, 255}, 4);
    uint8_t raw[256 * 4];
    size_t got = wf_stream_read_at(d->stream, b->palette_offset, raw, (size_t)b->palette_count * b->palette_entry);
    for (uint32_t i = 0; i < b->palette_count && (i + 1) * b->palette_entry <= got; i++) {
        const uint8_t *e = raw + i * b->palette_entry;
        memcpy(d->palette[i], (uint8_t[]){e[2], e[1], e[0], 255}, 4);
    }
}

static void measure_masks(decoder *d) {
    for (int i = 0; i < 4; i++) {
        uint32_t mask = d->bmp->masks[i];
        d->shift[i] = mask ? (uint32_t)__builtin_ctz(mask) : 0;
        d->bits[i] = (uint32_t)__builtin_popcount(mask);
    }
}

/* A masked channel as 8 bits: the top 8 of a wider one, a narrower one scaled to 0-255 and rounded. */
static uint8_t channel(const decoder *d, uint32_t pixel, int i) {
    uint32_t bits = d->bits[i], v = (pixel & d->bmp->masks[i]) >> d->shift[i];
    if (bits >= 8) return (uint8_t)(v >> (bits - 8));
    uint32_t most = (1u << bits) - 1;
    return (uint8_t)((v * 255 + most / 2) / most);
}

/* One stored row as RGBA. */
static void unpack_row(const decoder *d, const uint8_t *in, uint8_t *rgba, uint32_t width) {
    uint32_t bpp = d->bmp->bpp;
    int fixed32 = bpp == 32 && d->bmp->compression == WF_BI_RGB;
    for (uint32_t x = 0; x < width; x++, rgba += 4) {
        if (bpp <= 8) {
            uint32_t bit = x * bpp, index = (in[bit / 8] >> (8 - bpp - bit % 8)) & ((1u << bpp) - 1);
            memcpy(rgba, d->palette[index], 4);
        } else if (bpp == 24 || fixed32) {
            const uint8_t *p = in + (size_t)x * (bpp / 8);
            memcpy(rgba, (uint8_t[]){p[2], p[1], p[0], fixed32 ? p[3] : 255}, 4);
        } else {
            const uint8_t *p = in + (size_t)x * (bpp / 8);
            uint32_t pixel = bpp == 16 ? (uint32_t)p[0] | (uint32_t)p[1] << 8
                                       : (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
            uint8_t a = d->bmp->masks[3] ? channel(d, pixel, 3) : 255;
            memcpy(rgba, (uint8_t[]){channel(d, pixel, 0), channel(d, pixel, 1), channel(d, pixel, 2), a}, 4);
        }
    }
}

static uint64_t row_stride(const wf_bmp *b) { return ((uint64_t)b->width * b->bpp + 31) / 32 * 4; }

/* Reads stored row `y` (0 the first in the file); 0, or -1 when the file ends inside it. */
static int read_row(const decoder *d, uint32_t y, uint8_t *raw) {
    uint64_t stride = row_stride(d->bmp), needed = ((uint64_t)d->bmp->width * d->bmp->bpp + 7) / 8;
    uint64_t at = d->bmp->data_offset + (uint64_t)y * stride;
    return wf_stream_read_at(d->stream, at, raw, (size_t)needed) == needed ? 0 : -1;
}

/* A 32-bit BI_RGB file: 1 when some fourth byte is not 0 (then it is alpha), 0 when all are, -1 cut short. */
static int fourth_bytes_used(const decoder *d, uint8_t *raw) {
    for (uint32_t y = 0; y < d->bmp->height; y++) {
        if (read_row(d, y, raw) != 0) return -1;
        for (uint32_t x = 0; x < d->bmp->width; x++)
            if (raw[(size_t)x * 4 + 3] != 0) return 1;
    }
    return 0;
}

static void put_pixels(const uint8_t *rgba, uint8_t *out, uint32_t width, int channels) {
    if (channels == 4) {
        memcpy(out, rgba, (size_t)width * 4);
        return;
    }
    for (uint32_t x = 0; x < width; x++, rgba += 4, out += 3) memcpy(out, rgba, 3);
}

/* Every row, top to bottom, as it lies in the file. */
static void decode_rows(decoder *d, wf_pixel_sink *sink, wf_decode_outcome *out) {
    const wf_bmp *b = d->bmp;
    uint8_t *raw = malloc((size_t)row_stride(b)), *rgba = malloc((size_t)b->width * 4);
    int alpha = wf_bmp_alpha_mask(b);
    if (raw && rgba && b->bpp == 32 && b->compression == WF_BI_RGB) alpha = fourth_bytes_used(d, raw);
    char message[200] = "";
    wf_derive_status status = !raw || !rgba ? WF_DERIVE_ERR_LIMIT
                              : alpha < 0   ? WF_DERIVE_ERR_TRUNCATED
                                            : sink->begin(sink->self, b->width, b->height, alpha ? 4 : 3, message, sizeof message);
    for (uint32_t y = 0; status == WF_DERIVE_OK && y < b->height; y++) {
        if (read_row(d, b->top_down ? y : b->height - 1 - y, raw) != 0) {
            status = WF_DERIVE_ERR_TRUNCATED;
            break;
        }
        unpack_row(d, raw, rgba, b->width);
        if (!alpha) /* a 32-bit file whose fourth bytes are all 0: opaque */
            for (uint32_t x = 0; x < b->width; x++) rgba[(size_t)x * 4 + 3] = 255;
        put_pixels(rgba, sink->row(sink->self), b->width, alpha ? 4 : 3);
        sink->commit(sink->self);
    }
    if (status == WF_DERIVE_ERR_TRUNCATED) wf_outcome_fail(out, status, "truncated BMP: the pixel data ends early");
    else if (status == WF_DERIVE_ERR_LIMIT && !message[0]) wf_outcome_fail(out, status, "out of memory for a BMP row");
    else if (status != WF_DERIVE_OK) wf_outcome_fail(out, status, "%s", message);
    else out->status = WF_DERIVE_OK;
    free(raw);
    free(rgba);
}

/* Puts palette entry `index` at (x, y) of the RLE image, y counted from the bottom; outside it, nothing. */
static void rle_put(const decoder *d, uint8_t *rgba, uint32_t x, uint32_t y, uint32_t index) {
    const wf_bmp *b = d->bmp;
    if (x < b->width && y < b->height) memcpy(rgba + (((size_t)(b->height - 1 - y)) * b->width + x) * 4, d->palette[index], 4);
}

/* An absolute run of `count` indices (a byte each for RLE8, a nibble for RLE4), padded to 16 bits. 0, or -1
 * at the end of the data. */
static int rle_absolute(const decoder *d, byte_reader *r, uint8_t *rgba, uint32_t *x, uint32_t y, int count, int four) {
    int byte = 0, used = 0;
    for (int i = 0; i < count; i++) {
        if (!four || i % 2 == 0) {
            if ((byte = next_byte(r)) < 0) return -1;
            used++;
        }
        rle_put(d, rgba, (*x)++, y, four ? (i % 2 ? byte & 15 : byte >> 4) : byte);
    }
    return used % 2 && next_byte(r) < 0 ? -1 : 0;
}

/* RLE8 or RLE4 into `rgba` (transparent where the stream skips); 0, or -1 when the data ends before the
 * end-of-bitmap mark with rows still to come. */
static int decode_rle(const decoder *d, uint8_t *rgba) {
    const wf_bmp *b = d->bmp;
    byte_reader r = {.stream = d->stream, .at = b->data_offset, .end = b->file_size};
    int four = b->compression == WF_BI_RLE4;
    uint32_t x = 0, y = 0;
    while (y < b->height) {
        int count = next_byte(&r), value = next_byte(&r);
        if (count < 0 || value < 0) return y + 1 >= b->height ? 0 : -1;
        if (count > 0) {
            for (int i = 0; i < count; i++) rle_put(d, rgba, x++, y, four ? (i % 2 ? value & 15 : value >> 4) : (uint32_t)value);
        } else if (value == 0) {
            x = 0, y++;
        } else if (value == 1) {
            return 0;
        } else if (value == 2) {
            int dx = next_byte(&r), dy = next_byte(&r);
            if (dx < 0 || dy < 0) return -1;
            x += (uint32_t)dx, y += (uint32_t)dy;
        } else if (rle_absolute(d, &r, rgba, &x, y, value, four) != 0) {
            return y + 1 >= b->height ? 0 : -1;
        }
        if (x > b->width) x = b->width; /* runs past the row are clipped, never wrapped */
    }
    return 0;
}

static void decode_run_length(decoder *d, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out) {
    const wf_bmp *b = d->bmp;
    uint64_t limit = options->max_memory ? options->max_memory : (uint64_t)WF_DEFAULT_MAX_MEMORY;
    uint64_t need = (uint64_t)b->width * b->height * 4;
    if (need > limit) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "decoding this RLE BMP would need %llu MiB, over the %llu MiB limit",
                        (unsigned long long)((need + (1u << 20) - 1) >> 20), (unsigned long long)(limit >> 20));
        return;
    }
    uint8_t *rgba = calloc((size_t)need, 1);
    if (!rgba) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory for a %u×%u BMP", b->width, b->height);
        return;
    }
    int alpha = 0;
    if (decode_rle(d, rgba) != 0) {
        wf_outcome_fail(out, WF_DERIVE_ERR_TRUNCATED, "truncated BMP: the run-length data ends early");
    } else {
        for (size_t i = 3; i < need && !alpha; i += 4) alpha = rgba[i] == 0;
        char message[200] = "";
        wf_derive_status status = sink->begin(sink->self, b->width, b->height, alpha ? 4 : 3, message, sizeof message);
        for (uint32_t y = 0; status == WF_DERIVE_OK && y < b->height; y++) {
            put_pixels(rgba + (size_t)y * b->width * 4, sink->row(sink->self), b->width, alpha ? 4 : 3);
            sink->commit(sink->self);
        }
        if (status != WF_DERIVE_OK) wf_outcome_fail(out, status, "%s", message);
        else out->status = WF_DERIVE_OK;
    }
    free(rgba);
}

/* A V5 header's embedded profile, through the cap; a linked one (a file name) is never opened. */
static void keep_icc(const decoder *d, wf_decode_outcome *out) {
    const wf_bmp *b = d->bmp;
    if (b->cs_type == WF_BMP_CS_LINKED) out->warnings++;
    if (b->cs_type != WF_BMP_CS_EMBEDDED || b->profile_size == 0 || !wf_icc_fits(b->profile_size, out)) return;
    out->icc = malloc((size_t)b->profile_size);
    if (out->icc && wf_stream_read_at(d->stream, b->profile_offset, out->icc, (size_t)b->profile_size) == b->profile_size) {
        out->icc_length = (size_t)b->profile_size;
        return;
    }
    free(out->icc);
    out->icc = NULL;
    out->warnings++;
}

void wf_decode_bmp(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out) {
    wf_bmp bmp;
    char reason[200];
    wf_status status = wf_bmp_parse(stream, &bmp, reason, sizeof reason);
    if (status != WF_OK) {
        wf_outcome_fail(out, status == WF_ERR_UNSUPPORTED ? WF_DERIVE_ERR_UNSUPPORTED
                             : status == WF_ERR_TRUNCATED ? WF_DERIVE_ERR_TRUNCATED
                                                          : WF_DERIVE_ERR_CORRUPT, "%s", reason);
        return;
    }
    decoder *d = calloc(1, sizeof *d);
    if (!d) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        return;
    }
    d->stream = stream;
    d->bmp = &bmp;
    read_palette(d);
    measure_masks(d);
    uint64_t limit = options->max_memory ? options->max_memory : (uint64_t)WF_DEFAULT_MAX_MEMORY;
    if (bmp.compression == WF_BI_RLE8 || bmp.compression == WF_BI_RLE4) decode_run_length(d, options, sink, out);
    else if (row_stride(&bmp) + (uint64_t)bmp.width * 4 > limit)
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "a BMP row of %u pixels is over the decoding limit", bmp.width);
    else decode_rows(d, sink, out);
    if (out->status == WF_DERIVE_OK && options->want_icc) keep_icc(d, out);
    free(d);
}
