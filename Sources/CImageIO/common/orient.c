/*
 * EXIF orientation applied to the pixels of the (small, already resampled) image, so the output is upright
 * and needs no tag. For each upright pixel (x, y) of a W×H stored image:
 *   1 (x, y)   2 (W-1-x, y)   3 (W-1-x, H-1-y)   4 (x, H-1-y)              stored W×H, shown W×H
 *   5 (y, x)   6 (y, H-1-x)   7 (W-1-y, H-1-x)   8 (W-1-y, x)              stored W×H, shown H×W
 * 6 is "turn 90° clockwise to display", 8 "turn 90° counter-clockwise".
 */
#include "derive.h"

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

uint8_t *wf_orient(uint8_t *pixels, uint32_t *width, uint32_t *height, int channels, int orientation) {
    if (orientation < 2 || orientation > 8) return pixels;
    const size_t w = *width, h = *height, c = (size_t)channels;
    const int swap = orientation >= 5;
    const size_t out_w = swap ? h : w, out_h = swap ? w : h;
    const size_t block = swap ? BLOCK : out_w; /* flips read whole rows in order already */
    uint8_t *out = malloc(w * h * c);
    if (!out) return NULL;
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
                uint8_t *d = out + (y * out_w + bx) * c;
                for (size_t x = bx; x < x_end; x++, i += step, d += c) copy_pixel(d, pixels + i, c);
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
