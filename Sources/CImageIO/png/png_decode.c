/*
 * PNG decoding for derived images: libpng, every PngSuite variant expanded to 8 bits a sample with 1-4
 * channels (gray, gray+alpha, RGB, RGBA; palette and tRNS expanded, 16-bit scaled), rows pushed to a sink.
 * Gray stays gray (a gray ICC profile stays valid). Only iCCP is kept among the ancillary chunks: text,
 * eXIf, time and the rest are never even parsed, so a zTXt bomb costs nothing. A damaged critical chunk
 * (xcsn0g01's IDAT CRC) is an error, never a partly decoded image.
 */
#include "decode.h"
#include "png_format.h"
#include "png_support.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icc_cap.h"

typedef struct {
    wf_png_io io; /* first: libpng's error and I/O pointer */
    wf_derive_status sink_status;
    int icc_over;          /* libpng refused the iCCP profile as over the chunk limit (the profile cap) */
    uint64_t icc_declared; /* its size, as the profile's header declares it (0: unknown) */
    uint8_t *image;     /* interlaced files: the whole image */
    png_bytep *rows;
} png_context;

/* Adam7 needs every row before any is final, so an interlaced PNG is held whole (its rows after the transforms,
 * and a pointer a row): the same budget as a progressive JPEG's coefficients (jpeg_decode.c), refused from the
 * header before any pixel is decoded. A file that is not interlaced is read a row at a time. */
static void within_budget(png_structp png, png_context *context, png_uint_32 height, size_t row_bytes,
                          const wf_decode_options *options) {
    uint64_t limit = options->max_memory ? options->max_memory : (uint64_t)WF_DEFAULT_MAX_MEMORY;
    uint64_t need = (uint64_t)height * ((uint64_t)row_bytes + sizeof(png_bytep));
    if (need <= limit) return;
    char message[200];
    snprintf(message, sizeof message, "PNG needs more than the %llu MiB decoding limit (a large interlaced file: %llu MiB held whole)",
             (unsigned long long)(limit >> 20), (unsigned long long)((need + (1u << 20) - 1) >> 20));
    context->sink_status = WF_DERIVE_ERR_LIMIT;
    png_error(png, message);
}

static void run(png_structp png, png_infop info, png_context *context, const wf_decode_options *options,
                wf_pixel_sink *sink, wf_decode_outcome *out) {
    png_set_read_fn(png, context, wf_png_read_bytes);
    /* Size limits are the caller's pixel cap, checked on the header before we get here. */
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    /* The profile cap, as libpng's limit on a chunk's inflated size: a larger profile is never inflated. */
    png_set_chunk_malloc_max(png, WF_ICC_MAX_LENGTH + 4096);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
#ifdef PNG_IGNORE_ADLER32
    /* Every IDAT byte is already checked by its chunk's CRC (xcsn0g01 still fails); zlib's Adler-32 of the
     * same bytes after inflation checks them twice, at 5% of a PNG's decode. A bad stream still fails
     * inflate. */
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    if (options->want_icc) {
        static const png_byte keep[] = {'i', 'C', 'C', 'P', '\0'};
        png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_AS_DEFAULT, keep, 1);
    }
    png_read_info(png, info);

    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    int color_type = png_get_color_type(png, info), bit_depth = png_get_bit_depth(png, info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png); /* rounds, where strip_16 truncates */
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    int channels = png_get_channels(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    if (channels < 1 || channels > 4 || row_bytes != (size_t)width * (size_t)channels)
        png_error(png, "unexpected pixel layout after expansion");
    if (passes > 1) within_budget(png, context, height, row_bytes, options);

    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 profile_length;
    if (options->want_icc && png_get_iCCP(png, info, &name, &compression, &profile, &profile_length) &&
        profile_length > 0 && wf_icc_fits(profile_length, out)) {
        out->icc = malloc(profile_length);
        if (out->icc) {
            memcpy(out->icc, profile, profile_length);
            out->icc_length = profile_length;
        }
    } else if (options->want_icc && context->icc_over) {
        wf_icc_fits(context->icc_declared, out);
    }

    char message[200] = "";
    context->sink_status = sink->begin(sink->self, width, height, channels, message, sizeof message);
    if (context->sink_status != WF_DERIVE_OK) png_error(png, message);

    if (passes > 1) {
        /* Adam7 needs every row before any is final. */
        context->image = malloc((size_t)height * row_bytes);
        context->rows = malloc((size_t)height * sizeof *context->rows);
        if (!context->image || !context->rows) {
            context->sink_status = WF_DERIVE_ERR_LIMIT;
            png_error(png, "out of memory for an interlaced PNG");
        }
        for (png_uint_32 y = 0; y < height; y++) context->rows[y] = context->image + (size_t)y * row_bytes;
        png_read_image(png, context->rows);
        for (png_uint_32 y = 0; y < height; y++) {
            memcpy(sink->row(sink->self), context->rows[y], row_bytes);
            sink->commit(sink->self);
        }
    } else {
        for (png_uint_32 y = 0; y < height; y++) {
            png_read_row(png, sink->row(sink->self), NULL);
            sink->commit(sink->self);
        }
    }
    /* Reads to IEND: checks the last IDAT's CRC and that the file is whole. */
    png_read_end(png, NULL);
    out->warnings += context->io.warnings;
    out->status = WF_DERIVE_OK;
}

/* libpng's warnings, counted; the one that refuses an iCCP profile over the chunk limit ("iCCP: profile 'x':
 * 3D0900h: exceeds application limits", its declared size in hex) is noted for the profile cap. */
static void on_warning(png_structp png, png_const_charp message) {
    wf_png_on_warning(png, message);
    png_context *context = (png_context *)png_get_error_ptr(png);
    static const char limits[] = "h: exceeds application limits";
    const char *end = strstr(message, limits);
    if (strncmp(message, "iCCP", 4) != 0 || !end) return;
    context->icc_over = 1;
    const char *digits = end;
    while (digits > message && isxdigit((unsigned char)digits[-1])) digits--;
    context->icc_declared = digits < end && end - digits <= 8 ? strtoull(digits, NULL, 16) : 0;
}

void wf_decode_png(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out) {
    /* On the heap: everything run() changes must survive the longjmp. */
    png_context *context = calloc(1, sizeof *context);
    if (!context) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        return;
    }
    context->io.stream = stream;
    context->sink_status = WF_DERIVE_OK;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, context, wf_png_on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        free(context);
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        return;
    }
    if (setjmp(png_jmpbuf(png)) == 0) {
        run(png, info, context, options, sink, out);
    } else {
        free(out->icc);
        out->icc = NULL;
        out->icc_length = 0;
        char *text = context->io.message;
        if (text[0] >= 'A' && text[0] <= 'Z' && !(text[1] >= 'A' && text[1] <= 'Z')) text[0] += 'a' - 'A';
        if (context->sink_status != WF_DERIVE_OK)
            wf_outcome_fail(out, context->sink_status, "%s", text);
        else if (context->io.reached_end)
            wf_outcome_fail(out, WF_DERIVE_ERR_TRUNCATED, "truncated PNG: the image data ends early");
        else
            wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt PNG: %s", text);
    }
    png_destroy_read_struct(&png, &info, NULL);
    free(context->image);
    free(context->rows);
    free(context);
}
