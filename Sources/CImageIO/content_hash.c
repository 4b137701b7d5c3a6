/*
 * A 128-bit content hash of a file (two FNV-1a 64 lanes with different seeds, over 8-byte words), for
 * recognising a photo in a cache restored on another machine, where modification times differ. Not a
 * cryptographic hash: it guards against accidents (a changed file), not against an attacker who can write
 * the cache anyway.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cimageio.h"

int wf_hash_file(const char *path, uint64_t hash[2]) {
    int fd;
    do {
        fd = open(path, O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return -1;
    enum { BLOCK = 1 << 20 };
    uint8_t *block = malloc(BLOCK);
    if (!block) {
        close(fd);
        return -1;
    }
    uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull, length = 0;
    const uint64_t prime = 0x100000001b3ull;
    for (;;) {
        ssize_t n = read(fd, block, BLOCK);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            free(block);
            close(fd);
            return -1;
        }
        if (n == 0) break;
        length += (uint64_t)n;
        size_t words = (size_t)n / 8, i = 0;
        for (; i < words; i++) {
            uint64_t w;
            memcpy(&w, block + i * 8, 8);
            a = (a ^ w) * prime;
            b = (b ^ (w >> 32 | w << 32)) * prime;
            b ^= b >> 29;
        }
        for (size_t j = i * 8; j < (size_t)n; j++) {
            a = (a ^ block[j]) * prime;
            b = (b ^ (uint64_t)block[j] << 7) * prime;
        }
    }
    free(block);
    close(fd);
    hash[0] = a ^ length;
    hash[1] = b ^ (length * prime);
    return 0;
}
