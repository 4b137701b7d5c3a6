/* Internal: the pieces wf_read_header_* is built from. */
#ifndef WF_READERS_H
#define WF_READERS_H

#include "cimageio.h"
#include "stream.h"

wf_format wf_sniff(const uint8_t *bytes, size_t length);

/* Sets status and a printf-style message. */
void wf_fail(wf_header *out, wf_status status, const char *format, ...) __attribute__((format(printf, 3, 4)));

#endif
