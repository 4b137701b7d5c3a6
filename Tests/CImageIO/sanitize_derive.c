/*
 * Runs wf_derive under AddressSanitizer and UndefinedBehaviorSanitizer over files: each file to a few
 * boxes (a thumbnail, a tiny square, the same forced to PNG, WebP and AVIF, an animated view, a set of one
 * size in JPEG, WebP and AVIF), under tight limits (pixels,
 * scans, memory), and every file cut at 24 points (truncated copies written to a scratch folder; a RIFF cut
 * also with its size rewritten to fit). Also wf_decode_image and
 * wf_read_icc_profile on each output. Any sanitizer report aborts; the summary counts the verdicts.
 * WF_VERBOSE=1 prints one line per call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cimageio.h"
#include "slurp.h"

static long calls, successes, statuses[16];
static int verbose;
static char output[4096];

static const char *format_name(wf_format format) {
    switch (format) {
    case WF_FORMAT_PNG: return "png";
    case WF_FORMAT_JPEG: return "jpeg";
    case WF_FORMAT_WEBP: return "webp";
    case WF_FORMAT_AVIF: return "avif";
    default: return "-";
    }
}

static void derive(const char *label, const char *path, wf_derive_request request) {
    wf_derive_result result;
    wf_derive(path, output, &request, &result);
    calls++;
    if (result.status == WF_DERIVE_OK && request.encode_format != 0 && !request.animate &&
        result.output_format != (wf_format)request.encode_format) {
        fprintf(stderr, "%s (%s): asked for format %d, wrote %d\n", path, label, request.encode_format,
                result.output_format);
        exit(1);
    }
    statuses[result.status < 16 ? result.status : 15]++;
    if (result.status == WF_DERIVE_OK) {
        successes++;
        wf_image image;
        wf_decode_image(output, &image);
        if (image.status != WF_DERIVE_OK || image.width != result.width || image.height != result.height) {
            fprintf(stderr, "%s (%s): the output does not decode to %ux%u: %s\n", path, label, result.width,
                    result.height, image.message);
            exit(1);
        }
        wf_image_free(&image);
        static unsigned char icc[1 << 16];
        wf_read_icc_profile(output, icc, sizeof icc);
        unlink(output);
    } else if (strchr(result.message, '\n') || result.message[0] == '\0') {
        fprintf(stderr, "%s (%s): status %d with a bad message: \"%s\"\n", path, label, result.status, result.message);
        exit(1);
    } else if (access(output, F_OK) == 0) {
        fprintf(stderr, "%s (%s): failed but left an output behind\n", path, label);
        exit(1);
    }
    if (verbose)
        printf("%-60s %-10s %d %ux%u %s %s\n", path, label, result.status, result.width, result.height,
               format_name(result.output_format), result.message);
}

/* One size in the three formats from one decode and one resample: each output decodes to that size. */
static void derive_formats(const char *path, const char *folder) {
    char paths[3][4096];
    const char *outputs[3];
    wf_derive_request requests[3];
    static const int32_t formats[3] = {0, WF_FORMAT_WEBP, WF_FORMAT_AVIF};
    for (int k = 0; k < 3; k++) {
        snprintf(paths[k], sizeof paths[k], "%s/set-%d", folder, k);
        outputs[k] = paths[k];
        requests[k] = (wf_derive_request){.max_width = 80, .encode_format = formats[k], .speed = 9};
    }
    wf_derive_result results[3];
    wf_derive_set(path, requests, outputs, 3, results);
    for (int k = 0; k < 3; k++) {
        calls++;
        statuses[results[k].status < 16 ? results[k].status : 15]++;
        if (results[k].status != WF_DERIVE_OK) {
            if (access(outputs[k], F_OK) == 0) {
                fprintf(stderr, "%s (set %d): failed but left an output behind\n", path, k);
                exit(1);
            }
            continue;
        }
        successes++;
        wf_image image;
        wf_decode_image(outputs[k], &image);
        if (image.status != WF_DERIVE_OK || image.width != results[k].width || image.height != results[k].height) {
            fprintf(stderr, "%s (set %d, %s): the output does not decode to %ux%u: %s\n", path, k,
                    format_name(results[k].output_format), results[k].width, results[k].height, image.message);
            exit(1);
        }
        wf_image_free(&image);
        unlink(outputs[k]);
    }
}

/* A RIFF (WebP) cut with its size rewritten to the cut, so the header reads and libwebp meets the cut data:
 * as a still, and as an animated view. */
static void riff_cut(const char *cut, const unsigned char *bytes, size_t prefix) {
    if (prefix < 12 || memcmp(bytes, "RIFF", 4) != 0) return;
    FILE *file = fopen(cut, "r+b");
    if (!file) return;
    unsigned char size[4];
    for (int b = 0; b < 4; b++) size[b] = (unsigned char)((prefix - 8) >> (8 * b));
    fseek(file, 4, SEEK_SET);
    fwrite(size, 1, sizeof size, file);
    fclose(file);
    derive("riff-cut", cut, (wf_derive_request){.max_width = 48});
    derive("riff-cut-animate", cut, (wf_derive_request){.max_width = 48, .animate = 1});
}

int main(int argc, char **argv) {
    verbose = getenv("WF_VERBOSE") != NULL;
    char folder[] = "/tmp/wf-sanitize-derive-XXXXXX";
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(output, sizeof output, "%s/out", folder);
    char cut[4096];
    snprintf(cut, sizeof cut, "%s/cut", folder);
    for (int i = 1; i < argc; i++) {
        const char *path = argv[i];
        derive("300w", path, (wf_derive_request){.max_width = 300});
        derive("64box", path, (wf_derive_request){.max_width = 64, .max_height = 64, .quality = 50});
        derive("png", path, (wf_derive_request){.max_height = 100, .force_png = 1});
        derive("limits", path, (wf_derive_request){.max_width = 40, .max_pixels = 100000, .max_scans = 2,
                                                    .max_memory = 1 << 20});
        derive("animate", path, (wf_derive_request){.max_width = 64, .max_height = 64, .animate = 1});
        derive("webp", path, (wf_derive_request){.max_width = 120, .encode_format = WF_FORMAT_WEBP});
        derive("avif", path, (wf_derive_request){.max_width = 120, .encode_format = WF_FORMAT_AVIF, .speed = 9});
        derive("avif-q", path, (wf_derive_request){.max_width = 33, .max_height = 17, .quality = 100,
                                                    .encode_format = WF_FORMAT_AVIF, .speed = 10});
        derive("webp-anim", path, (wf_derive_request){.max_width = 64, .animate = 1, .encode_format = WF_FORMAT_WEBP});
        derive_formats(path, folder);
        size_t length = 0;
        unsigned char *bytes = slurp(path, &length);
        if (!bytes) continue;
        for (int k = 0; k < 24 && length > 0; k++) {
            size_t prefix = k < 8 ? (size_t)k * 40 : length * (size_t)(k - 7) / 17;
            if (prefix >= length) continue;
            FILE *file = fopen(cut, "wb");
            if (!file) continue;
            fwrite(bytes, 1, prefix, file);
            fclose(file);
            derive("cut", cut, (wf_derive_request){.max_width = 48});
            riff_cut(cut, bytes, prefix);
        }
        free(bytes);
    }
    unlink(cut);
    rmdir(folder);
    printf("sanitize-derive: %d files, %ld derives, %ld made an image; by status:", argc - 1, calls, successes);
    for (int s = 0; s < 16; s++)
        if (statuses[s]) printf(" %d:%ld", s, statuses[s]);
    printf("; no sanitizer reports\n");
    return 0;
}
