/* Internal: the file an encoder writes. */
#ifndef WF_OUTPUT_FILE_H
#define WF_OUTPUT_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cimageio.h"

/* A new file for writing at `path`: O_EXCL and O_NOFOLLOW, so nothing already there (a file or a planted
 * link) is written through or replaced. NULL with errno set on failure. */
FILE *wf_create_output(const char *path);

/* An encoded image's `length` bytes as the new file `path` (created as wf_create_output does), removed
 * again when they cannot all be written. */
wf_derive_status wf_write_output(const char *path, const uint8_t *bytes, size_t length, char *message, size_t size);

/* "what: strerror(error)" into `message`; returns WF_DERIVE_ERR_WRITE. */
wf_derive_status wf_output_errno(char *message, size_t size, const char *what, int error);

#endif
