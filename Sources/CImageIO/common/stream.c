#include "stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void wf_stream_init_fd(wf_stream *s, int fd) {
    memset(s, 0, offsetof(wf_stream, block));
    s->fd = fd;
    s->positional = 1;
}

void wf_stream_init_memory(wf_stream *s, const uint8_t *bytes, size_t length) {
    memset(s, 0, offsetof(wf_stream, block));
    s->fd = -1;
    s->memory = bytes;
    s->memory_length = length;
}

/* Loads the next block into cursor/available. Memory is served in blocks too, so that bytes_read means
 * the same for both sources. */
static void fetch(wf_stream *s) {
    if (s->fd < 0) {
        size_t left = s->memory_length - s->memory_position;
        size_t n = left < WF_STREAM_BLOCK ? left : WF_STREAM_BLOCK;
        s->cursor = s->memory + s->memory_position;
        s->available = n;
        s->memory_position += n;
        s->bytes_read += n;
        return;
    }
    ssize_t n;
    uint64_t at = s->offset;
    do {
        n = s->positional ? pread(s->fd, s->block, sizeof s->block, (off_t)s->offset)
                          : read(s->fd, s->block, sizeof s->block);
    } while (n < 0 && errno == EINTR);
    if (n < 0 && errno == ESPIPE && s->positional) {
        s->positional = 0;
        fetch(s);
        return;
    }
    if (n < 0) {
        s->read_errno = errno;
        n = 0;
    }
    s->cursor = s->block;
    s->available = (size_t)n;
    s->block_offset = at;
    s->block_length = s->positional ? (size_t)n : 0;
    s->bytes_read += (uint64_t)n;
    s->offset += (uint64_t)n;
}

size_t wf_stream_peek(wf_stream *s, const uint8_t **bytes) {
    if (s->available == 0 && s->read_errno == 0) fetch(s);
    *bytes = s->cursor;
    return s->available;
}

size_t wf_stream_next(wf_stream *s, const uint8_t **bytes) {
    size_t n = wf_stream_peek(s, bytes);
    s->cursor += n;
    s->available = 0;
    return n;
}

size_t wf_stream_read(wf_stream *s, uint8_t *destination, size_t length) {
    size_t done = 0;
    while (done < length) {
        const uint8_t *bytes;
        size_t n = wf_stream_peek(s, &bytes);
        if (n == 0) break;
        if (n > length - done) n = length - done;
        memcpy(destination + done, bytes, n);
        s->cursor += n;
        s->available -= n;
        done += n;
    }
    return done;
}

void wf_stream_skip(wf_stream *s, uint64_t length) {
    if (length <= s->available) {
        s->cursor += length;
        s->available -= (size_t)length;
        return;
    }
    length -= s->available;
    s->available = 0;
    if (s->fd < 0) {
        size_t left = s->memory_length - s->memory_position;
        s->memory_position += length < left ? (size_t)length : left;
        return;
    }
    if (s->positional) {
        s->offset = length > UINT64_MAX - s->offset ? UINT64_MAX : s->offset + length;
        if (s->offset > (uint64_t)INT64_MAX) s->offset = (uint64_t)INT64_MAX; /* pread then finds the end */
        return;
    }
    /* A pipe: read through. */
    while (length > 0 && s->read_errno == 0) {
        fetch(s);
        if (s->available == 0) return;
        size_t n = length < s->available ? (size_t)length : s->available;
        s->cursor += n;
        s->available -= n;
        length -= n;
    }
}

int64_t wf_stream_size(wf_stream *s) {
    if (s->fd < 0) return (int64_t)s->memory_length;
    struct stat info;
    if (!s->positional || fstat(s->fd, &info) != 0 || !S_ISREG(info.st_mode)) return -1;
    return (int64_t)info.st_size;
}

size_t wf_stream_read_at(wf_stream *s, uint64_t offset, uint8_t *destination, size_t length) {
    if (s->fd < 0) {
        if (offset >= s->memory_length) return 0;
        size_t n = s->memory_length - (size_t)offset < length ? s->memory_length - (size_t)offset : length;
        memcpy(destination, s->memory + offset, n);
        s->bytes_read += n;
        return n;
    }
    if (offset >= s->block_offset && length <= s->block_length && offset - s->block_offset <= s->block_length - length) {
        memcpy(destination, s->block + (offset - s->block_offset), length);
        return length;
    }
    size_t done = 0;
    while (done < length) {
        ssize_t n = pread(s->fd, destination + done, length - done, (off_t)(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            s->read_errno = errno;
            break;
        }
        if (n == 0) break;
        done += (size_t)n;
    }
    s->bytes_read += done;
    return done;
}

uint8_t *wf_stream_slurp(wf_stream *s, size_t limit, size_t *length) {
    int64_t size = wf_stream_size(s);
    *length = size < 0 ? 0 : (size_t)size;
    if (size < 0 || (uint64_t)size > limit) return NULL;
    uint8_t *bytes = malloc(size > 0 ? (size_t)size : 1);
    if (!bytes) return NULL;
    size_t got = wf_stream_read_at(s, 0, bytes, (size_t)size);
    if (s->read_errno != 0) {
        free(bytes);
        return NULL;
    }
    *length = got; /* a file that shrank meanwhile: what is there */
    return bytes;
}
