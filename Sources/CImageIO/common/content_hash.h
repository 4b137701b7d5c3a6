/* Internal: the content hash (content_hash.c) taken in steps, for code that reads a file's bytes for another
 * purpose and hashes them on the way (the album archive's writer, which proves each original it stores). */
#ifndef WF_CONTENT_HASH_H
#define WF_CONTENT_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t a, b, length;
} wf_hash_state;

void wf_hash_start(wf_hash_state *h);

/* Words are taken from the start of each call's bytes: a file's hash is wf_hash_fd's only when every call but
 * the last is given a multiple of 8 bytes (whole blocks). */
void wf_hash_update(wf_hash_state *h, const uint8_t *bytes, size_t n);

void wf_hash_finish(const wf_hash_state *h, uint64_t hash[2]);

#endif
