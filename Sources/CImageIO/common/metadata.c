/*
 * Photo metadata for EXIF facts and captions: the entry points. Sniffs the format, then hands the stream
 * to the JPEG or PNG reader; both stop where the pixel data begins.
 */
#define _GNU_SOURCE
#include "formats.h"
#include "metadata_readers.h"
#include "readers.h"
#include "source_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void wf_metadata_fail(wf_metadata *out, wf_status status, const char *format, ...) {
    out->status = status;
    va_list args;
    va_start(args, format);
    vsnprintf(out->message, sizeof out->message, format, args);
    va_end(args);
}

void wf_metadata_keep(wf_metadata_field *field, const uint8_t *bytes, size_t length) {
    size_t n = field->bytes == NULL ? 0 : length < field->capacity ? length : field->capacity;
    if (n > 0) memcpy(field->bytes, bytes, n);
    field->length = n;
    field->total = length;
}

static void fail_errno(wf_metadata *out, const char *what, int error) {
    char text[128];
    wf_metadata_fail(out, WF_ERR_IO, "%s: %s", what, wf_describe_errno(error, text, sizeof text));
}

/* Keeps the caller's buffers, forgets everything a previous read wrote. */
static void reset(wf_metadata *out) {
    wf_metadata_field *fields[] = {&out->exif, &out->description, &out->title, &out->records};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) fields[i]->length = fields[i]->total = 0;
    out->status = WF_OK;
    out->format = WF_FORMAT_UNKNOWN;
    out->warnings = 0;
    out->message[0] = '\0';
}

static void read_stream(wf_stream *stream, wf_metadata *out) {
    const uint8_t *first;
    size_t length = wf_stream_peek(stream, &first);
    if (stream->read_errno != 0) {
        fail_errno(out, "cannot read", stream->read_errno);
        return;
    }
    if (length == 0) {
        wf_metadata_fail(out, WF_ERR_EMPTY, "empty file");
        return;
    }
    out->format = wf_sniff(first, length);
    const wf_format_entry *entry = wf_format_entry_of(out->format);
    if (!entry) wf_metadata_fail(out, WF_ERR_UNSUPPORTED, "not a format Waterfall reads");
    else if (entry->read_metadata) entry->read_metadata(stream, out); /* else none in the format (GIF): nothing to read */
    if (out->status == WF_OK && stream->read_errno != 0) fail_errno(out, "cannot read", stream->read_errno);
}

void wf_read_metadata_memory(const uint8_t *bytes, size_t length, wf_metadata *metadata) {
    reset(metadata);
    wf_stream stream;
    wf_stream_init_memory(&stream, bytes, length);
    read_stream(&stream, metadata);
}

void wf_read_metadata_fd(int fd, wf_metadata *metadata) {
    reset(metadata);
    wf_stream stream;
    wf_stream_init_fd(&stream, fd);
    read_stream(&stream, metadata);
}

void wf_read_metadata_path(const char *path, wf_metadata *metadata) {
    reset(metadata);
    wf_source_failure failure;
    int fd = wf_open_source(path, &failure);
    if (fd < 0) {
        wf_metadata_fail(metadata, failure.is_directory ? WF_ERR_DIRECTORY : WF_ERR_IO, "%s", failure.reason);
        return;
    }
    wf_read_metadata_fd(fd, metadata);
    close(fd);
}
