/*
 * Runs the C header reader over files under AddressSanitizer and UndefinedBehaviorSanitizer (make sanitize):
 * each file through the fd reader and through the memory reader at every prefix length (every byte up to
 * 16 KiB, then every 499th; a RIFF cut also with its size rewritten to the cut), and the EXIF parser over every
 * tail of the file. Any sanitizer report aborts.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cimageio.h"
#include "slurp.h"

int main(int argc, char **argv) {
    long reads = 0, ok = 0;
    for (int i = 1; i < argc; i++) {
        wf_header header;
        wf_read_header_path(argv[i], &header);
        reads++;
        ok += header.status == WF_OK;
        size_t length = 0;
        unsigned char *bytes = slurp(argv[i], &length);
        if (!bytes) continue;
        for (size_t prefix = 0; prefix <= length; prefix += prefix < 16384 ? 1 : 499) {
            /* A fresh copy of exactly `prefix` bytes, so ASan sees any read past its end. */
            unsigned char *copy = malloc(prefix ? prefix : 1);
            for (size_t k = 0; k < prefix; k++) copy[k] = bytes[k];
            wf_read_header_memory(copy, prefix, &header);
            reads++;
            /* A RIFF (WebP) cut with its size rewritten to fit: the chunk walk itself meets the cut. */
            if (prefix >= 12 && bytes[0] == 'R' && bytes[1] == 'I' && bytes[2] == 'F' && bytes[3] == 'F') {
                for (int b = 0; b < 4; b++) copy[4 + b] = (unsigned char)((prefix - 8) >> (8 * b));
                wf_read_header_memory(copy, prefix, &header);
                reads++;
            }
            free(copy);
        }
        for (size_t start = 0; start < length && start < 4096; start++) wf_exif_orientation(bytes + start, length - start);
        free(bytes);
    }
    printf("sanitize: %d files, %ld header reads, %ld whole files read, no sanitizer reports\n", argc - 1, reads, ok);
    return 0;
}
