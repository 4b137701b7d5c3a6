/*
 * Keyed mode's cryptography (cimageio_keyed.h): libsodium's keyed BLAKE2b and key derivation, behind a
 * few calls that take and give plain bytes. The states are copied into aligned locals before libsodium
 * sees them: the caller keeps them in memory of any alignment.
 */
#include <errno.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cimageio_keyed.h"

_Static_assert(sizeof(crypto_generichash_state) <= WF_MAC_STATE_BYTES, "a MAC state must fit its bytes");
_Static_assert(WF_TAG_BYTES >= crypto_generichash_BYTES_MIN, "BLAKE2b's shortest output");
_Static_assert(WF_KEY_BYTES == crypto_kdf_KEYBYTES, "the master key is a crypto_kdf key");
_Static_assert(WF_KEY_BYTES <= crypto_generichash_KEYBYTES_MAX, "a subkey keys BLAKE2b");

int wf_crypto_ready(void) { return sodium_init() < 0 ? -1 : 0; }

int wf_key_derive(uint8_t subkey[WF_KEY_BYTES], uint64_t id, const uint8_t master[WF_KEY_BYTES]) {
    return crypto_kdf_derive_from_key(subkey, WF_KEY_BYTES, id, "wfrecord", master);
}

void wf_mac_prepare(uint8_t state[WF_MAC_STATE_BYTES], const uint8_t key[WF_KEY_BYTES]) {
    crypto_generichash_state s;
    crypto_generichash_init(&s, key, WF_KEY_BYTES, WF_TAG_BYTES);
    memset(state, 0, WF_MAC_STATE_BYTES);
    memcpy(state, &s, sizeof s);
    sodium_memzero(&s, sizeof s);
}

void wf_mac_update(uint8_t state[WF_MAC_STATE_BYTES], const uint8_t *a, size_t a_length, const uint8_t *b,
                   size_t b_length) {
    crypto_generichash_state s;
    memcpy(&s, state, sizeof s);
    if (a_length) crypto_generichash_update(&s, a, a_length);
    if (b_length) crypto_generichash_update(&s, b, b_length);
    memcpy(state, &s, sizeof s);
    sodium_memzero(&s, sizeof s);
}

void wf_mac_final(const uint8_t state[WF_MAC_STATE_BYTES], uint8_t tag[WF_TAG_BYTES]) {
    crypto_generichash_state s;
    memcpy(&s, state, sizeof s);
    crypto_generichash_final(&s, tag, WF_TAG_BYTES);
    sodium_memzero(&s, sizeof s);
}

void wf_mac_two(const uint8_t prepared[WF_MAC_STATE_BYTES], const uint8_t *a, size_t a_length, const uint8_t *b,
                size_t b_length, uint8_t tag[WF_TAG_BYTES]) {
    crypto_generichash_state s;
    memcpy(&s, prepared, sizeof s);
    if (a_length) crypto_generichash_update(&s, a, a_length);
    if (b_length) crypto_generichash_update(&s, b, b_length);
    crypto_generichash_final(&s, tag, WF_TAG_BYTES);
    sodium_memzero(&s, sizeof s);
}

int wf_mac_check(const uint8_t prepared[WF_MAC_STATE_BYTES], const uint8_t *a, size_t a_length, const uint8_t *b,
                 size_t b_length, const uint8_t tag[WF_TAG_BYTES]) {
    uint8_t computed[WF_TAG_BYTES];
    wf_mac_two(prepared, a, a_length, b, b_length, computed);
    return wf_tag_equal(computed, tag);
}

int wf_tag_equal(const uint8_t a[WF_TAG_BYTES], const uint8_t b[WF_TAG_BYTES]) {
    return crypto_verify_16(a, b) == 0;
}

int wf_mac_fd(const uint8_t prepared[WF_MAC_STATE_BYTES], int fd, uint8_t tag[WF_TAG_BYTES]) {
    enum { BLOCK = 1 << 20 };
    uint8_t *block = malloc(BLOCK);
    if (!block) return -1;
    crypto_generichash_state s;
    memcpy(&s, prepared, sizeof s);
    off_t offset = 0;
    for (;;) {
        ssize_t n = pread(fd, block, BLOCK, offset);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            free(block);
            sodium_memzero(&s, sizeof s);
            return -1;
        }
        if (n == 0) break;
        crypto_generichash_update(&s, block, (unsigned long long)n);
        offset += n;
    }
    free(block);
    crypto_generichash_final(&s, tag, WF_TAG_BYTES);
    sodium_memzero(&s, sizeof s);
    return 0;
}
