/* Opening a photo for any of the readers, and describing what went wrong, in one place. */
#define _GNU_SOURCE
#include "source_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

int wf_open_source(const char *path) {
    int fd;
    do {
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    return fd;
}

const char *wf_describe_errno(int error, char *text, size_t size) {
#if defined(__GLIBC__)
    return strerror_r(error, text, size);
#else
    return strerror_r(error, text, size) == 0 ? text : "unknown error";
#endif
}

const char *wf_source_problem(const wf_stream *stream, int fd, int read_nothing) {
    if (stream->read_errno == EISDIR) return "is a directory";
    struct stat info;
    if (read_nothing && fstat(fd, &info) == 0 && !S_ISREG(info.st_mode)) return "not a regular file";
    return NULL;
}

void wf_lowercase_first(char *text) {
    if (text[0] >= 'A' && text[0] <= 'Z' && !(text[1] >= 'A' && text[1] <= 'Z')) text[0] += 'a' - 'A';
}
