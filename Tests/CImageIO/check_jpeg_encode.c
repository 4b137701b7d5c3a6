/*
 * The JPEG encoder of derived images against libjpeg-turbo's own (Tests/CJPEGOracle), byte for byte, under
 * the sanitizers (make sanitize): each photo decoded, resampled to odd and even sizes, gray and RGB, encoded
 * at several qualities with and without a profile by wf_write_jpeg's code (fastest and portable kernels)
 * and by libjpeg's scanline encoder; its Y, Cb and Cr planes by the planes writer and by libjpeg's
 * jpeg_write_raw_data. Any difference, or any sanitizer report, fails. WF_TIMING=1 also prints encode times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cimageio.h"
#include "jpeg_oracle.h"
#include "slurp.h"

static char ours[4096], theirs[4096];
static long compared;

static int same_files(const char *a, const char *b) {
    size_t la = 0, lb = 0;
    unsigned char *x = slurp(a, &la), *y = slurp(b, &lb);
    int same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

static void fail(const char *what, const char *photo, uint32_t w, uint32_t h, int channels, int quality, int icc) {
    fprintf(stderr, "%s: %s %ux%u, %d channels, quality %d, %s profile\n", what, photo, w, h, channels, quality,
            icc ? "with" : "without");
    exit(1);
}

/* Y, Cb, Cr planes of an RGB image (any consistent planes will do: they are the input). */
static void split_planes(const uint8_t *rgb, uint32_t w, uint32_t h, uint8_t *planes[3]) {
    uint32_t cw = (w + 1) / 2, ch = (h + 1) / 2;
    for (size_t i = 0; i < (size_t)w * h; i++) planes[0][i] = rgb[3 * i + 1];
    for (uint32_t y = 0; y < ch; y++)
        for (uint32_t x = 0; x < cw; x++) {
            size_t s = ((size_t)(2 * y) * w + 2 * x) * 3;
            planes[1][(size_t)y * cw + x] = rgb[s + 2];
            planes[2][(size_t)y * cw + x] = rgb[s];
        }
}

static void check(const char *photo, const uint8_t *pixels, uint32_t w, uint32_t h, int channels, int quality,
                  const uint8_t *icc, size_t icc_length) {
    char message[300];
    for (int portable = 0; portable < 2; portable++) {
        unlink(ours);
        if (wf_encode_jpeg_for_tests(ours, pixels, w, h, channels, quality, icc, icc_length, portable, message, sizeof message) != WF_DERIVE_OK) {
            fprintf(stderr, "%s\n", message);
            fail("ours failed", photo, w, h, channels, quality, icc != NULL);
        }
        if (oracle_write_jpeg(theirs, pixels, w, h, channels, quality, icc, icc_length, message, sizeof message) != 0)
            fail("libjpeg failed", photo, w, h, channels, quality, icc != NULL);
        if (!same_files(ours, theirs)) fail(portable ? "pixels differ (portable)" : "pixels differ", photo, w, h, channels, quality, icc != NULL);
        compared++;
    }
    uint32_t widths[3] = {w, (w + 1) / 2, (w + 1) / 2}, heights[3] = {h, (h + 1) / 2, (h + 1) / 2};
    uint8_t *planes[3];
    int count = channels == 1 ? 1 : 3;
    if (channels == 1) {
        planes[0] = (uint8_t *)pixels;
    } else {
        for (int i = 0; i < 3; i++) planes[i] = malloc((size_t)widths[i] * heights[i]);
        split_planes(pixels, w, h, planes);
    }
    for (int portable = 0; portable < 2; portable++) {
        unlink(ours);
        if (wf_encode_jpeg_planes_for_tests(ours, planes, widths, heights, count, quality, icc, icc_length, portable, message, sizeof message) != WF_DERIVE_OK) {
            fprintf(stderr, "%s\n", message);
            fail("ours (planes) failed", photo, w, h, channels, quality, icc != NULL);
        }
        if (oracle_write_jpeg_raw(theirs, planes, widths, heights, count, quality, icc, icc_length, message, sizeof message) != 0)
            fail("libjpeg (raw) failed", photo, w, h, channels, quality, icc != NULL);
        if (!same_files(ours, theirs)) fail(portable ? "planes differ (portable)" : "planes differ", photo, w, h, channels, quality, icc != NULL);
        compared++;
    }
    if (channels != 1)
        for (int i = 0; i < 3; i++) free(planes[i]);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    snprintf(ours, sizeof ours, "%s/wf-jpeg-ours-%d.jpg", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    snprintf(theirs, sizeof theirs, "%s/wf-jpeg-theirs-%d.jpg", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    static const uint8_t icc[] = "not a real profile, but libjpeg only carries the bytes";
    const int qualities[] = {1, 50, 82, 100};
    for (int a = 1; a < argc; a++) {
        wf_image image;
        wf_decode_image(argv[a], &image);
        if (image.status != WF_DERIVE_OK || (image.channels != 3 && image.channels != 1)) {
            wf_image_free(&image);
            continue;
        }
        uint32_t sizes[][2] = {{1, 1}, {7, 9}, {17, 15}, {image.width / 3 | 1, image.height / 3 | 1},
                               {image.width / 2 & ~1u, image.height / 2 & ~1u}, {image.width, image.height}};
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            uint32_t w = sizes[s][0] ? sizes[s][0] : 1, h = sizes[s][1] ? sizes[s][1] : 1;
            uint8_t *rgb = wf_resample_image(image.pixels, image.width, image.height, image.channels, w, h, 0);
            if (!rgb) continue;
            uint8_t *gray = malloc((size_t)w * h);
            for (size_t i = 0; i < (size_t)w * h; i++) gray[i] = rgb[i * (size_t)image.channels];
            for (size_t q = 0; q < sizeof qualities / sizeof *qualities; q++) {
                int with_icc = (int)(q + s) % 2;
                if (image.channels == 3) check(argv[a], rgb, w, h, 3, qualities[q], with_icc ? icc : NULL, sizeof icc);
                check(argv[a], gray, w, h, 1, qualities[q], with_icc ? NULL : icc, sizeof icc);
            }
            free(gray);
            free(rgb);
        }
        wf_image_free(&image);
    }
    unlink(ours);
    unlink(theirs);
    printf("jpeg encoder: %ld files byte-identical to libjpeg's\n", compared);
    (void)now;
    return 0;
}
