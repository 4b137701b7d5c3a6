/* For the sanitizer drivers: a whole file in a malloc'd buffer (NULL when it cannot be read). */
#ifndef WF_TEST_SLURP_H
#define WF_TEST_SLURP_H

#include <stdio.h>
#include <stdlib.h>

static unsigned char *slurp(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    if (size < 0) {
        fclose(file);
        return NULL;
    }
    unsigned char *bytes = malloc(size > 0 ? (size_t)size : 1);
    *length = fread(bytes, 1, (size_t)size, file);
    fclose(file);
    return bytes;
}

#endif
