/*
 * Floors for header reading over a list of files (make bench-headers):
 *   io_floor LIST            open, read 4 KiB, close: the I/O floor, nothing parsed
 *   io_floor --walk LIST     a hand-written JPEG segment walker: read 4 KiB, hop from segment to segment
 *                            by length (pread when a hop leaves the block) until SOF, close. No validation,
 *                            no EXIF, no libjpeg: the least any reader must read for these files.
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

int main(int argc, char **argv) {
    int walker = argc == 3 && strcmp(argv[1], "--walk") == 0;
    if (argc != 2 + walker) { fprintf(stderr, "usage: io_floor [--walk] LIST\n"); return 64; }
    FILE *list = fopen(argv[1 + walker], "r");
    if (!list) { perror(argv[1 + walker]); return 1; }
    char path[4096];
    unsigned char block[4096];
    long files = 0, reads = 0;
    while (fgets(path, sizeof path, list)) {
        path[strcspn(path, "\n")] = 0;
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) { perror(path); return 1; }
        if (walker) {
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
