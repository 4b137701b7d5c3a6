/* Internal: where an encoder puts its bytes. Encoders write into memory; the caller (Swift, in the build
 * process) writes the file, so that every file Waterfall creates is created in one place, by folder handles
 * that never follow links, and a full disk is seen there as what it is. */
#ifndef WF_OUTPUT_FILE_H
#define WF_OUTPUT_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cimageio.h"

/* A growing buffer behind a FILE (open_memstream), for encoders that write to a stream. */
typedef struct {
    FILE *file;
    char *buffer;
    size_t size;
} wf_output_stream;

/* 0, or -1 with errno set (out of memory). */
int wf_output_open(wf_output_stream *stream);

/* Closes the stream; on success its bytes become `out`'s (replacing what it held), else they are freed and
 * the status and message say why (out of memory is a limit, never a write error). */
wf_derive_status wf_output_close(wf_output_stream *stream, wf_encoded *out, wf_derive_status status, char *message,
                                 size_t size);

/* A copy of an encoder's own buffer as `out`. */
wf_derive_status wf_output_keep(wf_encoded *out, const uint8_t *bytes, size_t length, char *message, size_t size);

/* `encoded` as the new file `path` (O_EXCL, O_NOFOLLOW: nothing already there is written through or
 * replaced), removed again when it cannot be written whole (WF_DERIVE_ERR_SAVE): for the path-based wrappers
 * that tests use. */
wf_derive_status wf_output_save(const char *path, const wf_encoded *encoded, char *message, size_t size);

/* "what: strerror(error)" into `message`; returns WF_DERIVE_ERR_WRITE. */
wf_derive_status wf_output_errno(char *message, size_t size, const char *what, int error);

#endif
