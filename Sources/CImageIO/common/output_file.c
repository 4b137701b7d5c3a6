/* Creating a derived image's file, for the encoders: a new file, never through a link, never over one. */
#define _GNU_SOURCE
#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "source_file.h"

wf_derive_status wf_output_errno(char *message, size_t size, const char *what, int error) {
    char text[128];
    snprintf(message, size, "%s: %s", what, wf_describe_errno(error, text, sizeof text));
    return WF_DERIVE_ERR_WRITE;
}

FILE *wf_create_output(const char *path) {
    int fd;
    do {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return NULL;
    FILE *file = fdopen(fd, "wb");
    if (!file) {
        int saved = errno;
        close(fd);
        unlink(path);
        errno = saved;
    }
    return file;
}

wf_derive_status wf_write_output(const char *path, const uint8_t *bytes, size_t length, char *message, size_t size) {
    FILE *file = wf_create_output(path);
    if (!file) return wf_output_errno(message, size, "cannot create the output", errno);
    int written = fwrite(bytes, 1, length, file) == length;
    int saved = errno;
    if (fclose(file) != 0 && written) {
        written = 0;
        saved = errno;
    }
    if (written) return WF_DERIVE_OK;
    unlink(path);
    return wf_output_errno(message, size, "cannot write the output", saved);
}
