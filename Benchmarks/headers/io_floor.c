/* The I/O floor for header reading: open each listed file, read 4 KiB, close. Nothing is parsed. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: io_floor LIST\n"); return 64; }
    FILE *list = fopen(argv[1], "r");
    if (!list) { perror(argv[1]); return 1; }
    char path[4096], block[4096];
    long files = 0, bytes = 0;
    while (fgets(path, sizeof path, list)) {
        path[strcspn(path, "\n")] = 0;
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) { perror(path); return 1; }
        ssize_t n = read(fd, block, sizeof block);
        if (n > 0) bytes += n;
        close(fd);
        files++;
    }
    fclose(list);
    printf("%ld files, %ld bytes\n", files, bytes);
    return 0;
}
