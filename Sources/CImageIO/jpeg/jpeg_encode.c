/*
 * The JPEG encoder of derived images: libjpeg, baseline (not progressive: thumbnails are small, and
 * baseline is faster to write and to decode), 4:2:0 for colour, Huffman tables optimised, a JFIF APP0 and
 * the ICC profile (APP2) as the only metadata. Creates `path` as a new file and removes it again on failure.
 */
#include "jpeg_support.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "derive.h"
#include "output_file.h"
#include "source_file.h"

typedef struct {
    struct jpeg_compress_struct info;
    wf_jpeg_error error;
} jpeg_writer;

static void write_jpeg(jpeg_writer *w, FILE *file, const uint8_t *pixels, uint32_t width, uint32_t height,
                       int channels, int quality, const uint8_t *icc, size_t icc_length) {
    struct jpeg_compress_struct *info = &w->info;
    jpeg_create_compress(info);
    jpeg_stdio_dest(info, file);
    info->image_width = width;
    info->image_height = height;
    info->input_components = channels;
    info->in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(info);
    jpeg_set_quality(info, quality, TRUE);
    info->optimize_coding = TRUE;
    jpeg_start_compress(info, TRUE);
    if (icc && icc_length > 0) jpeg_write_icc_profile(info, icc, (unsigned int)icc_length);
    size_t stride = (size_t)width * (size_t)channels;
    while (info->next_scanline < height) {
        JSAMPROW rows[16];
        JDIMENSION n = 0;
        for (; n < 16 && info->next_scanline + n < height; n++)
            rows[n] = (JSAMPROW)(pixels + (size_t)(info->next_scanline + n) * stride);
        jpeg_write_scanlines(info, rows, n);
    }
    jpeg_finish_compress(info);
}

/* Planes as libjpeg's raw data: each row widened to whole blocks and the last row repeated to whole iMCU
 * rows, both by replicating the edge, as libjpeg pads the rows it is given. */
static void write_planes(jpeg_writer *w, FILE *file, const wf_plane *planes, int plane_count, int quality,
                         const uint8_t *icc, size_t icc_length) {
    struct jpeg_compress_struct *info = &w->info;
    jpeg_create_compress(info);
    jpeg_stdio_dest(info, file);
    info->image_width = planes[0].width;
    info->image_height = planes[0].height;
    info->input_components = plane_count;
    info->in_color_space = plane_count == 1 ? JCS_GRAYSCALE : JCS_YCbCr;
    jpeg_set_defaults(info);
    jpeg_set_quality(info, quality, TRUE);
    info->optimize_coding = TRUE;
    info->raw_data_in = TRUE;
    jpeg_start_compress(info, TRUE);
    if (icc && icc_length > 0) jpeg_write_icc_profile(info, icc, (unsigned int)icc_length);
    JSAMPARRAY rows[3];
    int tall[3];
    for (int c = 0; c < plane_count; c++) {
        tall[c] = info->comp_info[c].v_samp_factor * DCTSIZE;
        JDIMENSION wide = info->comp_info[c].width_in_blocks * DCTSIZE;
        rows[c] = (*info->mem->alloc_sarray)((j_common_ptr)info, JPOOL_IMAGE, wide, (JDIMENSION)tall[c]);
    }
    uint32_t done[3] = {0, 0, 0};
    while (info->next_scanline < info->image_height) {
        for (int c = 0; c < plane_count; c++) {
            const wf_plane *plane = &planes[c];
            JDIMENSION wide = info->comp_info[c].width_in_blocks * DCTSIZE;
            for (int k = 0; k < tall[c]; k++, done[c]++) {
                uint32_t y = done[c] < plane->height ? done[c] : plane->height - 1;
                const uint8_t *source = plane->pixels + (size_t)y * plane->width;
                memcpy(rows[c][k], source, plane->width);
                memset(rows[c][k] + plane->width, source[plane->width - 1], wide - plane->width);
            }
        }
        jpeg_write_raw_data(info, rows, (JDIMENSION)(info->max_v_samp_factor * DCTSIZE));
    }
    jpeg_finish_compress(info);
}

wf_derive_status wf_write_jpeg_planes(const char *path, const wf_plane *planes, int plane_count, int quality,
                                      const uint8_t *icc, size_t icc_length, char *message, size_t size) {
    FILE *file = wf_create_output(path);
    if (!file) return wf_output_errno(message, size, "cannot create the output", errno);
    jpeg_writer *w = calloc(1, sizeof *w);
    wf_derive_status status = WF_DERIVE_OK;
    if (!w) {
        snprintf(message, size, "out of memory");
        status = WF_DERIVE_ERR_LIMIT;
    } else {
        w->info.err = wf_jpeg_error_init(&w->error);
        if (setjmp(w->error.jump) == 0) {
            write_planes(w, file, planes, plane_count, quality, icc, icc_length);
        } else {
            wf_lowercase_first(w->error.message);
            snprintf(message, size, "cannot write the JPEG: %s", w->error.message);
            status = WF_DERIVE_ERR_WRITE;
        }
        jpeg_destroy_compress(&w->info);
        free(w);
    }
    if (fclose(file) != 0 && status == WF_DERIVE_OK) status = wf_output_errno(message, size, "cannot write the output", errno);
    if (status != WF_DERIVE_OK) unlink(path);
    return status;
}

wf_derive_status wf_write_jpeg(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height,
                               int channels, int quality, const uint8_t *icc, size_t icc_length,
                               char *message, size_t size) {
    FILE *file = wf_create_output(path);
    if (!file) return wf_output_errno(message, size, "cannot create the output", errno);
    jpeg_writer *w = calloc(1, sizeof *w);
    wf_derive_status status = WF_DERIVE_OK;
    if (!w) {
        snprintf(message, size, "out of memory");
        status = WF_DERIVE_ERR_LIMIT;
    } else {
        w->info.err = wf_jpeg_error_init(&w->error);
        if (setjmp(w->error.jump) == 0) {
            write_jpeg(w, file, pixels, width, height, channels, quality, icc, icc_length);
        } else {
            wf_lowercase_first(w->error.message);
            snprintf(message, size, "cannot write the JPEG: %s", w->error.message);
            status = WF_DERIVE_ERR_WRITE;
        }
        jpeg_destroy_compress(&w->info);
        free(w);
    }
    if (fclose(file) != 0 && status == WF_DERIVE_OK) status = wf_output_errno(message, size, "cannot write the output", errno);
    if (status != WF_DERIVE_OK) unlink(path);
    return status;
}

