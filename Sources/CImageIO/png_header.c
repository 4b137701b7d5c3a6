/*
 * PNG header reading with libpng's png_read_info over a block source, with a setjmp error handler:
 * libpng's errors become a status and a message, never abort().
 */
#include <png.h>
#include <string.h>

#include "readers.h"

typedef struct {
    wf_stream *stream;
    int reached_end;
    int warnings;
    char message[160];
} png_context;

static void on_error(png_structp png, png_const_charp message) {
    png_context *context = (png_context *)png_get_error_ptr(png);
    snprintf(context->message, sizeof context->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)message;
    ((png_context *)png_get_error_ptr(png))->warnings++;
}

static void read_bytes(png_structp png, png_bytep destination, size_t length) {
    png_context *context = (png_context *)png_get_io_ptr(png);
    if (wf_stream_read(context->stream, destination, length) != length) {
        context->reached_end = 1;
        png_error(png, "file ends early");
    }
}

/* Only IHDR (and eXIf, for orientation) matter here: every other chunk before IDAT is skipped unparsed,
 * so a huge or hostile iCCP, zTXt or iTXt is never decompressed. */
static void skip_ancillary_chunks(png_structp png) {
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    static const png_byte keep[] = {'e', 'X', 'I', 'f', '\0'};
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_AS_DEFAULT, keep, 1);
}

static int32_t orientation(png_structp png, png_infop info) {
    png_uint_32 length = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(png, info, &length, &exif) == 0 || exif == NULL) return 1;
    return wf_exif_orientation(exif, length);
}

static void lowercase_first(char *text) {
    if (text[0] >= 'A' && text[0] <= 'Z' && !(text[1] >= 'A' && text[1] <= 'Z')) text[0] += 'a' - 'A';
}

/* libpng lets chunks it is told to ignore pass before IHDR; the format says IHDR comes first. */
static int ihdr_comes_first(wf_stream *stream) {
    const uint8_t *bytes;
    size_t length = wf_stream_peek(stream, &bytes);
    return length < 16 || memcmp(bytes + 12, "IHDR", 4) == 0;
}

void wf_read_png_header(wf_stream *stream, wf_header *out) {
    if (!ihdr_comes_first(stream)) {
        wf_fail(out, WF_ERR_CORRUPT, "corrupt PNG header: the first chunk is not IHDR");
        return;
    }
    png_context context = {.stream = stream};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        wf_fail(out, WF_ERR_IO, "out of memory");
        return;
    }
    if (setjmp(png_jmpbuf(png)) == 0) {
        png_set_read_fn(png, &context, read_bytes);
        /* libpng's own 1,000,000-pixel side limit is lifted to the format's maximum; the caller's pixel
         * cap is the limit that matters, and it names the real size in its message. */
        png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
        png_set_chunk_malloc_max(png, 1 << 20);
        skip_ancillary_chunks(png);
        png_read_info(png, info);

        out->width = png_get_image_width(png, info);
        out->height = png_get_image_height(png, info);
        out->components = png_get_channels(png, info);
        out->bit_depth = png_get_bit_depth(png, info);
        out->progressive = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
        out->orientation = orientation(png, info);
        out->warnings = context.warnings;
        out->status = WF_OK;
    } else {
        lowercase_first(context.message);
        if (context.reached_end)
            wf_fail(out, WF_ERR_TRUNCATED, "truncated PNG: the file ends after %llu bytes, inside the header",
                    (unsigned long long)stream->bytes_read);
        else
            wf_fail(out, WF_ERR_CORRUPT, "corrupt PNG header: %s", context.message);
    }
    png_destroy_read_struct(&png, &info, NULL);
}
