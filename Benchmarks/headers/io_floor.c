/*
 * Floors for header reading over a list of files (make bench-headers):
 *   io_floor LIST            open, read 4 KiB, close: the I/O floor, nothing parsed
 *   io_floor --walk LIST     a hand-written JPEG segment walker: read 4 KiB, hop from segment to segment
 *                            by length (pread when a hop leaves the block) until SOF, close. No validation,
 *                            no EXIF, no libjpeg: the least any reader must read for these files.
 *   io_floor --metadata LIST the bytes metadata lives in, read and not parsed: a JPEG's every segment
 *                            before SOS (Exif, XMP, IPTC), a TIFF's first 4 KiB and 4 KiB at its IFD0
 *                            (which may sit at the end of the file).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static long walk(int fd, unsigned char *block) {
    ssize_t n = pread(fd, block, 4096, 0);
    long reads = 1;
    if (n < 4 || block[0] != 0xFF || block[1] != 0xD8) return reads; /* PNG etc.: IHDR is in the block */
    off_t base = 0, pos = 2;
    for (;;) {
        if (pos + 4 > base + n) {
            base = pos;
            n = pread(fd, block, 4096, base);
            reads++;
            if (n < 4) return reads;
        }
        unsigned char *p = block + (pos - base);
        if (p[0] != 0xFF) return reads;
        if (p[1] >= 0xC0 && p[1] <= 0xCF && p[1] != 0xC4 && p[1] != 0xC8 && p[1] != 0xCC) return reads;
        pos += 2 + (p[2] << 8 | p[3]);
    }
}

/* The metadata floor: reads (and touches) what a metadata reader must, parses nothing it need not. */
static long metadata(int fd, unsigned char *block) {
    static unsigned char segment[65536];
    ssize_t n = pread(fd, block, 4096, 0);
    long reads = 1;
    if (n >= 8 && (memcmp(block, "II*\0", 4) == 0 || memcmp(block, "MM\0*", 4) == 0)) {
        uint32_t ifd = block[0] == 'I' ? (uint32_t)block[4] | block[5] << 8 | block[6] << 16 | (uint32_t)block[7] << 24
                                       : (uint32_t)block[4] << 24 | block[5] << 16 | block[6] << 8 | block[7];
        if (ifd + 4096 > 4096) reads += pread(fd, segment, 4096, ifd) > 0;
        return reads;
    }
    if (n < 4 || block[0] != 0xFF || block[1] != 0xD8) return reads;
    off_t pos = 2;
    for (;;) {
        unsigned char head[4];
        if (pread(fd, head, 4, pos) != 4 || head[0] != 0xFF || head[1] == 0xDA) return reads;
        size_t length = (size_t)(head[2] << 8 | head[3]);
        reads += pread(fd, segment, length, pos + 2) > 0;
        pos += 2 + (off_t)length;
    }
}

int main(int argc, char **argv) {
    int walker = argc == 3 && strcmp(argv[1], "--walk") == 0;
    int meta = argc == 3 && strcmp(argv[1], "--metadata") == 0;
    walker = walker || meta;
    if (argc != 2 + walker) { fprintf(stderr, "usage: io_floor [--walk|--metadata] LIST\n"); return 64; }
    FILE *list = fopen(argv[1 + walker], "r");
    if (!list) { perror(argv[1 + walker]); return 1; }
    char path[4096];
    unsigned char block[4096];
    long files = 0, reads = 0;
    while (fgets(path, sizeof path, list)) {
        path[strcspn(path, "\n")] = 0;
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) { perror(path); return 1; }
        if (meta) {
            reads += metadata(fd, block);
        } else if (walker) {
            reads += walk(fd, block);
        } else {
            reads += read(fd, block, sizeof block) > 0;
        }
        close(fd);
        files++;
    }
    fclose(list);
    printf("%ld files, %ld reads\n", files, reads);
    return 0;
}
