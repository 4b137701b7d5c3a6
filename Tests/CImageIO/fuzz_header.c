/* libFuzzer harness for the header reader (make fuzz): the memory reader and the EXIF parser on any bytes. */
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
    return 0;
}
