/* Internal: the pieces wf_read_metadata_* is built from. */
#ifndef WF_METADATA_READERS_H
#define WF_METADATA_READERS_H

#include "cimageio.h"
#include "stream.h"

/* Sets status and a printf-style message. */
void wf_metadata_fail(wf_metadata *out, wf_status status, const char *format, ...) __attribute__((format(printf, 3, 4)));

/* Copies as much of `length` bytes as the field holds and records the full length. */
void wf_metadata_keep(wf_metadata_field *field, const uint8_t *bytes, size_t length);

/* Appends one record (wf_metadata_record + bytes) to `records`, or counts it in `total` when it does not fit. */
void wf_records_add(wf_metadata_field *records, uint8_t source, uint8_t field, const void *bytes, size_t length);

/* A printf-style WF_RECORD_REFUSED or WF_RECORD_NOTE record. */
void wf_records_say(wf_metadata_field *records, uint8_t source, uint8_t field, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* An XMP packet found in the file: parsed into out->records (embedded limits). */
void wf_metadata_take_xmp(wf_metadata *out, const uint8_t *bytes, size_t length);

/* The largest IIM stream read (iptc/iim_read.c): a file's container checks it from the declared size first. */
#define WF_IIM_STREAM_MAX (256u * 1024)

/* IPTC IIM from a JPEG's APP13 payload ("Photoshop 3.0\0" and its 8BIM resources, segments joined). */
void wf_read_ps3_iptc(const uint8_t *ps3, size_t length, wf_metadata_field *records);

#endif
