/*
 * JPEG header reading with libjpeg's jpeg_read_header over a block source that skips unneeded segments
 * by seeking, and a setjmp error manager: libjpeg's errors become a status and a message, never exit().
 */
#include <stdio.h> /* jpeglib.h needs FILE and size_t first */
#include <setjmp.h>
#include <stddef.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

#include "readers.h"

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} error_context;

typedef struct {
    struct jpeg_source_mgr manager;
    wf_stream *stream;
    int reached_end;
} source_context;

/* What the APP1 handler learns. IFD0 fits in `inline_exif` in every real file; a bigger one (an IFD0
 * placed far into the segment) gets a buffer from libjpeg's pool, which jpeg_destroy_decompress frees
 * even after an error. */
typedef struct {
    int saw_exif;
    int32_t orientation;
    uint8_t inline_exif[4096];
} marker_context;

typedef struct {
    struct jpeg_decompress_struct info;
    error_context error;
    source_context source;
    marker_context markers;
} reader;

/* ---- error manager: never print, never exit ---- */

static void error_exit(j_common_ptr info) {
    error_context *error = (error_context *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}

static void emit_message(j_common_ptr info, int level) {
    if (level < 0) info->err->num_warnings++;
}

static void output_message(j_common_ptr info) { (void)info; }

/* ---- source manager: 4 KiB blocks, skips that seek instead of reading ---- */

static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};

static void init_source(j_decompress_ptr info) { (void)info; }
static void term_source(j_decompress_ptr info) { (void)info; }

static boolean fill_input_buffer(j_decompress_ptr info) {
    source_context *source = (source_context *)info->src;
    const uint8_t *bytes;
    size_t length = wf_stream_next(source->stream, &bytes);
    if (length == 0) {
        /* As libjpeg's own sources do: end the stream with a fake EOI and a warning. */
        source->reached_end = 1;
        WARNMS(info, JWRN_JPEG_EOF);
        bytes = fake_eoi;
        length = sizeof fake_eoi;
    }
    source->manager.next_input_byte = bytes;
    source->manager.bytes_in_buffer = length;
    return TRUE;
}

static void skip_input_data(j_decompress_ptr info, long count) {
    if (count <= 0) return;
    source_context *source = (source_context *)info->src;
    size_t buffered = source->manager.bytes_in_buffer;
    if ((size_t)count <= buffered) {
        source->manager.next_input_byte += count;
        source->manager.bytes_in_buffer -= (size_t)count;
        return;
    }
    source->manager.bytes_in_buffer = 0;
    wf_stream_skip(source->stream, (uint64_t)count - buffered);
}

/* ---- APP1: keep the first Exif payload, skip everything else (XMP, later Exif) unread ---- */

/* Copies `length` bytes out of the source (NULL destination: skip them). Fails on a truncated file. */
static void take(j_decompress_ptr info, uint8_t *destination, size_t length) {
    source_context *source = (source_context *)info->src;
    if (destination == NULL) {
        skip_input_data(info, (long)length);
        return;
    }
    while (length > 0) {
        if (source->manager.bytes_in_buffer == 0) {
            fill_input_buffer(info);
            if (source->reached_end) ERREXIT(info, JERR_INPUT_EOF);
        }
        size_t n = source->manager.bytes_in_buffer < length ? source->manager.bytes_in_buffer : length;
        memcpy(destination, source->manager.next_input_byte, n);
        source->manager.next_input_byte += n;
        source->manager.bytes_in_buffer -= n;
        destination += n;
        length -= n;
    }
}

/*
 * Replaces jpeg_save_markers for APP1. libjpeg-turbo 2.1.5 appends each saved marker by walking the whole
 * saved list, so a file of 100,000 tiny APP1s costs billions of steps. This handler does constant work per
 * marker, keeps only the first Exif payload's IFD0, and seeks past XMP and any later Exif.
 */
