/*
 * The XMP and IPTC readers under AddressSanitizer and UndefinedBehaviorSanitizer (make sanitize-metadata):
 * every file through wf_read_metadata_path with record buffers of several sizes (each allocated to exactly
 * its capacity), and every file through wf_read_xmp_memory with the sidecar limit, wf_read_iim_memory and
 * PNG's raw-profile reader.
 * Checks that the records list is whole entries, each within what was written, and prints each file's
 * records with the largest buffer (`-v`), so a fixture's reading can be looked at by hand. First, the
 * counting allocator both parsers use (common/memory_budget.h): limits, nesting, and every byte given back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cimageio.h"
#include "memory_budget.h"
#include "png_raw_profile.h"
#include "slurp.h"

#define REQUIRE(condition)                                                                  \
    do {                                                                                    \
        if (!(condition)) {                                                                 \
            fprintf(stderr, "check_metadata_records: %s:%d: %s\n", __FILE__, __LINE__, #condition); \
            abort();                                                                        \
        }                                                                                   \
    } while (0)

/* Each block is charged to the budget that gave it, even after an inner budget was entered and left. */
static void check_budget(void) {
    REQUIRE(wf_counted_malloc(1) == NULL); /* no budget entered: nothing */
    wf_memory_budget outer, inner;
    wf_memory_budget_enter(&outer, 100, 1);
    unsigned char *a = wf_counted_malloc(60);
    REQUIRE(a && a[59] == 0 && outer.used == 60);
    REQUIRE(wf_counted_malloc(41) == NULL && outer.refused && outer.used == 60);
    wf_memory_budget_enter(&inner, 10, 0);
    void *b = wf_counted_malloc(10);
    REQUIRE(b && inner.used == 10 && !inner.refused);
    REQUIRE(wf_counted_realloc(b, 11) == NULL && inner.refused);
    unsigned char *grown = wf_counted_realloc(a, 100); /* outer's block, grown within outer's limit */
    REQUIRE(grown && outer.used == 100 && inner.used == 10);
    wf_memory_budget_leave(&inner);
    wf_counted_free(b);
    REQUIRE(inner.used == 0);
    REQUIRE(wf_counted_realloc(grown, 101) == NULL);
    wf_counted_free(grown);
    REQUIRE(outer.used == 0);
    wf_memory_budget_leave(&outer);
    REQUIRE(wf_counted_malloc(1) == NULL);
}

static void check(const char *path, const char *how, const wf_metadata_field *records, int print) {
    if (records->length > records->capacity || records->length > records->total) {
        fprintf(stderr, "%s (%s): length %zu, total %zu, capacity %zu\n", path, how, records->length, records->total,
                records->capacity);
        abort();
    }
    for (size_t at = 0; at < records->length;) {
        wf_metadata_record header;
        if (records->length - at < sizeof header) {
            fprintf(stderr, "%s (%s): a cut record header at %zu\n", path, how, at);
            abort();
        }
        memcpy(&header, records->bytes + at, sizeof header);
        if (header.source < 1 || header.source > 2 || header.field < 1 || header.field > 15
            || header.length > records->length - at - sizeof header) {
            fprintf(stderr, "%s (%s): a bad record at %zu\n", path, how, at);
            abort();
        }
        if (print)
            printf("%s: %s %s %u: %.*s\n", path, how, header.source == 1 ? "xmp" : "iptc", header.field,
                   header.length > 120 ? 120 : (int)header.length, (const char *)records->bytes + at + sizeof header);
        at += sizeof header + header.length;
    }
}

int main(int argc, char **argv) {
    static const size_t capacities[] = {0, 1, 9, 64, 4096, 1 << 20};
    int print = argc > 1 && strcmp(argv[1], "-v") == 0;
    long files = 0;
    check_budget();
    for (int i = 1 + print; i < argc; i++, files++) {
        for (size_t c = 0; c < sizeof capacities / sizeof capacities[0]; c++) {
            wf_metadata metadata = {0};
            metadata.records.capacity = capacities[c];
            metadata.records.bytes = capacities[c] ? malloc(capacities[c]) : NULL;
            wf_read_metadata_path(argv[i], &metadata);
            check(argv[i], "file", &metadata.records, print && c + 1 == sizeof capacities / sizeof capacities[0]);
            free(metadata.records.bytes);
        }
        size_t length = 0;
        uint8_t *bytes = slurp(argv[i], &length);
        if (!bytes) continue;
        wf_metadata_field records = {malloc(1 << 20), 1 << 20, 0, 0};
        wf_read_xmp_memory(bytes, length, WF_XMP_SIDECAR_MAX, &records);
        check(argv[i], "as-xmp", &records, print && strstr(argv[i], ".xmp") != NULL);
        records.length = records.total = 0;
        wf_read_iim_memory(bytes, length, &records);
        check(argv[i], "as-iim", &records, print && strstr(argv[i], ".iim") != NULL);
        records.length = records.total = 0;
        wf_read_raw_profile((const char *)bytes, length, WF_RECORD_IPTC, &records);
        check(argv[i], "as-raw-profile", &records, 0);
        records.length = records.total = 0;
        wf_read_raw_profile((const char *)bytes, length, WF_RECORD_XMP, &records);
        check(argv[i], "as-raw-xmp-profile", &records, 0);
        free(records.bytes);
        free(bytes);
    }
    printf("check_metadata_records: %ld files, no sanitizer report\n", files);
    return 0;
}
