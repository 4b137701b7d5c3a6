/*
 * The JPEG encoder's own front end against libjpeg-turbo's scanline and raw-data encoders with
 * optimize_coding (the bytes must be the same: checked here too). A photo resampled to 2048×1536, 1000×750
 * and 500×375 (and libjpeg without optimize_coding, for scale); RGB through wf_write_jpeg and Y, Cb, Cr
 * planes through wf_write_jpeg_planes; old and new alternate run by run so that a busy moment hits both; the median (and the fastest) of REPEAT runs each.
 * `make bench-jpeg-encode`. Usage: jpeg_front_end_bench photo.jpg [repeat] [quality]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cimageio.h"
#include "bench_clock.h"
#include "jpeg_format.h"
#include "jpeg_oracle.h"


static size_t file_size(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n > 0 ? (size_t)n : 0;
}

static int same(const char *a, const char *b) {
    char command[9000];
    snprintf(command, sizeof command, "cmp -s '%s' '%s'", a, b);
    return system(command) == 0;
}

/* Encodes with Waterfall's encoder (RGB, or `planes` when given) and writes the bytes to `path`, as the
 * oracle writes its file, so both timings include the write. */
static int write_new(const char *path, const uint8_t *rgb, uint32_t w, uint32_t h, const wf_plane *planes,
                     int quality, char *message, size_t size) {
    wf_encoded encoded = {0};
    wf_derive_status status = planes ? wf_write_jpeg_planes(&encoded, planes, 3, quality, NULL, 0, message, size)
                                     : wf_write_jpeg(&encoded, rgb, w, h, 3, quality, NULL, 0, message, size);
    FILE *f = status == WF_DERIVE_OK ? fopen(path, "wb") : NULL;
    int ok = f && fwrite(encoded.bytes, 1, encoded.length, f) == encoded.length;
    if (f && fclose(f) != 0) ok = 0;
    wf_encoded_free(&encoded);
    return ok;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s photo.jpg [repeat] [quality]\n", argv[0]);
        return 64;
    }
    int repeat = argc > 2 ? atoi(argv[2]) : 31, quality = argc > 3 ? atoi(argv[3]) : 82;
    wf_image image;
    wf_decode_image(argv[1], &image);
    if (image.status != WF_DERIVE_OK || image.channels != 3) {
        fprintf(stderr, "%s: not an RGB photo\n", argv[1]);
        return 1;
    }
    char old_path[256], new_path[256], message[300];
    snprintf(old_path, sizeof old_path, "/tmp/wf-bench-old-%d.jpg", (int)getpid());
    snprintf(new_path, sizeof new_path, "/tmp/wf-bench-new-%d.jpg", (int)getpid());
    const uint32_t sizes[][2] = {{2048, 1536}, {1000, 750}, {500, 375}};
    printf("%-10s %-6s %10s %10s %7s %9s %9s %9s %12s\n", "size", "input", "old ms", "new ms", "speedup", "old min",
           "new min", "bytes", "std tables");
    for (size_t s = 0; s < 3; s++) {
        uint32_t w = sizes[s][0], h = sizes[s][1];
        uint8_t *rgb = wf_resample_image(image.pixels, image.width, image.height, 3, w, h, 0);
        uint32_t widths[3] = {w, (w + 1) / 2, (w + 1) / 2}, heights[3] = {h, (h + 1) / 2, (h + 1) / 2};
        uint8_t *planes[3];
        for (int i = 0; i < 3; i++) planes[i] = malloc((size_t)widths[i] * heights[i]);
        for (size_t i = 0; i < (size_t)w * h; i++) planes[0][i] = rgb[3 * i + 1];
        for (uint32_t y = 0; y < heights[1]; y++)
            for (uint32_t x = 0; x < widths[1]; x++) {
                planes[1][(size_t)y * widths[1] + x] = rgb[((size_t)2 * y * w + 2 * x) * 3 + 2];
                planes[2][(size_t)y * widths[1] + x] = rgb[((size_t)2 * y * w + 2 * x) * 3];
            }
        wf_plane wf_planes[3];
        for (int i = 0; i < 3; i++) wf_planes[i] = (wf_plane){planes[i], widths[i], heights[i]};
        for (int input = 0; input < 2; input++) {
            double *old_times = calloc((size_t)repeat, sizeof(double)), *new_times = calloc((size_t)repeat, sizeof(double));
            for (int r = 0; r < repeat; r++) {
                for (int which = 0; which < 2; which++) { /* alternate which goes first */
                    int old = (which + r) % 2 == 0;
                    const char *path = old ? old_path : new_path;
                    unlink(path);
                    double t0 = now();
                    int ok;
                    if (old)
                        ok = (input == 0 ? oracle_write_jpeg(path, rgb, w, h, 3, quality, NULL, 0, message, sizeof message)
                                         : oracle_write_jpeg_raw(path, planes, widths, heights, 3, quality, NULL, 0, message, sizeof message)) == 0;
                    else
                        ok = write_new(path, rgb, w, h, input == 0 ? NULL : wf_planes, quality, message, sizeof message);
                    double t = (now() - t0) * 1000;
                    if (!ok) {
                        fprintf(stderr, "encode failed: %s\n", message);
                        return 1;
                    }
                    (old ? old_times : new_times)[r] = t;
                }
            }
            if (!same(old_path, new_path)) {
                fprintf(stderr, "%ux%u: the bytes differ\n", w, h);
                return 1;
            }
            qsort(old_times, (size_t)repeat, sizeof(double), compare);
            qsort(new_times, (size_t)repeat, sizeof(double), compare);
            double o = old_times[repeat / 2], n = new_times[repeat / 2];
            char size[32];
            snprintf(size, sizeof size, "%ux%u", w, h);
            printf("%-10s %-6s %10.2f %10.2f %6.2fx %9.2f %9.2f %9zu", size, input == 0 ? "RGB" : "planes", o, n, o / n,
                   old_times[0], new_times[0], file_size(new_path));
            if (input == 0) { /* libjpeg's scanline encoder without optimize_coding, for scale */
                double *standard = calloc((size_t)repeat, sizeof(double));
                for (int r = 0; r < repeat; r++) {
                    unlink(old_path);
                    double t0 = now();
                    oracle_write_jpeg_standard_tables(old_path, rgb, w, h, 3, quality, message, sizeof message);
                    standard[r] = (now() - t0) * 1000;
                }
                qsort(standard, (size_t)repeat, sizeof(double), compare);
                printf(" %9.2f ms", standard[repeat / 2]);
                free(standard);
            }
            printf("\n");
            free(old_times);
            free(new_times);
        }
        for (int i = 0; i < 3; i++) free(planes[i]);
        free(rgb);
    }
    unlink(old_path);
    unlink(new_path);
    wf_image_free(&image);
    return 0;
}
