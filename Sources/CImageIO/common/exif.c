#include "cimageio.h"

static uint32_t read16(const uint8_t *p, int little) {
    return little ? (uint32_t)p[0] | (uint32_t)p[1] << 8 : (uint32_t)p[0] << 8 | (uint32_t)p[1];
}

static uint32_t read32(const uint8_t *p, int little) {
    return little ? read16(p, 1) | read16(p + 2, 1) << 16 : read16(p, 0) << 16 | read16(p + 2, 0);
}

enum { TIFF_SHORT = 3, TIFF_LONG = 4, TAG_ORIENTATION = 0x0112, IFD_ENTRY_SIZE = 12 };

size_t wf_exif_ifd0_end(const uint8_t *tiff, size_t have, size_t total) {
    size_t header = total < 8 ? total : 8;
    if (have < header) return header;
    if (total < 8) return have;
    int little = tiff[0] == 'I';
    uint32_t ifd = read32(tiff + 4, little);
    if (ifd < 8 || (size_t)ifd > total - 2) return have; /* malformed: nothing more will help */
    if (have < (size_t)ifd + 2) return (size_t)ifd + 2;
    size_t end = (size_t)ifd + 2 + (size_t)read16(tiff + ifd, little) * IFD_ENTRY_SIZE;
    return end < total ? end : total;
}

int32_t wf_exif_orientation(const uint8_t *tiff, size_t length) {
    if (tiff == NULL || length < 8) return 1;
    int little;
    if (tiff[0] == 'I' && tiff[1] == 'I') little = 1;
    else if (tiff[0] == 'M' && tiff[1] == 'M') little = 0;
    else return 1;
    if (read16(tiff + 2, little) != 42) return 1;

    /* IFD0's offset is relative to the TIFF header and is not always 8. */
    uint32_t ifd = read32(tiff + 4, little);
    if (ifd < 8 || (size_t)ifd > length - 2) return 1;
    size_t count = read16(tiff + ifd, little);
    if (count > (length - ifd - 2) / IFD_ENTRY_SIZE) return 1; /* the IFD claims more than the segment holds */

    for (size_t i = 0; i < count; i++) {
        const uint8_t *entry = tiff + ifd + 2 + i * IFD_ENTRY_SIZE;
        if (read16(entry, little) != TAG_ORIENTATION) continue;
        uint32_t type = read16(entry + 2, little);
        if (read32(entry + 4, little) != 1) return 1;
        /* A SHORT sits in the first two bytes of the value field, in the file's byte order. */
        uint32_t value = type == TIFF_SHORT ? read16(entry + 8, little)
                       : type == TIFF_LONG  ? read32(entry + 8, little)
                       : 0;
        return value >= 1 && value <= 8 ? (int32_t)value : 1;
    }
    return 1;
}
