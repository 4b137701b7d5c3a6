/*
 * EXIF orientation applied to the pixels of the (small, already resampled) image, so the output is upright
 * and needs no tag. For each upright pixel (x, y) of a W×H stored image:
 *   1 (x, y)   2 (W-1-x, y)   3 (W-1-x, H-1-y)   4 (x, H-1-y)              stored W×H, shown W×H
 *   5 (y, x)   6 (y, H-1-x)   7 (W-1-y, H-1-x)   8 (W-1-y, x)              stored W×H, shown H×W
 * 6 is "turn 90° clockwise to display", 8 "turn 90° counter-clockwise".
 */
#include "orient.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* One pixel of `c` samples: a constant size for the common counts, so the copy is a move, not a call. */
static inline void copy_pixel(uint8_t *d, const uint8_t *s, size_t c) {
    switch (c) {
    case 1: d[0] = s[0]; break;
    case 2: memcpy(d, s, 2); break;
    case 3: memcpy(d, s, 3); break;
    case 4: memcpy(d, s, 4); break;
    default: memcpy(d, s, c); break;
    }
}

/* Turns (5-8) walk the source by columns: done in square blocks, so the source rows a block reads stay in
 * the cache while the block is written (a 2048-pixel view turned row by row missed it on every pixel). */
enum { BLOCK = 64 };

#if defined(__SSE2__)
#include <emmintrin.h>

/* One 16×16 block of a one-sample plane turned (5-8) with SSE2: sixteen source rows in, sixteen output rows
 * out, by the four rounds of byte, word, dword and qword interleaves of a transpose. A turn is a transpose
 * with the source rows read bottom-up (6, 7) and the output rows written right-to-left... in plane terms,
 * the rows of the transposed block stored in reverse (7, 8). (bx, by) is the block's output corner. */
