/*
 * Calibration harness for issue 13: links Waterfall's own CImageIO (Sources/CImageIO)
 * so the reference is exactly what the gallery's encoder is fed, and times the encoders in-process,
 * single-threaded, with the input already in memory (no PNG decode, no process start-up in the timing).
 *
 *   harness ref SRC OUT.png W H              wf_derive with force_png: DCT-scaled decode + Lanczos-3 +
 *                                            upright, written losslessly. W or H may be 0 (unbounded).
 *   harness refset SRC OUT.png W H VW VH     the same box as a build makes it: wf_derive_set with the view
 *                                            box VW×VH too, so W×H is resampled from the view-sized image
 *   harness derive SRC OUTDIR REPS W1 H1 [W2 H2 ...]
 *                                            wf_derive_set (one decode, every box, JPEG q82, as the build):
 *                                            prints the best-of-REPS wall time of the whole call
 *   harness enc jpeg IN.png OUT REPS Q
 *   harness enc webp IN.png OUT REPS Q M     libwebp: WebPConfigInit, quality Q, method M, lossy, 1 thread
 *   harness enc avif IN.png OUT REPS QUANT S [aom|rav1e|svt]
 *                                            libavif: 4:2:0 8-bit, BT.601 full range (libavif defaults),
 *                                            min=max quantizer = QUANT (colour and alpha), speed S, 1 thread
 *   enc prints: bytes min_cpu_seconds median_cpu_seconds width height min_wall_seconds
 *   derive prints: min_cpu_seconds WxH... (thread CPU time)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jpeglib.h>
#include <webp/encode.h>
#include <avif/avif.h>

#include "cimageio.h"

/* Thread CPU time: the encoders run on this one thread (maxThreads 1, thread_level 0), and the machine is
 * shared, so CPU time is the less noisy measure; wall time is printed too. */
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static double wall(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void write_file(const char *path, const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size) { perror(path); exit(1); }
    fclose(f);
}

/* ---- encoders: pixels (1 or 3 channels) in, bytes out ---- */

static size_t enc_jpeg(const uint8_t *px, int w, int h, int ch, int q, uint8_t **out) {
    struct jpeg_compress_struct info;
    struct jpeg_error_mgr err;
    info.err = jpeg_std_error(&err);
    jpeg_create_compress(&info);
    unsigned char *buf = NULL;
    unsigned long size = 0;
    jpeg_mem_dest(&info, &buf, &size);
    info.image_width = w;
    info.image_height = h;
    info.input_components = ch;
    info.in_color_space = ch == 1 ? JCS_GRAYSCALE : JCS_RGB;
    /* exactly Sources/CImageIO/jpeg/jpeg_encode.c */
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, q, TRUE);
    info.optimize_coding = TRUE;
    jpeg_start_compress(&info, TRUE);
    size_t stride = (size_t)w * ch;
    while (info.next_scanline < (JDIMENSION)h) {
        JSAMPROW row = (JSAMPROW)(px + info.next_scanline * stride);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *out = buf;
    return size;
}

static size_t enc_webp(const uint8_t *rgb, int w, int h, int q, int m, uint8_t **out) {
    WebPConfig config;
    if (!WebPConfigInit(&config)) exit(2);
    config.quality = (float)q;
    config.method = m;
    config.thread_level = 0;
    if (!WebPValidateConfig(&config)) { fprintf(stderr, "bad webp config\n"); exit(2); }
    WebPPicture pic;
    WebPPictureInit(&pic);
    pic.width = w;
    pic.height = h;
    pic.use_argb = 0;
    if (!WebPPictureImportRGB(&pic, rgb, w * 3)) exit(2);
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    pic.writer = WebPMemoryWrite;
    pic.custom_ptr = &writer;
    if (!WebPEncode(&config, &pic)) { fprintf(stderr, "webp encode failed %d\n", pic.error_code); exit(2); }
    WebPPictureFree(&pic);
    *out = writer.mem;
    return writer.size;
}

