/* Internal: the pieces wf_read_metadata_* is built from. */
#ifndef WF_METADATA_READERS_H
#define WF_METADATA_READERS_H

#include "cimageio.h"
#include "stream.h"

/* Sets status and a printf-style message. */
void wf_metadata_fail(wf_metadata *out, wf_status status, const char *format, ...) __attribute__((format(printf, 3, 4)));

/* Copies as much of `length` bytes as the field holds and records the full length. */
void wf_metadata_keep(wf_metadata_field *field, const uint8_t *bytes, size_t length);

#endif
