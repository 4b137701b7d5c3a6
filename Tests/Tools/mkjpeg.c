/*
 * Fixture encoder for the header tests: writes a small synthetic JPEG with libjpeg, with the encoder
 * options the header-reader cases need. Only used by make_header_fixtures.py; never part of the product.
 *
 *   mkjpeg OUT WIDTH HEIGHT [progressive] [arith] [q=N] [nobaseline] [gray] [cmyk] [ycck] [nojfif]
 *          [photo] [444] [sampling=HxV] [marker=HEX:FILE]...   (markers are written before the frame
 *          header, in order; sampling sets the luma's factors against chroma's 1x1: 2x1 is 4:2:2)
 *
 * `checks` draws 6-pixel checks of red and blue (sharp chroma edges everywhere) instead; `photo` draws photo-like content (smooth shapes plus fine pseudo-random grain) instead of the plain
 * gradient, so that the file's size and decoding cost resemble a camera's (for benchmarks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: mkjpeg OUT WIDTH HEIGHT [options]\n"); return 64; }
    int width = atoi(argv[2]), height = atoi(argv[3]);
    int progressive = 0, arith = 0, quality = 75, baseline = 1, jfif = 1, photo = 0, full_chroma = 0, checks = 0;
    int luma_h = 2, luma_v = 2;
    J_COLOR_SPACE in_space = JCS_RGB, jpeg_space = JCS_YCbCr;
    int components = 3;
    for (int i = 4; i < argc; i++) {
        if (!strcmp(argv[i], "progressive")) progressive = 1;
        else if (!strcmp(argv[i], "arith")) arith = 1;
        else if (!strncmp(argv[i], "q=", 2)) quality = atoi(argv[i] + 2);
        else if (!strcmp(argv[i], "nobaseline")) baseline = 0;
        else if (!strcmp(argv[i], "nojfif")) jfif = 0;
        else if (!strcmp(argv[i], "photo")) photo = 1;
        else if (!strcmp(argv[i], "checks")) checks = 1;
        else if (!strcmp(argv[i], "444")) full_chroma = 1;
        else if (sscanf(argv[i], "sampling=%dx%d", &luma_h, &luma_v) == 2) continue;
        else if (!strcmp(argv[i], "gray")) { in_space = JCS_GRAYSCALE; jpeg_space = JCS_GRAYSCALE; components = 1; }
        else if (!strcmp(argv[i], "cmyk")) { in_space = JCS_CMYK; jpeg_space = JCS_CMYK; components = 4; }
        else if (!strcmp(argv[i], "ycck")) { in_space = JCS_CMYK; jpeg_space = JCS_YCCK; components = 4; }
        else if (strncmp(argv[i], "marker=", 7) != 0) { fprintf(stderr, "unknown option %s\n", argv[i]); return 64; }
    }
    FILE *out = fopen(argv[1], "wb");
    if (!out) { perror(argv[1]); return 1; }
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr err;
    c.err = jpeg_std_error(&err);
    jpeg_create_compress(&c);
    jpeg_stdio_dest(&c, out);
    c.image_width = width;
    c.image_height = height;
    c.input_components = components;
    c.in_color_space = in_space;
    jpeg_set_defaults(&c);
    jpeg_set_colorspace(&c, jpeg_space);
    jpeg_set_quality(&c, quality, baseline);
    c.write_JFIF_header = jfif && components != 4;
    c.arith_code = arith;
    if (components == 3) c.comp_info[0].h_samp_factor = luma_h, c.comp_info[0].v_samp_factor = luma_v;
    if (full_chroma) c.comp_info[0].h_samp_factor = c.comp_info[0].v_samp_factor = 1;
    if (progressive) jpeg_simple_progression(&c);
    jpeg_start_compress(&c, TRUE);
    for (int i = 4; i < argc; i++) {
        if (strncmp(argv[i], "marker=", 7) != 0) continue;
        int marker = (int)strtol(argv[i] + 7, NULL, 16);
        const char *path = strchr(argv[i], ':') + 1;
        FILE *f = fopen(path, "rb");
        if (!f) { perror(path); return 1; }
        static unsigned char data[65533];
        size_t n = fread(data, 1, sizeof data, f);
        fclose(f);
        jpeg_write_marker(&c, marker, data, (unsigned)n);
    }
    unsigned char *row = malloc((size_t)width * components);
    unsigned int seed = 12345;
    while (c.next_scanline < c.image_height) {
        int y = (int)c.next_scanline;
        if (photo) {
            for (int x = 0; x < width; x++) {
                /* Smooth circles and bands, plus grain: roughly what a camera's JPEG has to encode. */
                int dx = x - width / 3, dy = y - height / 2;
                int ring = ((dx * dx + dy * dy) / (width / 8 + 1)) % 256;
                for (int k = 0; k < components; k++) {
                    seed = seed * 1103515245u + 12345u;
                    int grain = (int)((seed >> 16) % 41) - 20;
                    int base = k == 0 ? ring : k == 1 ? (x * 255 / width + y / 7) % 256 : (y * 255 / height);
                    int v = base + grain;
                    row[x * components + k] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
                }
            }
            JSAMPROW rows[1] = {row};
            jpeg_write_scanlines(&c, rows, 1);
            continue;
        }
        for (int x = 0; x < width && checks; x++)
            for (int k = 0; k < components; k++)
                row[x * components + k] = (unsigned char)(((x / 6 + y / 6) % 2 ? k == 0 : k == 2) ? 230 : 40);
        for (int x = 0; x < width && !checks; x++)
            for (int k = 0; k < components; k++)
                row[x * components + k] = (unsigned char)((x * 255 / (width > 1 ? width - 1 : 1)) * (k != 1)
                    + (y * 255 / (height > 1 ? height - 1 : 1)) * (k == 1) + ((x / 8 + y / 8) % 2) * 24 * (k == 2));
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&c, rows, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    fclose(out);
    free(row);
    return 0;
}
