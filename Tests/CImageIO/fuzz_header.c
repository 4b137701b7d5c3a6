/* libFuzzer harness (make fuzz): the header reader (HEIF's box reader against libheif), the EXIF orientation parser, the metadata reader
 * (Exif payload, PNG text, XMP and IPTC records, TIFF's XMP and IPTC tags among them), the XMP parser, the
 * IIM reader and PNG's raw-profile reader (hex, a declared length) on the bytes themselves,
 * the GIF frame compositor (at most 64 frames an input) and the TIFF and BMP decoders (decode_check.h) on any
 * bytes. */
#include <stddef.h>
#include <stdint.h>

#include "avif_format.h"
#include "cimageio.h"
#include "decode_check.h"
#include "frames_check.h"
#include "heif_format.h"
#include "png_raw_profile.h"
#include "stream.h"

/* Whether the AVIF sequence reader (libavif's track) answers for these bytes. */
static int answered_by_track(const uint8_t *data, size_t size) {
    static wf_stream stream;
    wf_stream_init_memory(&stream, data, size);
    wf_header sequence = {.format = WF_FORMAT_AVIF};
    return wf_read_avif_sequence_header(&stream, &sequence);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    wf_header header;
    wf_read_header_memory(data, size, &header);
    if (header.status == WF_OK && (header.orientation < 1 || header.orientation > 8)) __builtin_trap();
    if (header.status == WF_OK && (header.width == 0 || header.height == 0)) __builtin_trap();
    /* A HEIF header answered from the boxes must be libheif's answer too, where libheif opens the file
     * (damage past the boxes the reader reads is found when the image is decoded, see heif_boxes.h); an AVIF
     * sequence's is its track's, which its still item (what libheif reads) need not match. */
    if (header.status == WF_OK && (header.format == WF_FORMAT_HEIC || header.format == WF_FORMAT_AVIF)
        && !answered_by_track(data, size)) {
        static wf_stream stream;
        wf_stream_init_memory(&stream, data, size);
        wf_header libheif = {.format = header.format};
        wf_read_heif_header_with_libheif(&stream, &libheif);
        if (libheif.status == WF_OK && (libheif.width != header.width || libheif.height != header.height
            || libheif.alpha != header.alpha || libheif.bit_depth != header.bit_depth)) __builtin_trap();
    }
    int32_t orientation = wf_exif_orientation(data, size);
    if (orientation < 1 || orientation > 8) __builtin_trap();

    static uint8_t exif[65536], description[4096], title[256], records[64 * 1024];
    wf_metadata metadata = {0};
    metadata.exif = (wf_metadata_field){.bytes = exif, .capacity = sizeof exif};
    metadata.description = (wf_metadata_field){.bytes = description, .capacity = sizeof description};
    metadata.title = (wf_metadata_field){.bytes = title, .capacity = sizeof title};
    metadata.records = (wf_metadata_field){.bytes = records, .capacity = sizeof records};
    wf_read_metadata_memory(data, size, &metadata);
    if (metadata.exif.length > metadata.exif.capacity || metadata.description.length > metadata.description.capacity
        || metadata.title.length > metadata.title.capacity || metadata.records.length > metadata.records.total)
        __builtin_trap();
    wf_metadata_field parsed = {.bytes = records, .capacity = sizeof records};
    wf_read_xmp_memory(data, size, WF_XMP_SIDECAR_MAX, &parsed);
    if (parsed.length > parsed.capacity || parsed.length > parsed.total) __builtin_trap();
    parsed.length = parsed.total = 0;
    wf_read_iim_memory(data, size, &parsed);
    if (parsed.length > parsed.capacity || parsed.length > parsed.total) __builtin_trap();
    parsed.length = parsed.total = 0;
    wf_read_raw_profile((const char *)data, size, WF_RECORD_IPTC, &parsed);
    if (parsed.length > parsed.capacity || parsed.length > parsed.total) __builtin_trap();
    parsed.length = parsed.total = 0;
    wf_read_raw_profile((const char *)data, size, WF_RECORD_XMP, &parsed);
    if (parsed.length > parsed.capacity || parsed.length > parsed.total) __builtin_trap();
    exercise_frames(data, size, 64);
    exercise_decode(data, size);
    return 0;
}
