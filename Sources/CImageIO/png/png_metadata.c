/*
 * PNG metadata: the eXIf chunk, the Description and Title text chunks, the XMP packet (iTXt
 * "XML:com.adobe.xmp", or ImageMagick's "Raw profile type xmp") and the IPTC of a "Raw profile type iptc" text
 * chunk (png_raw_profile.c) before IDAT, the first of each, through libpng's png_read_info with every other
 * ancillary chunk skipped unparsed. Nothing is decoded.
 */
#include "png_format.h"
#include "png_raw_profile.h"
#include "png_support.h"
#include "source_file.h"
#include <stdlib.h>
#include <string.h>

#include "metadata_readers.h"

enum {
    CHUNK_MAX = 64 * 1024,      /* a tEXt, zTXt or eXIf chunk longer than this is skipped, never stored */
    ITXT_MAX = (1 << 20) + 1024, /* iTXt may hold an XMP packet (1 MiB at most) */
    INFLATE_MAX = (1 << 20) + 1024, /* compressed text that inflates past this is dropped */
    TEXT_CHUNKS_MAX = 32,       /* text chunks after this many are skipped */
    ALLOCATION_MAX = 3 << 20    /* no single libpng allocation over this (a backstop) */
};

typedef struct {
    wf_png_io io;        /* first: libpng's error and I/O pointer */
    uint64_t position;   /* bytes handed to libpng so far */
    uint64_t next_chunk; /* where the next chunk's length and type start */
} png_context;

/* libpng's allocations go through here, so that no claimed length can make it ask for gigabytes. */
static png_voidp allocate(png_structp png, png_alloc_size_t size) {
    (void)png;
    return size > ALLOCATION_MAX ? NULL : malloc(size);
}

static void release(png_structp png, png_voidp pointer) {
    (void)png;
    free(pointer);
}

static int is_kept_type(const uint8_t *type) {
    return memcmp(type, "tEXt", 4) == 0 || memcmp(type, "zTXt", 4) == 0 || memcmp(type, "iTXt", 4) == 0 ||
           memcmp(type, "eXIf", 4) == 0;
}

/*
 * libpng 1.6.39 reads a text chunk's whole body into one buffer before it looks at it, and when that
 * allocation is refused it returns without consuming the body, so the next "chunk" is read from the middle
 * of the text and the read fails. So oversized text and eXIf chunks are renamed as their 8-byte header
 * goes by, to a private ancillary type libpng skips (its CRC no longer matches: a warning, and skipped).
 * libpng reads each chunk header in one call of exactly 8 bytes; if it ever did otherwise this would
 * simply not fire, and the allocation cap would still hold.
 */
static void rename_oversized(png_context *context, png_bytep header) {
    uint64_t length = (uint64_t)header[0] << 24 | (uint64_t)header[1] << 16 | (uint64_t)header[2] << 8 | header[3];
    context->next_chunk = context->position + 8 + length + 4;
    uint64_t max = memcmp(header + 4, "iTXt", 4) == 0 ? ITXT_MAX : CHUNK_MAX;
    if (length > max && is_kept_type(header + 4)) {
        memcpy(header + 4, "wfSk", 4); /* ancillary, private, reserved bit clear */
    }
}

static void read_bytes(png_structp png, png_bytep destination, size_t length) {
    png_context *context = (png_context *)png_get_io_ptr(png);
    wf_png_read_bytes(png, destination, length);
    if (length == 8 && context->position == context->next_chunk) rename_oversized(context, destination);
    context->position += length;
}

/* Everything but IHDR, PLTE, tRNS, IDAT and IEND is skipped unparsed, except the chunks read here. */
static void keep_only_metadata_chunks(png_structp png) {
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    static const png_byte keep[] = {'e', 'X', 'I', 'f', '\0', 't', 'E', 'X', 't', '\0',
                                    'z', 'T', 'X', 't', '\0', 'i', 'T', 'X', 't', '\0'};
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_AS_DEFAULT, keep, 4);
}

