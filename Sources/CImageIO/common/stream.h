/* A byte source over a file descriptor or a memory buffer, read in small blocks, with a seeking skip. */
#ifndef WF_STREAM_H
#define WF_STREAM_H

#include <stddef.h>
#include <stdint.h>

#define WF_STREAM_BLOCK 4096

typedef struct {
    int fd;                       /* -1 when reading memory */
    uint64_t offset;              /* file position of the next block: reads are pread, so a skip is free */
    int positional;               /* 0 once pread failed (a pipe): then read() and read-through skips */
    const uint8_t *memory;
    size_t memory_length;
    size_t memory_position;
    const uint8_t *cursor;        /* unread part of the current block */
    size_t available;
    uint64_t bytes_read;          /* what the reader actually fetched */
    int read_errno;               /* a read() failure, reported as an I/O error */
    uint64_t block_offset;        /* file position and length of what `block` holds (pread only), so */
    size_t block_length;          /* positional reads inside it cost no second read */
    uint8_t block[WF_STREAM_BLOCK];
} wf_stream;

void wf_stream_init_fd(wf_stream *s, int fd);
void wf_stream_init_memory(wf_stream *s, const uint8_t *bytes, size_t length);

/* The unread bytes of the current block, fetching one if none are left; 0 at the end. Does not consume. */
size_t wf_stream_peek(wf_stream *s, const uint8_t **bytes);

/* Hands over the rest of the current block (or a fresh one); 0 at the end of the data. */
size_t wf_stream_next(wf_stream *s, const uint8_t **bytes);

/* Copies exactly `length` bytes; returns how many it could (fewer only at the end). */
size_t wf_stream_read(wf_stream *s, uint8_t *destination, size_t length);

/* Skips `length` bytes without reading them where the source can seek. */
void wf_stream_skip(wf_stream *s, uint64_t length);

/* ---- random access, for libraries that read at positions (libheif) or want the whole file (libwebp) ---- */

/* The source's size in bytes; -1 when it has none (a pipe). */
int64_t wf_stream_size(wf_stream *s);

/* Copies up to `length` bytes at absolute `offset`, apart from the block cursor (from the block when it
 * holds them: the first block a sniffer read serves a reader's first reads); returns how many (fewer only
 * at the end, or on a read error, which sets read_errno). */
size_t wf_stream_read_at(wf_stream *s, uint64_t offset, uint8_t *destination, size_t length);

/* The whole source in a new malloc'd buffer (the caller frees it); NULL when it is larger than `limit`
 * (then *length is its size), when memory runs out, or on a read error. */
uint8_t *wf_stream_slurp(wf_stream *s, size_t limit, size_t *length);

#endif
