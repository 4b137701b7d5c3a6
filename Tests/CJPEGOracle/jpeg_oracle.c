/*
 * Test-only: libjpeg-turbo encoding by its own front end (scanlines, or raw planes), optimize_coding on:
 * the bytes Waterfall's encoder (Sources/CImageIO/jpeg/jpeg_encode.c) must reproduce.
 */
#include "jpeg_oracle.h"

#include <stdio.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
} oracle_error;

static void oracle_exit(j_common_ptr info) { longjmp(((oracle_error *)info->err)->jump, 1); }

static void oracle_silent(j_common_ptr info) { (void)info; }

/* The padded copy of one plane: `rows` × `stride`, the last column and row repeated. */
static uint8_t *padded(const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t stride, uint32_t rows) {
    uint8_t *out = malloc((size_t)stride * rows);
    if (!out) return NULL;
    for (uint32_t y = 0; y < rows; y++) {
        const uint8_t *from = pixels + (size_t)(y < height ? y : height - 1) * width;
        uint8_t *to = out + (size_t)y * stride;
        memcpy(to, from, width);
        memset(to + width, from[width - 1], stride - width);
    }
    return out;
}

static int encode(const char *path, const uint8_t *pixels, uint8_t *const *planes, const uint32_t *widths,
                  const uint32_t *heights, uint32_t width, uint32_t height, int components, int raw, int optimize,
                  int quality, const uint8_t *icc, size_t icc_length, char *message, size_t size) {
    FILE *file = fopen(path, "wb");
    if (!file) {
        snprintf(message, size, "cannot create %s", path);
        return -1;
    }
    struct jpeg_compress_struct info;
    oracle_error error;
    uint8_t *volatile copies[3] = {NULL, NULL, NULL};
    volatile int result = 0;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = oracle_exit;
    error.manager.output_message = oracle_silent;
    if (setjmp(error.jump) == 0) {
        jpeg_create_compress(&info);
        jpeg_stdio_dest(&info, file);
        info.image_width = width;
        info.image_height = height;
        info.input_components = components;
        info.in_color_space = components == 1 ? JCS_GRAYSCALE : raw ? JCS_YCbCr : JCS_RGB;
        jpeg_set_defaults(&info);
        jpeg_set_quality(&info, quality, TRUE);
        info.optimize_coding = optimize ? TRUE : FALSE;
        info.raw_data_in = raw ? TRUE : FALSE;
        jpeg_start_compress(&info, TRUE);
        if (icc && icc_length > 0) jpeg_write_icc_profile(&info, icc, (unsigned int)icc_length);
        if (!raw) {
            size_t stride = (size_t)width * (size_t)components;
            while (info.next_scanline < height) {
                JSAMPROW rows[16];
                JDIMENSION n = 0;
                for (; n < 16 && info.next_scanline + n < height; n++)
                    rows[n] = (JSAMPROW)(pixels + (size_t)(info.next_scanline + n) * stride);
                jpeg_write_scanlines(&info, rows, n);
            }
        } else {
            int max_v = info.max_v_samp_factor, max_h = 1;
            for (int c = 0; c < components; c++) max_h = info.comp_info[c].h_samp_factor > max_h ? info.comp_info[c].h_samp_factor : max_h;
            uint32_t mcu_rows = (height + 8 * (uint32_t)max_v - 1) / (8 * (uint32_t)max_v);
            uint32_t mcus_across = (width + 8 * (uint32_t)max_h - 1) / (8 * (uint32_t)max_h);
            uint32_t strides[3];
            for (int c = 0; c < components; c++) {
                strides[c] = mcus_across * 8 * (uint32_t)info.comp_info[c].h_samp_factor;
                copies[c] = padded(planes[c], widths[c], heights[c], strides[c], mcu_rows * 8 * (uint32_t)info.comp_info[c].v_samp_factor);
                if (!copies[c]) {
                    snprintf(message, size, "out of memory");
                    result = -1;
                }
            }
            for (uint32_t m = 0; result == 0 && m < mcu_rows; m++) {
                JSAMPROW rows[3][16];
                JSAMPARRAY arrays[3];
                for (int c = 0; c < components; c++) {
                    int v = info.comp_info[c].v_samp_factor * 8;
                    for (int r = 0; r < v; r++) rows[c][r] = copies[c] + ((size_t)m * (size_t)v + (size_t)r) * strides[c];
                    arrays[c] = rows[c];
                }
                jpeg_write_raw_data(&info, arrays, (JDIMENSION)(8 * max_v));
            }
        }
        if (result == 0) jpeg_finish_compress(&info);
    } else {
        char text[JMSG_LENGTH_MAX];
        (*info.err->format_message)((j_common_ptr)&info, text);
        snprintf(message, size, "%s", text);
        result = -1;
    }
    jpeg_destroy_compress(&info);
    for (int c = 0; c < 3; c++) free(copies[c]);
    if (fclose(file) != 0 && result == 0) {
        snprintf(message, size, "cannot write %s", path);
        result = -1;
    }
    return result;
}

int oracle_write_jpeg(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                      int quality, const uint8_t *icc, size_t icc_length, char *message, size_t size) {
    return encode(path, pixels, NULL, NULL, NULL, width, height, channels, 0, 1, quality, icc, icc_length, message, size);
}

int oracle_write_jpeg_standard_tables(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height,
                                      int channels, int quality, char *message, size_t size) {
    return encode(path, pixels, NULL, NULL, NULL, width, height, channels, 0, 0, quality, NULL, 0, message, size);
}

int oracle_write_jpeg_raw(const char *path, uint8_t *const *planes, const uint32_t *widths, const uint32_t *heights,
                          int plane_count, int quality, const uint8_t *icc, size_t icc_length, char *message,
                          size_t size) {
    return encode(path, NULL, planes, widths, heights, widths[0], heights[0], plane_count, 1, 1, quality, icc,
                  icc_length, message, size);
}