static boolean read_app1(j_decompress_ptr info) {
    marker_context *markers = (marker_context *)info->client_data;
    uint8_t length_bytes[2];
    take(info, length_bytes, 2);
    long length = ((long)length_bytes[0] << 8 | length_bytes[1]) - 2;
    /* A length under 2 is damage; as libjpeg does for the segments it skips, read nothing and let the
     * marker scanner resynchronise on the next 0xFF. */
    if (length <= 0) return TRUE;

    static const uint8_t exif_header[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (markers->saw_exif || length < (long)sizeof exif_header) {
        take(info, NULL, (size_t)length);
        return TRUE;
    }
    uint8_t header[sizeof exif_header];
    take(info, header, sizeof header);
    length -= (long)sizeof header;
    if (memcmp(header, exif_header, sizeof header) != 0) {
        take(info, NULL, (size_t)length);
        return TRUE;
    }
    /* Read just enough to hold IFD0 (a few hundred bytes) and seek past the rest: the embedded
     * thumbnail and maker notes can be tens of kilobytes. */
    uint8_t *exif = markers->inline_exif;
    size_t total = (size_t)length, have = 0, need;
    while ((need = wf_exif_ifd0_end(exif, have, total)) > have) {
        if (need > sizeof markers->inline_exif && exif == markers->inline_exif) {
            uint8_t *large = (*info->mem->alloc_large)((j_common_ptr)info, JPOOL_IMAGE, total);
            exif = memcpy(large, exif, have);
        }
        take(info, exif + have, need - have);
        have = need;
    }
    take(info, NULL, total - have);
    markers->saw_exif = 1;
    markers->orientation = wf_exif_orientation(exif, have);
    return TRUE;
}

/* ---- turning libjpeg's verdict into ours ---- */

static void lowercase_first(char *text) {
    if (text[0] >= 'A' && text[0] <= 'Z' && !(text[1] >= 'A' && text[1] <= 'Z')) text[0] += 'a' - 'A';
}

/* The JPEG processes libjpeg-turbo 2.1.5 does not decode, by SOF marker. */
static const char *process_name(int marker) {
    switch (marker) {
    case 0xC3: return "lossless";
    case 0xCB: return "lossless, arithmetic-coded";
    case 0xC5: case 0xC6: case 0xC7: return "hierarchical";
    case 0xCD: case 0xCE: case 0xCF: return "hierarchical, arithmetic-coded";
    default: return "unknown";
    }
}

static void describe_failure(reader *r, wf_header *out) {
    const struct jpeg_error_mgr *error = &r->error.manager;
    char *message = r->error.message;
    lowercase_first(message);
    if (r->source.reached_end) {
        wf_fail(out, WF_ERR_TRUNCATED, "truncated JPEG: the file ends after %llu bytes, inside the header",
                (unsigned long long)r->source.stream->bytes_read);
    } else if (error->msg_code == JERR_SOF_UNSUPPORTED) {
        int marker = error->msg_parm.i[0];
        wf_fail(out, WF_ERR_UNSUPPORTED, "unsupported JPEG process (SOF%d, %s)", marker - 0xC0, process_name(marker));
    } else if (error->msg_code == JERR_BAD_PRECISION) {
        wf_fail(out, WF_ERR_UNSUPPORTED, "unsupported JPEG precision (%d-bit)", error->msg_parm.i[0]);
    } else if (error->msg_code == JERR_IMAGE_TOO_BIG) {
        wf_fail(out, WF_ERR_UNSUPPORTED, "unsupported JPEG size (%u×%u; libjpeg reads at most %ld pixels a side)",
                r->info.image_width, r->info.image_height, (long)JPEG_MAX_DIMENSION);
    } else {
        wf_fail(out, WF_ERR_CORRUPT, "corrupt JPEG header: %s", message);
    }
}

static void run(reader *r, wf_header *out) {
    jpeg_create_decompress(&r->info);
    r->info.client_data = &r->markers;
    r->info.src = &r->source.manager;
    jpeg_set_marker_processor(&r->info, JPEG_APP0 + 1, read_app1);
    jpeg_read_header(&r->info, TRUE);

    out->width = r->info.image_width;
    out->height = r->info.image_height;
    out->components = r->info.num_components;
    out->progressive = r->info.progressive_mode ? 1 : 0;
    out->bit_depth = r->info.data_precision;
    out->orientation = r->markers.saw_exif ? r->markers.orientation : 1;
    out->warnings = (int32_t)r->error.manager.num_warnings;
    out->status = WF_OK;
}

void wf_read_jpeg_header(wf_stream *stream, wf_header *out) {
    reader r; /* about 5 KB */
    memset(&r, 0, offsetof(reader, markers.inline_exif)); /* the Exif buffer is written before it is read */
    r.info.err = jpeg_std_error(&r.error.manager);
    r.error.manager.error_exit = error_exit;
    r.error.manager.emit_message = emit_message;
    r.error.manager.output_message = output_message;
    r.source.stream = stream;
    r.source.manager.init_source = init_source;
    r.source.manager.fill_input_buffer = fill_input_buffer;
    r.source.manager.skip_input_data = skip_input_data;
    r.source.manager.resync_to_restart = jpeg_resync_to_restart;
    r.source.manager.term_source = term_source;

    if (setjmp(r.error.jump) == 0) {
        run(&r, out);
    } else {
        describe_failure(&r, out);
    }
    jpeg_destroy_decompress(&r.info);
}