static size_t enc_avif(const uint8_t *rgbpx, int w, int h, int quant, int speed, avifCodecChoice codec, uint8_t **out) {
    /* AVIF_YUV=444, AVIF_DEPTH=10 and AVIF_OPTS="key=value,..." (libaom options through libavif) are for exploring */
    const char *yuv = getenv("AVIF_YUV");
    const char *depth = getenv("AVIF_DEPTH");
    avifImage *image = avifImageCreate(w, h, depth && !strcmp(depth, "10") ? 10 : 8,
                                       yuv && !strcmp(yuv, "444") ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420);
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_RGB;
    rgb.depth = 8; /* the input is 8-bit whatever the AVIF depth */
    rgb.pixels = (uint8_t *)rgbpx;
    rgb.rowBytes = (uint32_t)w * 3;
    if (avifImageRGBToYUV(image, &rgb) != AVIF_RESULT_OK) { fprintf(stderr, "rgb->yuv failed\n"); exit(2); }
    avifEncoder *enc = avifEncoderCreate();
    enc->codecChoice = codec;
    enc->maxThreads = 1;
    enc->minQuantizer = enc->maxQuantizer = quant;
    enc->minQuantizerAlpha = enc->maxQuantizerAlpha = quant;
    enc->speed = speed;
    const char *opts = getenv("AVIF_OPTS");
    if (opts && *opts) {
        char *copy = strdup(opts), *save = NULL;
        for (char *kv = strtok_r(copy, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(kv, '=');
            if (!eq) { fprintf(stderr, "AVIF_OPTS: %s has no '='\n", kv); exit(2); }
            *eq = 0;
            avifEncoderSetCodecSpecificOption(enc, kv, eq + 1); /* a bad key fails the encode */
        }
        free(copy);
    }
    avifRWData data = AVIF_DATA_EMPTY;
    avifResult r = avifEncoderWrite(enc, image, &data);
    if (r != AVIF_RESULT_OK) { fprintf(stderr, "avif encode failed: %s\n", avifResultToString(r)); exit(2); }
    avifEncoderDestroy(enc);
    avifImageDestroy(image);
    *out = malloc(data.size);
    memcpy(*out, data.data, data.size);
    size_t size = data.size;
    avifRWDataFree(&data);
    return size;
}

static int cmd_enc(int argc, char **argv) {
    if (argc < 7) return 64;
    const char *fmt = argv[2], *in = argv[3], *outpath = argv[4];
    int reps = atoi(argv[5]);
    wf_image img;
    wf_decode_image(in, &img);
    if (img.status != WF_DERIVE_OK) { fprintf(stderr, "%s: %s\n", in, img.message); return 1; }
    int w = img.width, h = img.height, ch = img.channels;
    if (ch != 1 && ch != 3) { fprintf(stderr, "%s: %d channels (alpha) not handled\n", in, ch); return 1; }
    uint8_t *rgb = img.pixels;
    if (ch == 1 && strcmp(fmt, "jpeg") != 0) { /* WebP and 4:2:0 AVIF get grey as RGB */
        rgb = malloc((size_t)w * h * 3);
        for (size_t i = 0; i < (size_t)w * h; i++) rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = img.pixels[i];
    }
    double *times = calloc(reps, sizeof *times), best_wall = 1e9;
    uint8_t *bytes = NULL;
    size_t size = 0;
    for (int k = 0; k < reps; k++) {
        if (bytes) free(bytes);
        double t0 = now(), w0 = wall();
        if (!strcmp(fmt, "jpeg")) size = enc_jpeg(img.pixels, w, h, ch, atoi(argv[6]), &bytes);
        else if (!strcmp(fmt, "webp")) size = enc_webp(rgb, w, h, atoi(argv[6]), atoi(argv[7]), &bytes);
        else if (!strcmp(fmt, "avif")) {
            avifCodecChoice c = AVIF_CODEC_CHOICE_AOM;
            if (argc > 8 && !strcmp(argv[8], "rav1e")) c = AVIF_CODEC_CHOICE_RAV1E;
            if (argc > 8 && !strcmp(argv[8], "svt")) c = AVIF_CODEC_CHOICE_SVT;
            size = enc_avif(rgb, w, h, atoi(argv[6]), atoi(argv[7]), c, &bytes);
        } else return 64;
        times[k] = now() - t0;
        if (wall() - w0 < best_wall) best_wall = wall() - w0;
    }
    write_file(outpath, bytes, size);
    qsort(times, reps, sizeof *times, cmp_double);
    printf("%zu %.6f %.6f %d %d %.6f\n", size, times[0], times[reps / 2], w, h, best_wall);
    return 0;
}

static int cmd_ref(int argc, char **argv) {
    if (argc < 6) return 64;
    wf_derive_request r = {.max_width = (uint32_t)atoi(argv[4]), .max_height = (uint32_t)atoi(argv[5]), .force_png = 1};
    wf_derive_result res;
    wf_derive(argv[2], argv[3], &r, &res);
    if (res.status != WF_DERIVE_OK) { fprintf(stderr, "%s: %s\n", argv[2], res.message); return 1; }
    printf("%u %u %d %d\n", res.width, res.height, res.channels, res.scale_denom);
    return 0;
}

static int cmd_refset(int argc, char **argv) {
    if (argc < 8) return 64;
    char view[4096];
    snprintf(view, sizeof view, "%s.view.png", argv[3]);
    wf_derive_request req[2] = {
        {.max_width = (uint32_t)atoi(argv[6]), .max_height = (uint32_t)atoi(argv[7]), .force_png = 1},
        {.max_width = (uint32_t)atoi(argv[4]), .max_height = (uint32_t)atoi(argv[5]), .force_png = 1}};
    const char *outs[2] = {view, argv[3]};
    wf_derive_result res[2];
    wf_derive_set(argv[2], req, outs, 2, res);
    remove(view);
    if (res[1].status != WF_DERIVE_OK) { fprintf(stderr, "%s: %s\n", argv[2], res[1].message); return 1; }
    printf("%u %u %d\n", res[1].width, res[1].height, res[1].channels);
    return 0;
}

static int cmd_derive(int argc, char **argv) {
    if (argc < 7 || (argc - 5) % 2) return 64;
    int reps = atoi(argv[4]);
    size_t n = (argc - 5) / 2;
    wf_derive_request req[8];
    wf_derive_result res[8];
    char paths[8][4096];
    const char *outs[8];
    for (size_t i = 0; i < n; i++) {
        req[i] = (wf_derive_request){.max_width = (uint32_t)atoi(argv[5 + 2 * i]), .max_height = (uint32_t)atoi(argv[6 + 2 * i])};
        snprintf(paths[i], sizeof paths[i], "%s/out%zu.jpg", argv[3], i);
        outs[i] = paths[i];
    }
    double best = 1e9;
    for (int k = 0; k < reps; k++) {
        for (size_t i = 0; i < n; i++) remove(paths[i]);
        double t0 = now();
        wf_derive_set(argv[2], req, outs, n, res);
        double t = now() - t0;
        if (t < best) best = t;
        for (size_t i = 0; i < n; i++)
            if (res[i].status != WF_DERIVE_OK) { fprintf(stderr, "%s: %s\n", argv[2], res[i].message); return 1; }
    }
    printf("%.6f", best);
    for (size_t i = 0; i < n; i++) printf(" %ux%u", res[i].width, res[i].height);
    printf("\n");
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return 64;
    if (!strcmp(argv[1], "enc")) return cmd_enc(argc, argv);
    if (!strcmp(argv[1], "ref")) return cmd_ref(argc, argv);
    if (!strcmp(argv[1], "refset")) return cmd_refset(argc, argv);
    if (!strcmp(argv[1], "derive")) return cmd_derive(argc, argv);
    return 64;
}
