#ifndef CIMAGEIO_KEYED_H
#define CIMAGEIO_KEYED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Keyed mode's cryptography, all of it libsodium's: subkeys derived from the user's key (crypto_kdf), and
 * keyed BLAKE2b with a 16-byte output (crypto_generichash) as the MAC of records and as the content hash
 * of files. Nothing here is a primitive of Waterfall's own.
 *
 * A MAC "state" is a keyed BLAKE2b state kept by the caller as plain bytes (WF_MAC_STATE_BYTES, any
 * alignment): prepared once per key, then copied for each message, so a record's MAC costs no pass over
 * the key block.
 */
enum {
    WF_KEY_BYTES = 32,
    WF_TAG_BYTES = 16,
    WF_MAC_STATE_BYTES = 512,
};

/* Makes libsodium ready (once per process, thread-safe). 0 on success. */
int wf_crypto_ready(void);

/* Subkey `id` of `master` (crypto_kdf_derive_from_key, context "wfrecord"). 0 on success. */
int wf_key_derive(uint8_t subkey[WF_KEY_BYTES], uint64_t id, const uint8_t master[WF_KEY_BYTES]);

/* A fresh keyed state for a 16-byte tag. */
void wf_mac_prepare(uint8_t state[WF_MAC_STATE_BYTES], const uint8_t key[WF_KEY_BYTES]);

/* Adds `a` followed by `b` (either may be empty) to a state (streaming: a file written in blocks, or read a
 * line and its newline at a time). */
void wf_mac_update(uint8_t state[WF_MAC_STATE_BYTES], const uint8_t *a, size_t a_length, const uint8_t *b,
                   size_t b_length);

/* The tag of what a state has taken; the state itself is left as it was. */
void wf_mac_final(const uint8_t state[WF_MAC_STATE_BYTES], uint8_t tag[WF_TAG_BYTES]);

/* The tag of `a` followed by `b` (either may be empty), from a prepared state. */
void wf_mac_two(const uint8_t prepared[WF_MAC_STATE_BYTES], const uint8_t *a, size_t a_length, const uint8_t *b,
                size_t b_length, uint8_t tag[WF_TAG_BYTES]);

/* Whether `tag` is the tag of `a` followed by `b`, compared in constant time: 1 when it is, else 0. */
int wf_mac_check(const uint8_t prepared[WF_MAC_STATE_BYTES], const uint8_t *a, size_t a_length, const uint8_t *b,
                 size_t b_length, const uint8_t tag[WF_TAG_BYTES]);

/* Whether two tags are equal, in constant time: 1 when they are. */
int wf_tag_equal(const uint8_t a[WF_TAG_BYTES], const uint8_t b[WF_TAG_BYTES]);

/* The tag of a whole open file, read from offset 0 with pread (the file offset is not moved). 0 on success,
 * -1 when it cannot be read. */
int wf_mac_fd(const uint8_t prepared[WF_MAC_STATE_BYTES], int fd, uint8_t tag[WF_TAG_BYTES]);

#ifdef __cplusplus
}
#endif

#endif
