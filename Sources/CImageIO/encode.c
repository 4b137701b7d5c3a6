/*
 * The two encoders of derived images. JPEG: libjpeg, baseline (not progressive: thumbnails are small, and
 * baseline is faster to write and to decode), 4:2:0 for colour, Huffman tables optimised, a JFIF APP0 and
 * the ICC profile (APP2) as the only metadata. PNG: libpng, zlib level 6, IHDR, iCCP, IDAT, IEND and
 * nothing else. Both create `path` as a new file (never through a symbolic link, never over an existing
 * file) and remove it again on failure.
 */
#include "jpeg_support.h"

#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "derive.h"
#include "source_file.h"

static wf_derive_status fail_errno(char *message, size_t size, const char *what, int error) {
    char text[128];
    snprintf(message, size, "%s: %s", what, wf_describe_errno(error, text, sizeof text));
    return WF_DERIVE_ERR_WRITE;
}

/* A new file for writing: O_EXCL and O_NOFOLLOW, so nothing already there (a file or a planted link) is
 * written through or replaced. */
static FILE *create_output(const char *path) {
    int fd;
    do {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return NULL;
    FILE *file = fdopen(fd, "wb");
    if (!file) {
        int saved = errno;
        close(fd);
        unlink(path);
        errno = saved;
    }
    return file;
}

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

wf_derive_status wf_write_jpeg(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height,
                               int channels, int quality, const uint8_t *icc, size_t icc_length,
                               char *message, size_t size) {
    FILE *file = create_output(path);
    if (!file) return fail_errno(message, size, "cannot create the output", errno);
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
    if (fclose(file) != 0 && status == WF_DERIVE_OK) status = fail_errno(message, size, "cannot write the output", errno);
    if (status != WF_DERIVE_OK) unlink(path);
    return status;
}

typedef struct {
    int warnings;
    char message[200];
} png_writer;

static void on_error(png_structp png, png_const_charp message) {
    png_writer *w = (png_writer *)png_get_error_ptr(png);
    snprintf(w->message, sizeof w->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)message;
    ((png_writer *)png_get_error_ptr(png))->warnings++;
}

static void write_png(png_structp png, png_infop info, FILE *file, const uint8_t *pixels, uint32_t width,
                      uint32_t height, int channels, const uint8_t *icc, size_t icc_length, int *icc_kept) {
    static const int types[] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                PNG_COLOR_TYPE_RGB_ALPHA};
    png_init_io(png, file);
    /* A profile libpng finds unusable (say, an RGB profile on a gray image) is dropped with a warning. */
    png_set_benign_errors(png, 1);
    png_set_compression_level(png, 6);
    png_set_IHDR(png, info, width, height, 8, types[channels], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (icc && icc_length > 0) png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_length);
    *icc_kept = png_get_valid(png, info, PNG_INFO_iCCP) != 0;
    png_write_info(png, info);
    size_t stride = (size_t)width * (size_t)channels;
    for (uint32_t y = 0; y < height; y++) png_write_row(png, pixels + (size_t)y * stride);
    png_write_end(png, NULL);
}

wf_derive_status wf_write_png(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height,
                              int channels, const uint8_t *icc, size_t icc_length, int *warnings,
                              int *icc_kept, char *message, size_t size) {
    FILE *file = create_output(path);
    if (!file) return fail_errno(message, size, "cannot create the output", errno);
    wf_derive_status status = WF_DERIVE_OK;
    png_writer *w = calloc(1, sizeof *w); /* on the heap: it must survive the longjmp */
    png_structp png = w ? png_create_write_struct(PNG_LIBPNG_VER_STRING, w, on_error, on_warning) : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        snprintf(message, size, "out of memory");
        status = WF_DERIVE_ERR_LIMIT;
    } else if (setjmp(png_jmpbuf(png)) == 0) {
        write_png(png, info, file, pixels, width, height, channels, icc, icc_length, icc_kept);
    } else {
        char *text = w->message;
        if (text[0] >= 'A' && text[0] <= 'Z' && !(text[1] >= 'A' && text[1] <= 'Z')) text[0] += 'a' - 'A';
        snprintf(message, size, "cannot write the PNG: %s", text);
        status = WF_DERIVE_ERR_WRITE;
    }
    if (png) png_destroy_write_struct(&png, info ? &info : NULL);
    if (w) *warnings += w->warnings;
    free(w);
    if (fclose(file) != 0 && status == WF_DERIVE_OK) status = fail_errno(message, size, "cannot write the output", errno);
    if (status != WF_DERIVE_OK) unlink(path);
    return status;
}
