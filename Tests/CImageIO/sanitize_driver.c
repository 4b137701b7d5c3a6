/*
 * Runs the C header reader over files under AddressSanitizer and UndefinedBehaviorSanitizer (make sanitize):
 * each file through the fd reader and through the memory reader at every prefix length (every byte up to
 * 4 KiB, every 7th up to 16 KiB, then every 499th; a RIFF cut also with its size rewritten to the cut), and
 * the EXIF parser over every tail of the file. GIFs and AVIF sequences also have all their frames read at each of those
 * prefixes (frames_check.h; the first 64 of a cut file), and TIFFs and BMPs are decoded at every 7th of them,
 * every one past 4 KiB and each of the last 64 (decode_check.h). Any sanitizer
 * report aborts. HEIF and AVIF headers answered from the boxes must be libheif's answer too, at every prefix
 * where libheif opens the file (the others are counted: their damage is found when the image is decoded).
 */
#include <stdio.h>
#include <stdlib.h>

#include "avif_format.h"
#include "cimageio.h"
#include "decode_check.h"
#include "frames_check.h"
#include "heif_boxes.h"
#include "heif_format.h"
#include "slurp.h"
#include "stream.h"

static long heif_checked = 0, heif_quick = 0, heif_refused = 0;

/* The box reader's answer (header) against libheif's for the same bytes: a disagreement aborts. */
static void check_heif(const unsigned char *bytes, size_t length, const wf_header *header) {
    if (header->status != WF_OK || (header->format != WF_FORMAT_HEIC && header->format != WF_FORMAT_AVIF)) return;
    static wf_stream stream;
    /* An AVIF sequence's header is its track's (libavif), which its still item need not match. */
    wf_header sequence = {.format = WF_FORMAT_AVIF};
    wf_stream_init_memory(&stream, bytes, length);
    if (wf_read_avif_sequence_header(&stream, &sequence)) return;
    wf_heif_facts facts;
    wf_stream_init_memory(&stream, bytes, length);
    heif_quick += wf_heif_quick_facts(&stream, (int64_t)length, &facts);
    wf_stream_init_memory(&stream, bytes, length);
    wf_header libheif = {0};
    libheif.format = header->format;
    wf_read_heif_header_with_libheif(&stream, &libheif);
    if (libheif.status != WF_OK) {
        heif_refused++;
        return;
    }
    if (libheif.width != header->width || libheif.height != header->height
        || libheif.alpha != header->alpha || libheif.bit_depth != header->bit_depth) {
        fprintf(stderr, "HEIF header disagrees with libheif at %zu bytes: %ux%u alpha %d depth %d vs status %d %ux%u alpha %d depth %d\n",
                length, header->width, header->height, header->alpha, header->bit_depth, libheif.status, libheif.width,
                libheif.height, libheif.alpha, libheif.bit_depth);
        abort();
    }
    heif_checked++;
}

int main(int argc, char **argv) {
    long reads = 0, ok = 0, frames = 0, decoded = 0;
    for (int i = 1; i < argc; i++) {
        wf_header header;
        wf_read_header_path(argv[i], &header);
        reads++;
        ok += header.status == WF_OK;
        size_t length = 0;
        unsigned char *bytes = slurp(argv[i], &length);
        if (!bytes) continue;
        for (size_t prefix = 0; prefix <= length; prefix += prefix < 4096 ? 1 : prefix < 16384 ? 7 : 499) {
            /* A fresh copy of exactly `prefix` bytes, so ASan sees any read past its end. */
            unsigned char *copy = malloc(prefix ? prefix : 1);
            for (size_t k = 0; k < prefix; k++) copy[k] = bytes[k];
            wf_read_header_memory(copy, prefix, &header);
            check_heif(copy, prefix, &header);
            reads++;
            long composed = exercise_frames(copy, prefix, prefix == length ? 10001 : 64);
            frames += composed > 0 ? composed : 0;
            /* A whole decode at every 7th cut, and at each of the last 64 (where a cut meets the last rows). */
            if (prefix % 7 == 0 || prefix >= 4096 || prefix + 64 >= length) decoded += exercise_decode(copy, prefix);
            /* A RIFF (WebP) cut with its size rewritten to fit: the chunk walk itself meets the cut. */
            if (prefix >= 12 && bytes[0] == 'R' && bytes[1] == 'I' && bytes[2] == 'F' && bytes[3] == 'F') {
                for (int b = 0; b < 4; b++) copy[4 + b] = (unsigned char)((prefix - 8) >> (8 * b));
                wf_read_header_memory(copy, prefix, &header);
                reads++;
            }
            free(copy);
        }
        wf_read_header_memory(bytes, length, &header);
        check_heif(bytes, length, &header);
        for (size_t start = 0; start < length && start < 4096; start++) wf_exif_orientation(bytes + start, length - start);
        free(bytes);
    }
    printf("sanitize: %d files, %ld header reads, %ld whole files read, %ld HEIF answers checked against libheif "
           "(%ld from the boxes alone; %ld more that libheif refuses), %ld GIF and AVIF frames read, %ld TIFFs and BMPs decoded, "
           "no sanitizer reports\n",
           argc - 1, reads, ok, heif_checked, heif_quick, heif_refused, frames, decoded);
    return 0;
}
