/*
 * PNG header reading with libpng's png_read_info over a block source, with a setjmp error handler:
 * libpng's errors become a status and a message, never abort().
 */
#include "png_format.h"
#include "png_support.h"
#include "source_file.h"
#include <string.h>

#include "readers.h"

typedef struct {
    wf_png_io io; /* first: libpng's error and I/O pointer */
} png_context;

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

int wf_sniff_png(const uint8_t *bytes, size_t length) {
    return WF_STARTS_WITH(bytes, length, "\x89PNG\r\n\x1A\n") && !(length >= 16 && memcmp(bytes + 12, "CgBI", 4) == 0);
}

void wf_read_png_header(wf_stream *stream, wf_header *out) {
    if (!wf_png_ihdr_comes_first(stream)) {
        wf_fail(out, WF_ERR_CORRUPT, "corrupt PNG header: the first chunk is not IHDR");
        return;
    }
    png_context context = {.io.stream = stream};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, wf_png_on_error, wf_png_on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        wf_fail(out, WF_ERR_IO, "out of memory");
        return;
    }
    if (setjmp(png_jmpbuf(png)) == 0) {
        png_set_read_fn(png, &context, wf_png_read_bytes);
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
        out->alpha = (png_get_color_type(png, info) & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS) != 0;
        out->progressive = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
        out->orientation = orientation(png, info);
        out->warnings = context.io.warnings;
        out->status = WF_OK;
    } else {
        wf_lowercase_first(context.io.message);
        if (context.io.reached_end)
            wf_fail(out, WF_ERR_TRUNCATED, "truncated PNG: the file ends after %llu bytes, inside the header",
                    (unsigned long long)stream->bytes_read);
        else
            wf_fail(out, WF_ERR_CORRUPT, "corrupt PNG header: %s", context.io.message);
    }
    png_destroy_read_struct(&png, &info, NULL);
}
