#define _GNU_SOURCE
#include "readers.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void wf_fail(wf_header *out, wf_status status, const char *format, ...) {
    out->status = status;
    va_list args;
    va_start(args, format);
    vsnprintf(out->message, sizeof out->message, format, args);
    va_end(args);
}

static void fail_errno(wf_header *out, const char *what, int error) {
    char text[128];
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
    const char *described = strerror_r(error, text, sizeof text);
#else
    const char *described = strerror_r(error, text, sizeof text) == 0 ? text : "unknown error";
#endif
    wf_fail(out, WF_ERR_IO, "%s: %s", what, described);
}

static void read_stream(wf_stream *stream, wf_header *out) {
    const uint8_t *first;
    size_t length = wf_stream_peek(stream, &first);
    if (stream->read_errno != 0) {
        fail_errno(out, "cannot read", stream->read_errno);
        return;
    }
    out->magic_length = length < sizeof out->magic ? (uint32_t)length : (uint32_t)sizeof out->magic;
    memcpy(out->magic, first, out->magic_length);
    if (length == 0) {
        wf_fail(out, WF_ERR_EMPTY, "empty file");
        return;
    }
    out->format = wf_sniff(first, length);
    switch (out->format) {
    case WF_FORMAT_JPEG: wf_read_jpeg_header(stream, out); break;
    case WF_FORMAT_PNG: wf_read_png_header(stream, out); break;
    default: out->status = WF_ERR_UNSUPPORTED; break; /* the caller names the format */
    }
    if (out->status == WF_OK && stream->read_errno != 0) fail_errno(out, "cannot read", stream->read_errno);
    out->bytes_read = stream->bytes_read;
}

static void reset(wf_header *out) {
    memset(out, 0, sizeof *out);
    out->orientation = 1;
}

void wf_read_header_memory(const uint8_t *bytes, size_t length, wf_header *out) {
    reset(out);
    wf_stream stream;
    wf_stream_init_memory(&stream, bytes, length);
    read_stream(&stream, out);
}

void wf_read_header_path(const char *path, wf_header *out) {
    reset(out);
    /* O_NONBLOCK: a FIFO must not hang the build. No fstat up front: a directory fails the first read
     * with EISDIR, and only an empty read needs a look at what the file is. */
    int fd;
    do {
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        fail_errno(out, "cannot open", errno);
        return;
    }
    wf_stream stream;
    wf_stream_init_fd(&stream, fd);
    read_stream(&stream, out);
    struct stat info;
    if (stream.read_errno == EISDIR) {
        wf_fail(out, WF_ERR_DIRECTORY, "is a directory");
    } else if (out->status == WF_ERR_EMPTY && fstat(fd, &info) == 0 && !S_ISREG(info.st_mode)) {
        wf_fail(out, WF_ERR_IO, "not a regular file");
    }
    close(fd);
}
