#ifndef CIMAGEIO_ZIP_H
#define CIMAGEIO_ZIP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * An album's archive of its originals: a ZIP written by libarchive's zip writer (archive/zip_writer.c), onto
 * a file the caller created and holds open, streamed in fixed blocks (1 MiB in, 1 MiB out: a 20 GB album
 * costs the memory of a small one, beside libarchive's central directory of some 100 bytes an entry).
 *
 * Every byte is decided here, so the same entries give the same archive on any machine: entries are stored
 * (photos and videos do not compress), as regular files with mode 0644, owner and group 0, and no time of
 * their own (libarchive writes a time in the build machine's time zone, so any real one would make the bytes
 * depend on it: the DOS field says 1980-01-01 00:00, the earliest a ZIP holds, and the extended time stamp
 * field is left empty). Names are given as UTF-8 and flagged so (bit 11) when they are not ASCII, whatever
 * the locale. Zip64 records are written where a size or an offset needs them (past 4 GiB), and only there.
 *
 * Each entry's bytes are hashed as they are read, and the archive's as they are written, with the content
 * hash the build uses (the plain one, or keyed BLAKE2b from a prepared state), so the caller proves the
 * archive holds exactly the originals it was asked for, and records the archive without reading it again.
 */

typedef struct wf_zip wf_zip;

typedef enum {
    WF_ZIP_OK = 0,
    WF_ZIP_ERR_WRITE,   /* the archive's file could not be written: `error` is errno (a full disk: ENOSPC) */
    WF_ZIP_ERR_READ,    /* an entry's file could not be read: `error` is errno */
    WF_ZIP_ERR_SHORT,   /* an entry's file ended before the size it was given */
    WF_ZIP_ERR_ARCHIVE  /* libarchive refused, or memory ran out: `message` says why */
} wf_zip_status;

typedef struct {
    wf_zip_status status;
    int error;
    char message[200];
} wf_zip_result;

enum { WF_ZIP_HASH_BYTES = 16 };

/* Starts an archive written to `fd` (left open: the caller's). `mac_state` is a prepared keyed state
 * (WF_MAC_STATE_BYTES, cimageio_keyed.h; copied), or NULL for the plain content hash. NULL on failure
 * (`result` says why). */
wf_zip *wf_zip_open(int fd, const uint8_t *mac_state, wf_zip_result *result);

/* Adds the entry `name` (UTF-8, NUL-terminated): the first `size` bytes of `source`, read from offset 0 with
 * pread (its file offset is not moved). `hash` gets their content hash: the same as the file's, when the file
 * is `size` bytes long (the plain hash as two uint64_t in the machine's order, or the keyed tag). WF_ZIP_OK, or
 * why not; after a failure the archive is unusable (free it). */
wf_zip_status wf_zip_add(wf_zip *zip, const char *name, int source, uint64_t size, uint8_t hash[WF_ZIP_HASH_BYTES],
                         wf_zip_result *result);

/* Writes the central directory and the last block: `bytes` gets the archive's size and `hash` its content
 * hash. The archive is freed either way. */
wf_zip_status wf_zip_close(wf_zip *zip, uint64_t *bytes, uint8_t hash[WF_ZIP_HASH_BYTES], wf_zip_result *result);

/* Frees an archive that will not be finished (after a failure); NULL is fine. */
void wf_zip_free(wf_zip *zip);

#ifdef __cplusplus
}
#endif

#endif
