/*
 * JPEG metadata: the whole TIFF structure of the first Exif APP1, read with jpeg_read_header over the
 * shared block source (so every other segment is skipped by seeking) up to SOS. Nothing is decoded.
 */
#include <string.h>

#include "jpeg_format.h"
#include "jpeg_support.h"
#include "source_file.h"
#include "metadata_readers.h"

typedef struct {
    struct jpeg_decompress_struct info;
    wf_jpeg_error error;
    wf_jpeg_source source;
    wf_metadata_field *exif;
    int saw_exif;
} reader;

/*
 * A marker processor rather than jpeg_save_markers, for the reason jpeg_header.c gives (libjpeg-turbo
 * 2.1.5 walks the saved list for every marker it saves): constant work per APP1, XMP and any later Exif
 * skipped unread. Unlike the header reader it keeps the whole payload, not just IFD0, because the Exif
 * sub-IFD and the values it points to may lie anywhere in the segment.
 */
static boolean read_app1(j_decompress_ptr info) {
    reader *r = (reader *)info->client_data;
    uint8_t length_bytes[2];
    wf_jpeg_take(info, length_bytes, 2);
    long length = ((long)length_bytes[0] << 8 | length_bytes[1]) - 2;
    /* Under 2 is damage: read nothing and let libjpeg resynchronise, as jpeg_header.c does. */
    if (length <= 0) return TRUE;

    static const uint8_t exif_header[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (r->saw_exif || length < (long)sizeof exif_header) {
        wf_jpeg_take(info, NULL, (size_t)length);
        return TRUE;
    }
    uint8_t header[sizeof exif_header];
    wf_jpeg_take(info, header, sizeof header);
    size_t total = (size_t)length - sizeof header;
    if (memcmp(header, exif_header, sizeof header) != 0) {
        wf_jpeg_take(info, NULL, total);
        return TRUE;
    }
    size_t keep = r->exif->bytes == NULL ? 0 : total < r->exif->capacity ? total : r->exif->capacity;
    if (keep > 0) wf_jpeg_take(info, r->exif->bytes, keep);
    wf_jpeg_take(info, NULL, total - keep);
    /* Only now: a payload cut short by the end of the file is not handed out half-written. */
    r->exif->length = keep;
    r->exif->total = total;
    r->saw_exif = 1;
    return TRUE;
}

static void describe_failure(reader *r, wf_metadata *out) {
    const struct jpeg_error_mgr *error = &r->error.manager;
    wf_lowercase_first(r->error.message);
    if (r->source.reached_end)
        wf_metadata_fail(out, WF_ERR_TRUNCATED, "truncated JPEG: the file ends after %llu bytes, inside the header",
                         (unsigned long long)r->source.stream->bytes_read);
    else if (error->msg_code == JERR_SOF_UNSUPPORTED || error->msg_code == JERR_BAD_PRECISION ||
             error->msg_code == JERR_IMAGE_TOO_BIG)
        wf_metadata_fail(out, WF_ERR_UNSUPPORTED, "unsupported JPEG: %s", r->error.message);
    else
        wf_metadata_fail(out, WF_ERR_CORRUPT, "corrupt JPEG header: %s", r->error.message);
}

static void run(reader *r) {
    jpeg_create_decompress(&r->info);
    r->info.client_data = r;
    r->info.src = &r->source.manager;
    jpeg_set_marker_processor(&r->info, JPEG_APP0 + 1, read_app1);
    jpeg_read_header(&r->info, TRUE);
}

void wf_read_jpeg_metadata(wf_stream *stream, wf_metadata *out) {
    reader r;
    memset(&r, 0, sizeof r);
    r.info.err = wf_jpeg_error_init(&r.error);
    wf_jpeg_source_init(&r.source, stream);
    r.exif = &out->exif;

    if (setjmp(r.error.jump) == 0) {
        run(&r);
        out->status = WF_OK;
    } else {
        describe_failure(&r, out); /* an Exif payload read before the failure is kept */
    }
    out->warnings = (int32_t)r.error.manager.num_warnings;
    jpeg_destroy_decompress(&r.info);
}
