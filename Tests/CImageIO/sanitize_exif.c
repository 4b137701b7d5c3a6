/*
 * Runs the C metadata reader (wf_read_metadata_*: JPEG Exif APP1, PNG eXIf and text chunks) over files under
 * AddressSanitizer and UndefinedBehaviorSanitizer (make sanitize): each file through the fd reader with
 * buffers of several sizes, each allocated to exactly its capacity so that ASan sees a write one byte past
 * it, and through the memory reader at every prefix length (every byte up to 8 KiB, then every 251st: the
 * metadata is near the start, and each prefix of the zTXt-bomb fixture costs up to 32 capped inflates).
 * Checks the field contract (length <= capacity, length <= total, whole when it fits). Any sanitizer report
 * or broken contract aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cimageio.h"
#include "slurp.h"

static void check_field(const char *path, const char *name, const wf_metadata_field *field) {
    if (field->length > field->capacity || field->length > field->total ||
        (field->total <= field->capacity && field->bytes != NULL && field->length != field->total)) {
        fprintf(stderr, "%s: %s: length %zu, total %zu, capacity %zu\n", path, name, field->length, field->total,
                field->capacity);
        abort();
    }
}

static void check(const char *path, const wf_metadata *metadata) {
    check_field(path, "exif", &metadata->exif);
    check_field(path, "description", &metadata->description);
    check_field(path, "title", &metadata->title);
    if (memchr(metadata->message, '\0', sizeof metadata->message) == NULL) {
        fprintf(stderr, "%s: message not terminated\n", path);
        abort();
    }
}

/* Buffers of exactly `capacity` bytes each (malloc(0) may give NULL: the reader must accept that too). */
static void set_buffers(wf_metadata *metadata, size_t capacity) {
    memset(metadata, 0, sizeof *metadata);
    wf_metadata_field *fields[] = {&metadata->exif, &metadata->description, &metadata->title};
    for (int i = 0; i < 3; i++) {
        fields[i]->bytes = capacity ? malloc(capacity) : NULL;
        fields[i]->capacity = capacity;
    }
}

static void free_buffers(wf_metadata *metadata) {
    free(metadata->exif.bytes);
    free(metadata->description.bytes);
    free(metadata->title.bytes);
}

int main(int argc, char **argv) {
    static const size_t capacities[] = {0, 1, 7, 8, 255, 4096, 65536};
    long reads = 0, ok = 0, with_exif = 0, with_text = 0;
    for (int i = 1; i < argc; i++) {
        wf_metadata metadata;
        for (size_t c = 0; c < sizeof capacities / sizeof capacities[0]; c++) {
            set_buffers(&metadata, capacities[c]);
            wf_read_metadata_path(argv[i], &metadata);
            check(argv[i], &metadata);
            reads++;
            if (capacities[c] == 65536) {
                ok += metadata.status == WF_OK;
                with_exif += metadata.exif.total > 0;
                with_text += metadata.description.total > 0 || metadata.title.total > 0;
            }
            free_buffers(&metadata);
        }
        size_t length = 0;
        unsigned char *bytes = slurp(argv[i], &length);
        if (!bytes) continue;
        set_buffers(&metadata, 65536);
        for (size_t prefix = 0; prefix <= length; prefix += prefix < 8192 ? 1 : 251) {
            /* A fresh copy of exactly `prefix` bytes, so ASan sees any read past its end. */
            unsigned char *copy = malloc(prefix ? prefix : 1);
            memcpy(copy, bytes, prefix);
            wf_read_metadata_memory(copy, prefix, &metadata);
            check(argv[i], &metadata);
            free(copy);
            reads++;
        }
        free_buffers(&metadata);
        free(bytes);
    }
    printf("sanitize-exif: %d files, %ld metadata reads, %ld whole files read, %ld with Exif, %ld with text, "
           "no sanitizer reports\n", argc - 1, reads, ok, with_exif, with_text);
    return 0;
}
