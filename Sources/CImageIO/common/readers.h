/* Internal: the pieces wf_read_header_* is built from. */
#ifndef WF_READERS_H
#define WF_READERS_H

#include <string.h>

#include "cimageio.h"
#include "stream.h"

wf_format wf_sniff(const uint8_t *bytes, size_t length);

/* Whether `bytes` (`length` of them) start with the string literal `prefix`: a sniff's test. */
#define WF_STARTS_WITH(bytes, length, prefix) \
    ((length) >= sizeof(prefix) - 1 && memcmp((bytes), (prefix), sizeof(prefix) - 1) == 0)

/* Sets status and a printf-style message. */
void wf_fail(wf_header *out, wf_status status, const char *format, ...) __attribute__((format(printf, 3, 4)));

/* Writes a printf-style reason into `reason` (`size` bytes) and returns `status`: for checks that say why
 * before their caller knows whether it fails a header or a decode. */
wf_status wf_refuse(char *reason, size_t size, wf_status status, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

#endif
