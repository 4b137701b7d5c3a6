/*
 * JPEG metadata: the whole TIFF structure of the first Exif APP1, the first XMP APP1 and the APP13
 * "Photoshop 3.0" segments (IPTC), read with jpeg_read_header over the
 * shared block source (so every other segment is skipped by seeking) up to SOS. Nothing is decoded.
 */
#include <stdlib.h>
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
    uint8_t *xmp; /* the first XMP packet (one APP1 holds at most 65,504 bytes of it) */
    size_t xmp_length;
    uint8_t *ps3; /* the APP13 "Photoshop 3.0" payloads, joined (the header kept once) */
    size_t ps3_length;
    int ps3_refused;
} reader;

static const uint8_t xmp_header[29] = "http://ns.adobe.com/xap/1.0/";
static const uint8_t ps3_header[14] = "Photoshop 3.0";
enum { PS3_MAX = 256 * 1024 + 1024 };

/* An XMP APP1's packet (`length` bytes after its header) into r->xmp, whole or not at all. */
static void keep_xmp(j_decompress_ptr info, reader *r, size_t length) {
    if (r->xmp != NULL || !(r->xmp = malloc(length ? length : 1))) {
        wf_jpeg_take(info, NULL, length);
        return;
    }
    wf_jpeg_take(info, r->xmp, length);
    r->xmp_length = length;
}

/* Each APP13 that is a Photoshop one, after the first's header: the 8BIM resources may go on in the next. */
static boolean read_app13(j_decompress_ptr info) {
    reader *r = (reader *)info->client_data;
    uint8_t length_bytes[2];
    wf_jpeg_take(info, length_bytes, 2);
    long length = ((long)length_bytes[0] << 8 | length_bytes[1]) - 2;
    if (length <= 0) return TRUE;
    uint8_t header[sizeof ps3_header];
    if (length < (long)sizeof header) {
        wf_jpeg_take(info, NULL, (size_t)length);
        return TRUE;
    }
    wf_jpeg_take(info, header, sizeof header);
    size_t rest = (size_t)length - sizeof header;
    if (memcmp(header, ps3_header, sizeof header) != 0 || r->ps3_refused) {
        wf_jpeg_take(info, NULL, rest);
        return TRUE;
    }
    size_t start = r->ps3_length ? r->ps3_length : sizeof header;
    uint8_t *grown = start + rest <= PS3_MAX ? realloc(r->ps3, start + rest) : NULL;
    if (!grown) {
        r->ps3_refused = 1;
        wf_jpeg_take(info, NULL, rest);
        return TRUE;
    }
    r->ps3 = grown;
    memcpy(r->ps3, ps3_header, sizeof header);
    wf_jpeg_take(info, r->ps3 + start, rest);
    r->ps3_length = start + rest;
    return TRUE;
}

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
    if (length < (long)sizeof exif_header) {
        wf_jpeg_take(info, NULL, (size_t)length);
        return TRUE;
    }
    uint8_t header[sizeof exif_header];
    wf_jpeg_take(info, header, sizeof header);
    size_t total = (size_t)length - sizeof header;
    if (memcmp(header, xmp_header, sizeof header) == 0 && total >= sizeof xmp_header - sizeof header) {
        uint8_t tail[sizeof xmp_header - sizeof header];
        wf_jpeg_take(info, tail, sizeof tail);
        total -= sizeof tail;
        if (memcmp(tail, xmp_header + sizeof header, sizeof tail) == 0) keep_xmp(info, r, total);
        else wf_jpeg_take(info, NULL, total);
        return TRUE;
    }
    if (r->saw_exif || memcmp(header, exif_header, sizeof header) != 0) {
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
    jpeg_set_marker_processor(&r->info, JPEG_APP0 + 13, read_app13);
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
    /* Parsed once the reading is over (whole segments only, even when a later one failed). */
    if (r.xmp && r.xmp_length) wf_metadata_take_xmp(out, r.xmp, r.xmp_length);
    if (r.ps3_refused) wf_records_say(&out->records, WF_RECORD_IPTC, WF_RECORD_REFUSED, "its APP13 segments are larger than 256 KiB");
    else if (r.ps3) wf_read_ps3_iptc(r.ps3, r.ps3_length, &out->records);
    free(r.xmp);
    free(r.ps3);
}
