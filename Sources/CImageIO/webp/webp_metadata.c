/*
 * WebP metadata: the TIFF structure of the first EXIF chunk and the first "XMP " chunk's packet of a VP8X file, found by walking chunk headers
 * (every other payload, the image data included, skipped by seeking). Some writers put JPEG's "Exif\0\0"
 * before the TIFF header, against the container specification; it is taken off. A simple (VP8 or VP8L) file
 * cannot carry metadata. WebP has no text chunks, so `description` and `title` stay empty (an EXIF
 * ImageDescription still reaches the captions through the EXIF facts).
 */
#include <stdlib.h>
#include <string.h>

#include "metadata_readers.h"
#include "webp_format.h"
#include "webp_support.h"

/* An EXIF chunk over this is skipped unread (with a warning), as png_metadata.c skips a huge eXIf: a real one
 * comes from a JPEG APP1 and fits in 64 KiB. */
enum { EXIF_MAX = 64 * 1024 + 6 };

static const uint8_t exif_prefix[6] = {'E', 'x', 'i', 'f', 0, 0};

static void fail_walk(wf_metadata *out, const wf_webp_walk *walk, int status) {
    if (status == WF_WEBP_WALK_TRUNCATED) wf_metadata_fail(out, WF_ERR_TRUNCATED, "truncated WebP: %s", walk->message);
    else if (status == WF_WEBP_WALK_TOO_MANY) wf_metadata_fail(out, WF_ERR_UNSUPPORTED, "unsupported WebP: %s", walk->message);
    else wf_metadata_fail(out, WF_ERR_CORRUPT, "corrupt WebP: %s", walk->message);
}

/* The current (EXIF) chunk's payload into the field; only once it is whole, so a cut one is not handed out. */
static int keep_exif(wf_webp_walk *walk, wf_metadata_field *field) {
    size_t total = walk->size, skipped = 0;
    uint8_t start[sizeof exif_prefix];
    if (total >= sizeof start) {
        int status = wf_webp_walk_payload(walk, start, sizeof start);
        if (status != 0) return status;
        skipped = memcmp(start, exif_prefix, sizeof start) == 0 ? sizeof start : 0;
    }
    total -= skipped;
    size_t keep = field->bytes == NULL ? 0 : total < field->capacity ? total : field->capacity;
    size_t have = skipped ? 0 : total < sizeof start ? 0 : sizeof start; /* `start` was TIFF, not a prefix */
    if (keep > 0) {
        size_t from_start = have < keep ? have : keep;
        memcpy(field->bytes, start, from_start);
        int status = keep > have ? wf_webp_walk_payload(walk, field->bytes + have, keep - have) : 0;
        if (status != 0) return status;
    }
    field->length = keep;
    field->total = total;
    return 0;
}

/* The current ("XMP ") chunk's packet, parsed; one over the limit is refused unread. */
static int take_xmp(wf_webp_walk *walk, wf_metadata *out) {
    if (walk->size > WF_XMP_EMBEDDED_MAX) {
        wf_records_say(&out->records, WF_RECORD_XMP, WF_RECORD_REFUSED, "it is larger than 1 MiB (%llu bytes)",
                       (unsigned long long)walk->size);
        return 0;
    }
    uint8_t *packet = malloc(walk->size ? walk->size : 1);
    if (!packet) return 0;
    int status = wf_webp_walk_payload(walk, packet, walk->size);
    if (status == 0) wf_metadata_take_xmp(out, packet, walk->size);
    free(packet);
    return status;
}

void wf_read_webp_metadata(wf_stream *stream, wf_metadata *out) {
    wf_webp_walk walk;
    int status = wf_webp_walk_begin(&walk, stream);
    if (status != 0) {
        fail_walk(out, &walk, status);
        return;
    }
    status = wf_webp_walk_next(&walk);
    if (status == WF_WEBP_WALK_CHUNK && memcmp(walk.tag, "VP8X", 4) != 0) return; /* a simple file: no metadata */
    int saw_exif = 0, saw_xmp = 0;
    while (status == WF_WEBP_WALK_CHUNK && !(saw_exif && saw_xmp)) {
        if (!saw_exif && memcmp(walk.tag, "EXIF", 4) == 0) {
            if (walk.size > EXIF_MAX) out->warnings++;
            else if ((status = keep_exif(&walk, &out->exif)) != 0) break;
            saw_exif = 1;
        } else if (!saw_xmp && memcmp(walk.tag, "XMP ", 4) == 0) {
            saw_xmp = 1;
            if ((status = take_xmp(&walk, out)) != 0) break;
        }
        status = wf_webp_walk_next(&walk);
    }
    /* Once the EXIF is read, damage further on is the decoder's to find, as before XMP was looked for. */
    if (status != WF_WEBP_WALK_END && status != WF_WEBP_WALK_CHUNK && !saw_exif) fail_walk(out, &walk, status);
}
