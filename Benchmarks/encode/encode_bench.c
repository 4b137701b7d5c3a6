/*
 * Encode time and bytes of derived stills: JPEG (wf_write_jpeg), WebP (wf_write_webp) and AVIF (wf_write_avif)
 * on the same resampled pixels, so only the encoder is timed. For each source and width: the tile is made
 * once by wf_derive (lossless PNG), decoded, then each encoder runs REPEAT times; the median is reported.
 * `make bench-encode` builds it at -O2 against the target's sources. Usage: encode_bench photo.jpg... 
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "avif_format.h"
#include "bench_clock.h"
#include "jpeg_format.h"
#include "webp_format.h"


typedef enum { JPEG, WEBP, AVIF } codec;

static void run(const wf_image *image, codec c, int quality, int knob, int repeat) {
    double times[16];
    long bytes = 0;
    for (int k = 0; k < repeat; k++) {
        char message[200] = "";
        int kept = 0;
        wf_encoded encoded = {0};
        double start = now();
        wf_derive_status status =
            c == JPEG ? wf_write_jpeg(&encoded, image->pixels, image->width, image->height, image->channels, quality,
                                      NULL, 0, message, sizeof message)
          : c == WEBP ? wf_write_webp(&encoded, image->pixels, image->width, image->height, image->channels, quality,
                                      knob, NULL, 0, &kept, message, sizeof message)
                      : wf_write_avif(&encoded, image->pixels, image->width, image->height, image->channels, quality,
                                      knob, NULL, 0, message, sizeof message);
        times[k] = now() - start;
        if (status != WF_DERIVE_OK) {
            fprintf(stderr, "encode failed: %s\n", message);
            exit(1);
        }
        bytes = (long)encoded.length;
        wf_encoded_free(&encoded);
    }
    qsort(times, (size_t)repeat, sizeof times[0], compare);
    const char *name = c == JPEG ? "jpeg" : c == WEBP ? "webp" : "avif";
    char setting[32] = "-";
    if (c != JPEG) snprintf(setting, sizeof setting, "%s %d", c == WEBP ? "method" : "speed", knob);
    printf("| %ux%u | %s | q%d | %s | %.1f | %ld |\n", image->width, image->height, name, quality, setting,
           times[repeat / 2] * 1000, bytes);
    fflush(stdout);
}

int main(int argc, char **argv) {
    char folder[] = "/tmp/wf-bench-encode-XXXXXX";
    if (!mkdtemp(folder)) return 1;
    char tile[4096];
    snprintf(tile, sizeof tile, "%s/tile.png", folder);
    static const uint32_t widths[] = {500, 2048};
    printf("| size | format | quality | setting | ms (median) | bytes |\n|---|---|---|---|---|---|\n");
    for (int i = 1; i < argc; i++) {
        for (size_t w = 0; w < 2; w++) {
            unlink(tile);
            wf_derive_result result;
            wf_derive(argv[i], tile, &(wf_derive_request){.max_width = widths[w], .force_png = 1}, &result);
            if (result.status != WF_DERIVE_OK) {
                fprintf(stderr, "%s: %s\n", argv[i], result.message);
                return 1;
            }
            if (w > 0 && result.width < widths[w] && result.width <= widths[w - 1] + 200) continue; /* no upscaling */
            wf_image image;
            wf_decode_image(tile, &image);
            int repeat = widths[w] > 1000 ? 3 : 5;
            printf("| **%s** | | | | | |\n", argv[i]);
            if (image.channels == 1 || image.channels == 3) run(&image, JPEG, 82, 0, repeat); /* else PNG */
            static const int webp_q[] = {84, 88, 92}, webp_m[] = {2, 4, 6}; /* default: 88, method 4 */
            for (int q = 0; q < 3; q++)
                for (int m = 0; m < 3; m++) run(&image, WEBP, webp_q[q], webp_m[m], repeat);
            static const int avif_q[] = {73, 78, 83}, avif_s[] = {6, 8, 9}; /* default: 83 at speed 9 */
            for (int q = 0; q < 3; q++)
                for (int s = 0; s < 3; s++) run(&image, AVIF, avif_q[q], avif_s[s], widths[w] > 1000 ? 1 : 3);
            wf_image_free(&image);
        }
    }
    unlink(tile);
    rmdir(folder);
    return 0;
}
