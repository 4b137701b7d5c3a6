/* Renaming without replacing: what the site writer uses to put a new file where there was nothing, so a
 * file that appeared there meanwhile is never replaced. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "cimageio.h"

int wf_rename_noreplace(int from_folder, const char *from, int to_folder, const char *to) {
#if defined(__linux__) && defined(RENAME_NOREPLACE)
    if (renameat2(from_folder, from, to_folder, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
#endif
    /* A file system without RENAME_NOREPLACE: a hard link fails when the name is taken, atomically. */
    if (linkat(from_folder, from, to_folder, to, 0) != 0) return -1;
    unlinkat(from_folder, from, 0);
    return 0;
}
