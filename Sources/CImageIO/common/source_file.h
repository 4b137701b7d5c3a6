/* Internal: opening a photo for the readers. */
#ifndef WF_SOURCE_FILE_H
#define WF_SOURCE_FILE_H

#include <stddef.h>

#include "stream.h"

/* Why a source could not be opened. */
typedef struct {
    int is_directory;
    char reason[160]; /* "cannot open: No such file or directory", "is a directory", "not a regular file (a FIFO)" */
} wf_source_failure;

/* open(2) for reading, retried on EINTR, with O_NONBLOCK so that opening a FIFO cannot block; then anything
 * but a regular file is refused (a FIFO or a device would hang a read or never end). -1 on failure, with
 * `failure` filled in. */
int wf_open_source(const char *path, wf_source_failure *failure);

/* strerror's text for `error`, thread-safely (in `text` or a static string). */
const char *wf_describe_errno(int error, char *text, size_t size);

/* A library message with its first letter lowercased (not an acronym's), for "corrupt JPEG: ..." style
 * messages. */
void wf_lowercase_first(char *text);

#endif