static int keyword_is(png_const_charp key, const char *expected) {
    if (key == NULL) return 0;
    for (; *expected != '\0'; key++, expected++) {
        char c = *key;
        if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
        char e = *expected >= 'A' && *expected <= 'Z' ? (char)(*expected + ('a' - 'A')) : *expected;
        if (c != e) return 0;
    }
    return *key == '\0';
}

/* Takes what libpng has stored so far: after a failure, the chunks before the failing one. */
static void collect(png_structp png, png_infop info, wf_metadata *out) {
    png_uint_32 exif_length = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(png, info, &exif_length, &exif) != 0 && exif != NULL)
        wf_metadata_keep(&out->exif, exif, exif_length);

    png_textp texts = NULL;
    int count = 0;
    png_get_text(png, info, &texts, &count);
    int saw_xmp = 0, saw_iptc = 0;
    for (int i = 0; i < count; i++) {
        const png_text *text = &texts[i];
        if (text->text == NULL) continue;
        int international = text->compression == PNG_ITXT_COMPRESSION_NONE ||
                            text->compression == PNG_ITXT_COMPRESSION_zTXt;
        size_t length = international ? text->itxt_length : text->text_length;
        if (!saw_xmp && international && keyword_is(text->key, "xml:com.adobe.xmp")) {
            saw_xmp = 1;
            wf_metadata_take_xmp(out, (const uint8_t *)text->text, length);
            continue;
        }
        wf_record_source profile = wf_raw_profile_source(text->key);
        int *saw = profile == WF_RECORD_XMP ? &saw_xmp : profile == WF_RECORD_IPTC ? &saw_iptc : NULL;
        if (saw) {
            if (!*saw) wf_read_raw_profile(text->text, length, profile, &out->records);
            *saw = 1;
            continue;
        }
        wf_metadata_field *field = keyword_is(text->key, "description") ? &out->description
                                 : keyword_is(text->key, "title")       ? &out->title
                                 : NULL;
        if (field == NULL || field->total > 0) continue;
        wf_metadata_keep(field, (const uint8_t *)text->text, length);
    }
}

void wf_read_png_metadata(wf_stream *stream, wf_metadata *out) {
    if (!wf_png_ihdr_comes_first(stream)) {
        wf_metadata_fail(out, WF_ERR_CORRUPT, "corrupt PNG header: the first chunk is not IHDR");
        return;
    }
    png_context context = {.io.stream = stream, .next_chunk = 8};
    png_structp png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &context, wf_png_on_error, wf_png_on_warning, NULL,
                                               allocate, release);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        wf_metadata_fail(out, WF_ERR_IO, "out of memory");
        return;
    }
    if (setjmp(png_jmpbuf(png)) == 0) {
        png_set_read_fn(png, &context, read_bytes);
        png_set_user_limits(png, 0x7fffffff, 0x7fffffff); /* a huge IHDR does not hide the text */
        png_set_chunk_malloc_max(png, INFLATE_MAX + 1024); /* libpng's inflate limit (keyword included) */
        png_set_chunk_cache_max(png, TEXT_CHUNKS_MAX + 2);  /* libpng counts down and stops at 1, not 0 */
        keep_only_metadata_chunks(png);
        png_read_info(png, info);
        collect(png, info, out);
        out->status = WF_OK;
    } else {
        collect(png, info, out);
        wf_lowercase_first(context.io.message);
        if (context.io.reached_end)
            wf_metadata_fail(out, WF_ERR_TRUNCATED, "truncated PNG: the file ends after %llu bytes, inside the header",
                             (unsigned long long)stream->bytes_read);
        else
            wf_metadata_fail(out, WF_ERR_CORRUPT, "corrupt PNG header: %s", context.io.message);
    }
    out->warnings = context.io.warnings;
    png_destroy_read_struct(&png, &info, NULL);
}
