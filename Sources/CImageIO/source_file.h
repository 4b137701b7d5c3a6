/* Internal: opening a photo for the readers. */
#ifndef WF_SOURCE_FILE_H
#define WF_SOURCE_FILE_H

#include <stddef.h>

#include "stream.h"

/* open(2) for reading, retried on EINTR. O_NONBLOCK so that a FIFO cannot hang a build: it reads as empty
 * and `wf_source_problem` names it. -1 with errno set on failure. */
int wf_open_source(const char *path);

/* strerror's text for `error`, thread-safely (in `text` or a static string). */
const char *wf_describe_errno(int error, char *text, size_t size);

/* What is wrong with the file behind `fd` after a read that failed or found nothing: "is a directory"
 * (no fstat up front: a folder fails the first read with EISDIR), "not a regular file" (only an empty
 * read needs a look), or NULL when it is an ordinary file. */
const char *wf_source_problem(const wf_stream *stream, int fd, int read_nothing);

/* A library message with its first letter lowercased (not an acronym's), for "corrupt JPEG: ..." style
 * messages. */
void wf_lowercase_first(char *text);

#endif
