/* Opening a photo for any of the readers, and describing what went wrong, in one place. */
#define _GNU_SOURCE
#include "source_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/openat2.h>
#endif

/* What kind of thing a non-regular file is, for the message. */
static const char *kind_of(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    return "not a file";
}

int wf_open_source(const char *path, wf_source_failure *failure) {
    int fd;
    do {
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        char text[128];
        failure->is_directory = 0;
        snprintf(failure->reason, sizeof failure->reason, "cannot open: %s", wf_describe_errno(errno, text, sizeof text));
        return -1;
    }
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        int directory = fstat(fd, &info) == 0 && S_ISDIR(info.st_mode);
        failure->is_directory = directory;
        if (directory) snprintf(failure->reason, sizeof failure->reason, "is a directory");
        else snprintf(failure->reason, sizeof failure->reason, "not a regular file (%s)", kind_of(info.st_mode));
        close(fd);
        return -1;
    }
    return fd;
}

/* Each component in turn, never through a link: where the kernel has no openat2. */
static int open_by_components(int folder, const char *relative, int flags) {
    char *copy = strdup(relative);
    if (!copy) {
        errno = ENOMEM;
        return -1;
    }
    int at = folder, result = -1;
    char *rest = copy;
    for (;;) {
        char *slash = strchr(rest, '/');
        if (slash) *slash = '\0';
        int last = slash == NULL;
        int fd;
        if (rest[0] == '\0' || strcmp(rest, ".") == 0 || strcmp(rest, "..") == 0) {
            errno = EXDEV; /* as openat2 says of a way out */
            fd = -1;
        } else {
            do fd = openat(at, rest, last ? flags | O_NOFOLLOW : O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            while (fd < 0 && errno == EINTR);
        }
        if (at != folder) {
            int saved = errno;
            close(at);
            errno = saved;
        }
        if (fd < 0 || last) {
            result = fd;
            break;
        }
        at = fd;
        rest = slash + 1;
    }
    int saved = errno;
    free(copy);
    errno = saved;
    return result;
}

int wf_open_beneath(int folder, const char *relative) {
    int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW;
#ifdef SYS_openat2
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (uint64_t)flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd;
    do fd = syscall(SYS_openat2, folder, relative, &how, sizeof how); while (fd < 0 && errno == EINTR);
    if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) return (int)fd;
#endif
    return open_by_components(folder, relative, flags);
}

const char *wf_describe_errno(int error, char *text, size_t size) {
#if defined(__GLIBC__)
    return strerror_r(error, text, size);
#else
    return strerror_r(error, text, size) == 0 ? text : "unknown error";
#endif
}

void wf_lowercase_first(char *text) {
    if (text[0] >= 'A' && text[0] <= 'Z' && !(text[1] >= 'A' && text[1] <= 'Z')) text[0] += 'a' - 'A';
}
