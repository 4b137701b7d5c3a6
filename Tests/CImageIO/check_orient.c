/*
 * wf_orient against the definition in orient.c, pixel by pixel, under the sanitizers (make sanitize): every
 * orientation of images of one and three samples per pixel, at sizes below, at and across the 16×16 blocks
 * the SIMD turn makes and the 64×64 blocks of the general loop, so a wrong block, edge or flip fails here
 * before it reaches a photo.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orient.h"

/* The stored pixel shown at (x, y) of a w×h image in this orientation (orient.c's table). */
static void source_of(int orientation, size_t w, size_t h, size_t x, size_t y, size_t *sx, size_t *sy) {
    switch (orientation) {
    case 2: *sx = w - 1 - x, *sy = y; break;
    case 3: *sx = w - 1 - x, *sy = h - 1 - y; break;
    case 4: *sx = x, *sy = h - 1 - y; break;
    case 5: *sx = y, *sy = x; break;
    case 6: *sx = y, *sy = h - 1 - x; break;
    case 7: *sx = w - 1 - y, *sy = h - 1 - x; break;
    default: *sx = w - 1 - y, *sy = x; break;
    }
}

static int check(uint32_t w, uint32_t h, int channels, unsigned seed) {
    size_t length = (size_t)w * h * (size_t)channels;
    uint8_t *pixels = malloc(length);
    if (!pixels) return 1;
    for (size_t i = 0; i < length; i++) pixels[i] = (uint8_t)((i * 2654435761u + seed) >> 13);
    int failures = 0;
    for (int orientation = 2; orientation <= 8; orientation++) {
        uint32_t ow = w, oh = h;
        uint8_t *turned = wf_orient(pixels, &ow, &oh, channels, orientation);
        if (!turned) return 1;
        for (size_t y = 0; y < oh && !failures; y++)
            for (size_t x = 0; x < ow && !failures; x++) {
                size_t sx, sy;
                source_of(orientation, w, h, x, y, &sx, &sy);
                if (memcmp(turned + (y * ow + x) * channels, pixels + (sy * w + sx) * channels, (size_t)channels)) {
                    fprintf(stderr, "wf_orient: %ux%u, %d channels, orientation %d: pixel (%zu, %zu) is wrong\n", w, h,
                            channels, orientation, x, y);
                    failures++;
                }
            }
        free(turned);
    }
    free(pixels);
    return failures;
}

int main(void) {
    static const uint32_t sizes[] = {1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 80, 130};
    const size_t n = sizeof sizes / sizeof *sizes;
    int failures = 0;
    long images = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (int channels = 1; channels <= 4; channels += 2, images++)
                failures += check(sizes[i], sizes[j], channels, (unsigned)(i * n + j));
    failures += check(2048, 1536, 1, 7) + check(1000, 750, 1, 8) + check(375, 500, 3, 9);
    printf("check_orient: %ld images in 7 orientations, %d wrong\n", images + 3, failures);
    return failures != 0;
}
