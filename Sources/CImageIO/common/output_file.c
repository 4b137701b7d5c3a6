/* The encoders' output in memory, and the one place C code saves it to a file (for the path wrappers). */
#define _GNU_SOURCE
#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source_file.h"

wf_derive_status wf_output_errno(char *message, size_t size, const char *what, int error) {
    char text[128];
    snprintf(message, size, "%s: %s", what, wf_describe_errno(error, text, sizeof text));
    return WF_DERIVE_ERR_WRITE;
}

void wf_encoded_free(wf_encoded *encoded) {
    free(encoded->bytes);
    encoded->bytes = NULL;
    encoded->length = 0;
}

int wf_output_open(wf_output_stream *stream) {
    stream->buffer = NULL;
    stream->size = 0;
    stream->file = open_memstream(&stream->buffer, &stream->size);
    return stream->file ? 0 : -1;
}

wf_derive_status wf_output_close(wf_output_stream *stream, wf_encoded *out, wf_derive_status status, char *message,
                                 size_t size) {
    int closed = fclose(stream->file) == 0;
    stream->file = NULL;
    if (status == WF_DERIVE_OK && !closed) {
        snprintf(message, size, "out of memory");
        status = WF_DERIVE_ERR_LIMIT;
    }
    if (status != WF_DERIVE_OK) {
        free(stream->buffer);
    } else {
        wf_encoded_free(out);
        out->bytes = (uint8_t *)stream->buffer;
        out->length = stream->size;
    }
    stream->buffer = NULL;
    stream->size = 0;
    return status;
}

wf_derive_status wf_output_keep(wf_encoded *out, const uint8_t *bytes, size_t length, char *message, size_t size) {
    uint8_t *copy = malloc(length ? length : 1);
    if (!copy) {
        snprintf(message, size, "out of memory");
        return WF_DERIVE_ERR_LIMIT;
    }
    memcpy(copy, bytes, length);
    wf_encoded_free(out);
    out->bytes = copy;
    out->length = length;
    return WF_DERIVE_OK;
}

wf_derive_status wf_output_save(const char *path, const wf_encoded *encoded, char *message, size_t size) {
    int fd;
    do {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        wf_output_errno(message, size, "cannot create the output", errno);
        return WF_DERIVE_ERR_SAVE;
    }
    size_t done = 0;
    while (done < encoded->length) {
        ssize_t n = write(fd, encoded->bytes + done, encoded->length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += (size_t)n;
    }
    int error = errno;
    if (close(fd) != 0 && done == encoded->length) {
        done = 0;
        error = errno;
    }
    if (done == encoded->length) return WF_DERIVE_OK;
    unlink(path);
    wf_output_errno(message, size, "cannot write the output", error);
    return WF_DERIVE_ERR_SAVE;
}
