/*
 * The records list of wf_metadata (cimageio.h): what XMP and IPTC say, as entries Swift decodes
 * (Imaging/MetadataRecords.swift). An entry that does not fit is left out whole, never cut.
 */
#include "metadata_readers.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void wf_records_add(wf_metadata_field *records, uint8_t source, uint8_t field, const void *bytes, size_t length) {
    if (length > UINT32_MAX) return;
    size_t size = sizeof(wf_metadata_record) + length;
    if (records->bytes != NULL && records->capacity - records->length >= size) {
        wf_metadata_record header = {source, field, 0, (uint32_t)length};
        memcpy(records->bytes + records->length, &header, sizeof header);
        if (length) memcpy(records->bytes + records->length + sizeof header, bytes, length);
        records->length += size;
    }
    records->total += size;
}

void wf_records_say(wf_metadata_field *records, uint8_t source, uint8_t field, const char *format, ...) {
    char text[200];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(text, sizeof text, format, args);
    va_end(args);
    if (n < 0) return;
    wf_records_add(records, source, field, text, strlen(text));
}

void wf_metadata_take_xmp(wf_metadata *out, const uint8_t *bytes, size_t length) {
    wf_read_xmp_memory(bytes, length, WF_XMP_EMBEDDED_MAX, &out->records);
}
