/*
 * The PNG floor of make bench-thumbs (issue 14): libpng decodes every row of each PNG named and the rows are
 * thrown away. Rows come out as 8-bit samples, as any build needs them before it can resample: a palette
 * expanded to RGB, grey of 1, 2 or 4 bits to 8, tRNS to an alpha channel, 16 bits scaled to 8, interlaced
 * passes combined (into a whole image, the only way libpng combines them). No colour conversion, nothing
 * written. netpbm's pngtopam was measured first and spends about half of its time formatting its output.
 *
 *     png_decode FILE...
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

static int decode(const char *path, FILE *file) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep volatile pixels = NULL; /* volatile: freed after a longjmp */
    png_bytepp volatile rows = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        fprintf(stderr, "%s: not a PNG libpng can decode\n", path);
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels);
        free(rows);
        return 1;
    }
    png_init_io(png, file);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_read_info(png, info);
    int color_type = png_get_color_type(png, info), bit_depth = png_get_bit_depth(png, info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t stride = png_get_rowbytes(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    if (passes > 1) {
        pixels = malloc(stride * height);
        rows = malloc(sizeof(png_bytep) * height);
        if (!pixels || !rows) png_error(png, "out of memory");
        for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + stride * y;
        png_read_image(png, rows);
    } else {
        pixels = malloc(stride);
        if (!pixels) png_error(png, "out of memory");
        for (png_uint_32 y = 0; y < height; y++) png_read_row(png, pixels, NULL);
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(pixels);
    free(rows);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: png_decode FILE...\n");
        return 64;
    }
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        FILE *file = fopen(argv[i], "rb");
        if (!file) {
            perror(argv[i]);
            failed = 1;
            continue;
        }
        failed |= decode(argv[i], file);
        fclose(file);
    }
    return failed;
}
