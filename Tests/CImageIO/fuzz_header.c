/* libFuzzer harness (make fuzz): the header reader, the EXIF orientation parser and the metadata reader
 * (Exif payload, PNG text) on any bytes. */
#include <stddef.h>
#include <stdint.h>

#include "cimageio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    wf_header header;
    wf_read_header_memory(data, size, &header);
    if (header.status == WF_OK && (header.orientation < 1 || header.orientation > 8)) __builtin_trap();
    if (header.status == WF_OK && (header.width == 0 || header.height == 0)) __builtin_trap();
    int32_t orientation = wf_exif_orientation(data, size);
    if (orientation < 1 || orientation > 8) __builtin_trap();

    static uint8_t exif[65536], description[4096], title[256];
    wf_metadata metadata = {0};
    metadata.exif = (wf_metadata_field){.bytes = exif, .capacity = sizeof exif};
    metadata.description = (wf_metadata_field){.bytes = description, .capacity = sizeof description};
    metadata.title = (wf_metadata_field){.bytes = title, .capacity = sizeof title};
    wf_read_metadata_memory(data, size, &metadata);
    if (metadata.exif.length > metadata.exif.capacity || metadata.description.length > metadata.description.capacity
        || metadata.title.length > metadata.title.capacity) __builtin_trap();
    return 0;
}
