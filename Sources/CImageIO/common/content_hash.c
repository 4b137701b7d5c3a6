/*
 * A 128-bit content hash (two FNV-1a 64 lanes with different seeds, over 8-byte words), for recognising a
 * photo in a cache restored on another machine, where modification times differ, for checking that a
 * cached image is the one its entry describes, and for proving that a file in the output is the one
 * Waterfall wrote. Not a cryptographic hash: it guards against accidents and planted files, not against
 * someone who can also write the records that hold the hashes. In keyed mode, keyed BLAKE2b takes its
 * place (keyed_hash.c, through ContentHasher), and the records carry MACs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cimageio.h"
#include "content_hash.h"

static const uint64_t prime = 0x100000001b3ull;

void wf_hash_start(wf_hash_state *h) {
    h->a = 0xcbf29ce484222325ull;
    h->b = 0x84222325cbf29ce4ull;
    h->length = 0;
}

/* Words are taken from the start of each call's bytes: callers feed whole blocks, so the words of a file
 * are the same whichever way it is read, as long as every block but the last is a multiple of 8 bytes. */
void wf_hash_update(wf_hash_state *h, const uint8_t *bytes, size_t n) {
    uint64_t a = h->a, b = h->b;
    size_t words = n / 8, i = 0;
    for (; i < words; i++) {
        uint64_t w;
        memcpy(&w, bytes + i * 8, 8);
        a = (a ^ w) * prime;
        b = (b ^ (w >> 32 | w << 32)) * prime;
        b ^= b >> 29;
    }
    for (size_t j = i * 8; j < n; j++) {
        a = (a ^ bytes[j]) * prime;
        b = (b ^ (uint64_t)bytes[j] << 7) * prime;
    }
    h->a = a;
    h->b = b;
    h->length += n;
}

void wf_hash_finish(const wf_hash_state *h, uint64_t hash[2]) {
    hash[0] = h->a ^ h->length;
    hash[1] = h->b ^ (h->length * prime);
}

void wf_hash_bytes(const uint8_t *bytes, size_t length, uint64_t hash[2]) {
    wf_hash_state h;
    wf_hash_start(&h);
    wf_hash_update(&h, bytes, length);
    wf_hash_finish(&h, hash);
}

int wf_hash_fd(int fd, uint64_t hash[2]) {
    enum { BLOCK = 1 << 20 };
    uint8_t *block = malloc(BLOCK);
    if (!block) return -1;
    wf_hash_state h;
    wf_hash_start(&h);
    uint64_t offset = 0;
    for (;;) {
        /* Fill the block completely (short reads happen), so block boundaries fall on word boundaries. */
        size_t filled = 0;
        while (filled < BLOCK) {
            ssize_t n = pread(fd, block + filled, BLOCK - filled, (off_t)(offset + filled));
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                free(block);
                return -1;
            }
            if (n == 0) break;
            filled += (size_t)n;
        }
        wf_hash_update(&h, block, filled);
        offset += filled;
        if (filled < BLOCK) break;
    }
    free(block);
    wf_hash_finish(&h, hash);
    return 0;
}
