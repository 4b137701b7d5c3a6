/*
 * HEIF and AVIF metadata: the primary image's first Exif item, as TIFF bytes for the EXIF facts and
 * captions, and its first XMP item (a "mime" item of type application/rdf+xml), parsed into the records. The item starts with a 4-byte offset from its own start (after those 4 bytes) to the TIFF
 * header, usually past "Exif\0\0". Only the boxes and that item are read.
 */
#include <stdlib.h>
#include <string.h>

#include "heif_format.h"
#include "heif_support.h"
#include "metadata_readers.h"

/* Exif items larger than this are not read (a camera's is a few kilobytes; JPEG's limit is 64 KiB). */
#define MAX_EXIF_ITEM (1u << 20)

static void keep_exif(struct heif_image_handle *primary, wf_metadata *out) {
    heif_item_id id;
    if (heif_image_handle_get_list_of_metadata_block_IDs(primary, "Exif", &id, 1) < 1) return;
    size_t size = heif_image_handle_get_metadata_size(primary, id);
    if (size < 4 || size > MAX_EXIF_ITEM) {
        out->warnings++;
        return;
    }
    uint8_t *bytes = malloc(size);
    if (!bytes) return;
    struct heif_error error = heif_image_handle_get_metadata(primary, id, bytes);
    if (error.code == heif_error_Ok) {
        size_t offset = (size_t)bytes[0] << 24 | (size_t)bytes[1] << 16 | (size_t)bytes[2] << 8 | bytes[3];
        size_t start = 4 + offset;
        /* Some writers point at "Exif\0\0" rather than past it. */
        if (start + 6 <= size && memcmp(bytes + start, "Exif\0\0", 6) == 0) start += 6;
        if (offset <= size - 4 && start < size) wf_metadata_keep(&out->exif, bytes + start, size - start);
        else out->warnings++;
    } else {
        out->warnings++;
    }
    free(bytes);
}

static void take_xmp(struct heif_image_handle *primary, wf_metadata *out) {
    heif_item_id ids[16];
    int count = heif_image_handle_get_list_of_metadata_block_IDs(primary, "mime", ids, 16);
    for (int i = 0; i < count; i++) {
        const char *type = heif_image_handle_get_metadata_content_type(primary, ids[i]);
        if (!type || strcmp(type, "application/rdf+xml") != 0) continue;
        size_t size = heif_image_handle_get_metadata_size(primary, ids[i]);
        if (size > WF_XMP_EMBEDDED_MAX) {
            wf_records_say(&out->records, WF_RECORD_XMP, WF_RECORD_REFUSED, "it is larger than 1 MiB (%zu bytes)", size);
            return;
        }
        uint8_t *bytes = malloc(size ? size : 1);
        if (!bytes) return;
        struct heif_error error = heif_image_handle_get_metadata(primary, ids[i], bytes);
        if (error.code == heif_error_Ok) wf_metadata_take_xmp(out, bytes, size);
        else out->warnings++;
        free(bytes);
        return;
    }
}

void wf_read_heif_metadata(wf_stream *stream, wf_metadata *out) {
    wf_heif heif;
    struct heif_error error;
    if (wf_heif_open(&heif, stream, 0, &error) != 0) {
        char text[200];
        wf_status status;
        wf_heif_describe(&heif, error, out->format == WF_FORMAT_AVIF ? "AVIF" : "HEIF", text, sizeof text, &status);
        wf_metadata_fail(out, status, "%s", text);
    } else {
        keep_exif(heif.primary, out);
        take_xmp(heif.primary, out);
    }
    wf_heif_close(&heif);
}
