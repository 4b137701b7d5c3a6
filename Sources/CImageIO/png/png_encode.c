/*
 * The PNG encoder of derived images: libpng, zlib level 6, IHDR, iCCP, IDAT, IEND and nothing else. Creates
 * `path` as a new file and removes it again on failure.
 */
#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output_file.h"
#include "png_format.h"
#include "source_file.h"

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

wf_derive_status wf_write_png(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height,
                              int channels, const uint8_t *icc, size_t icc_length, int *warnings,
                              int *icc_kept, char *message, size_t size) {
    wf_output_stream stream;
    if (wf_output_open(&stream) != 0) {
        snprintf(message, size, "out of memory");
        return WF_DERIVE_ERR_LIMIT;
    }
    FILE *file = stream.file;
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
    return wf_output_close(&stream, out, status, message, size);
}

wf_derive_status wf_encode_png(wf_encoded *out, const wf_still *still, wf_encode_note *note) {
    const wf_raster *image = still->image;
    return wf_write_png(out, image->pixels, image->width, image->height, image->channels, still->icc, still->icc_length,
                        &note->warnings, &note->icc_kept, note->message, sizeof note->message);
}