static void turn_block16(const uint8_t *pixels, size_t w, size_t h, uint8_t *out, size_t out_w, size_t bx, size_t by,
                         int orientation) {
    int rows_up = orientation == 6 || orientation == 7, columns_back = orientation == 7 || orientation == 8;
    size_t column = columns_back ? w - by - 16 : by; /* the source columns: output rows by .. by+15 */
    __m128i r[16], t[16];
    for (int i = 0; i < 16; i++) { /* output column bx + i comes from this source row */
        size_t row = rows_up ? h - 1 - bx - (size_t)i : bx + (size_t)i;
        r[i] = _mm_loadu_si128((const __m128i *)(pixels + row * w + column));
    }
    for (int i = 0; i < 8; i++) {
        t[2 * i] = _mm_unpacklo_epi8(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm_unpackhi_epi8(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++) {
            r[4 * i + 2 * j] = _mm_unpacklo_epi16(t[4 * i + j], t[4 * i + j + 2]);
            r[4 * i + 2 * j + 1] = _mm_unpackhi_epi16(t[4 * i + j], t[4 * i + j + 2]);
        }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++) {
            t[8 * i + 2 * j] = _mm_unpacklo_epi32(r[8 * i + j], r[8 * i + j + 4]);
            t[8 * i + 2 * j + 1] = _mm_unpackhi_epi32(r[8 * i + j], r[8 * i + j + 4]);
        }
    for (int j = 0; j < 8; j++) {
        r[2 * j] = _mm_unpacklo_epi64(t[j], t[j + 8]);
        r[2 * j + 1] = _mm_unpackhi_epi64(t[j], t[j + 8]);
    }
    for (int j = 0; j < 16; j++) { /* r[j] is source column `column + j` across the sixteen rows */
        size_t y = columns_back ? by + 15 - (size_t)j : by + (size_t)j;
        _mm_storeu_si128((__m128i *)(out + y * out_w + bx), r[j]);
    }
}
#endif

/* The whole 16×16 blocks of a one-sample plane's turn, where SSE2 is there; the edges are left to the
 * general loop. Returns the output width and height the blocks covered (0 × 0 without SSE2). */
static void turn_blocks(const uint8_t *pixels, size_t w, size_t h, uint8_t *out, int orientation, size_t *done_w,
                        size_t *done_h) {
    *done_w = *done_h = 0;
#if defined(__SSE2__)
    const size_t out_w = h, out_h = w;
    *done_w = out_w / 16 * 16;
    *done_h = out_h / 16 * 16;
    for (size_t by = 0; by < *done_h; by += 16)
        for (size_t bx = 0; bx < *done_w; bx += 16) turn_block16(pixels, w, h, out, out_w, bx, by, orientation);
#else
    (void)pixels, (void)w, (void)h, (void)out, (void)orientation;
#endif
}

/* Orientations 2-4 of a one-sample plane. */
static void flip_plane(const uint8_t *pixels, size_t w, size_t h, uint8_t *out, int orientation) {
    for (size_t y = 0; y < h; y++) {
        const uint8_t *from = pixels + (orientation == 2 ? y : h - 1 - y) * w;
        uint8_t *to = out + y * w;
        if (orientation == 4) memcpy(to, from, w);
        else for (size_t x = 0; x < w; x++) to[x] = from[w - 1 - x];
    }
}

uint8_t *wf_orient(uint8_t *pixels, uint32_t *width, uint32_t *height, int channels, int orientation) {
    if (orientation < 2 || orientation > 8) return pixels;
    const size_t w = *width, h = *height, c = (size_t)channels;
    const int swap = orientation >= 5;
    const size_t out_w = swap ? h : w, out_h = swap ? w : h;
    const size_t block = swap ? BLOCK : out_w; /* flips read whole rows in order already */
    uint8_t *out = malloc(w * h * c);
    if (!out) return NULL;
    if (!swap && c == 1) { /* a plane's flip: row by row, in loops the compiler vectorises */
        flip_plane(pixels, w, h, out, orientation);
        return out;
    }
    size_t done_w = 0, done_h = 0; /* the output's top-left part already made by whole SIMD blocks */
    if (swap && c == 1) turn_blocks(pixels, w, h, out, orientation, &done_w, &done_h);
    for (size_t by = 0; by < out_h; by += block) {
        size_t y_end = by + block < out_h ? by + block : out_h;
        for (size_t bx = 0; bx < out_w; bx += block) {
            size_t x_end = bx + block < out_w ? bx + block : out_w;
            for (size_t y = by; y < y_end; y++) {
                /* The source of (0, y) and the step to the source of (x + 1, y), in samples. */
                size_t sx, sy;
                ptrdiff_t step;
                switch (orientation) {
                case 2: sx = w - 1, sy = y, step = -(ptrdiff_t)c; break;
                case 3: sx = w - 1, sy = h - 1 - y, step = -(ptrdiff_t)c; break;
                case 4: sx = 0, sy = h - 1 - y, step = (ptrdiff_t)c; break;
                case 5: sx = y, sy = 0, step = (ptrdiff_t)(w * c); break;
                case 6: sx = y, sy = h - 1, step = -(ptrdiff_t)(w * c); break;
                case 7: sx = w - 1 - y, sy = h - 1, step = -(ptrdiff_t)(w * c); break;
                default: sx = w - 1 - y, sy = 0, step = (ptrdiff_t)(w * c); break; /* 8 */
                }
                /* An index, not a pointer: it may step past an end. */
                ptrdiff_t i = (ptrdiff_t)((sy * w + sx) * c) + (ptrdiff_t)bx * step;
                size_t x = bx;
                if (y < done_h && x < done_w) { /* made by turn_blocks: skip to the right edge */
                    i += (ptrdiff_t)(done_w - x) * step;
                    x = done_w;
                }
                uint8_t *d = out + (y * out_w + x) * c;
                for (; x < x_end; x++, i += step, d += c) copy_pixel(d, pixels + i, c);
            }
        }
    }
    *width = (uint32_t)out_w;
    *height = (uint32_t)out_h;
    return out;
}

int wf_orientation_then(int first, int second) {
    /* Whatever the two do to a 3×2 image of distinct samples, the one orientation that does the same. */
    uint8_t image[6] = {0, 1, 2, 3, 4, 5};
    uint32_t width = 3, height = 2;
    uint8_t *a = wf_orient(image, &width, &height, 1, first);
    uint8_t *b = a ? wf_orient(a, &width, &height, 1, second) : NULL;
    int found = 0;
    for (int candidate = 1; b && candidate <= 8 && !found; candidate++) {
        uint32_t w = 3, h = 2;
        uint8_t *c = wf_orient(image, &w, &h, 1, candidate);
        if (c && w == width && h == height && memcmp(b, c, sizeof image) == 0) found = candidate;
        if (c != image) free(c);
    }
    if (b != a) free(b);
    if (a != image) free(a);
    return found;
}
