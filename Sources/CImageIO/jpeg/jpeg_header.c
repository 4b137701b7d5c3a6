/*
 * JPEG header reading with libjpeg's jpeg_read_header over a block source that skips unneeded segments
 * by seeking, and a setjmp error manager: libjpeg's errors become a status and a message, never exit().
 */
#include <string.h>

#include "jpeg_format.h"
#include "jpeg_support.h"
#include "source_file.h"
#include "readers.h"

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
    wf_jpeg_error error;
    wf_jpeg_source source;
    marker_context markers;
} reader;

/* ---- APP1: keep the first Exif payload, skip everything else (XMP, later Exif) unread ---- */

/*
 * Replaces jpeg_save_markers for APP1. libjpeg-turbo 2.1.5 appends each saved marker by walking the whole
 * saved list, so a file of 100,000 tiny APP1s costs billions of steps. This handler does constant work per
 * marker, keeps only the first Exif payload's IFD0, and seeks past XMP and any later Exif.
 */
static boolean read_app1(j_decompress_ptr info) {
    marker_context *markers = (marker_context *)info->client_data;
    uint8_t length_bytes[2];
    wf_jpeg_take(info, length_bytes, 2);
    long length = ((long)length_bytes[0] << 8 | length_bytes[1]) - 2;
    /* A length under 2 is damage; as libjpeg does for the segments it skips, read nothing and let the
     * marker scanner resynchronise on the next 0xFF. */
    if (length <= 0) return TRUE;

    static const uint8_t exif_header[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (markers->saw_exif || length < (long)sizeof exif_header) {
        wf_jpeg_take(info, NULL, (size_t)length);
        return TRUE;
    }
    uint8_t header[sizeof exif_header];
    wf_jpeg_take(info, header, sizeof header);
    length -= (long)sizeof header;
    if (memcmp(header, exif_header, sizeof header) != 0) {
        wf_jpeg_take(info, NULL, (size_t)length);
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
        wf_jpeg_take(info, exif + have, need - have);
        have = need;
    }
    wf_jpeg_take(info, NULL, total - have);
    markers->saw_exif = 1;
    markers->orientation = wf_exif_orientation(exif, have);
    return TRUE;
}

/* ---- turning libjpeg's verdict into ours ---- */

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
    wf_lowercase_first(message);
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

int wf_sniff_jpeg(const uint8_t *bytes, size_t length) { return WF_STARTS_WITH(bytes, length, "\xFF\xD8\xFF"); }

void wf_read_jpeg_header(wf_stream *stream, wf_header *out) {
    reader r; /* about 5 KB */
    memset(&r, 0, offsetof(reader, markers.inline_exif)); /* the Exif buffer is written before it is read */
    r.info.err = wf_jpeg_error_init(&r.error);
    wf_jpeg_source_init(&r.source, stream);

    if (setjmp(r.error.jump) == 0) {
        run(&r, out);
    } else {
        describe_failure(&r, out);
    }
    jpeg_destroy_decompress(&r.info);
}
