#define _GNU_SOURCE
#include "formats.h"
#include "readers.h"
#include "source_file.h"

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

wf_status wf_refuse(char *reason, size_t size, wf_status status, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(reason, size, format, args);
    va_end(args);
    return status;
}

static void fail_errno(wf_header *out, const char *what, int error) {
    char text[128];
    wf_fail(out, WF_ERR_IO, "%s: %s", what, wf_describe_errno(error, text, sizeof text));
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
    const wf_format_entry *entry = wf_format_entry_of(out->format);
    if (entry) entry->read_header(stream, out);
    else out->status = WF_ERR_UNSUPPORTED; /* the caller names the format */
    if (out->status == WF_OK && stream->read_errno != 0) fail_errno(out, "cannot read", stream->read_errno);
    out->bytes_read = stream->bytes_read;
}

static void reset(wf_header *out) {
    memset(out, 0, sizeof *out);
    out->orientation = 1;
    out->frames = 1;
}

void wf_read_header_memory(const uint8_t *bytes, size_t length, wf_header *out) {
    reset(out);
    wf_stream stream;
    wf_stream_init_memory(&stream, bytes, length);
    read_stream(&stream, out);
}

void wf_read_header_fd(int fd, wf_header *out) {
    reset(out);
    wf_stream stream;
    wf_stream_init_fd(&stream, fd);
    read_stream(&stream, out);
}

void wf_read_header_path(const char *path, wf_header *out) {
    reset(out);
    wf_source_failure failure;
    int fd = wf_open_source(path, &failure);
    if (fd < 0) {
        wf_fail(out, failure.is_directory ? WF_ERR_DIRECTORY : WF_ERR_IO, "%s", failure.reason);
        return;
    }
    wf_read_header_fd(fd, out);
    close(fd);
}
