/*
 * An album's archive of its originals, through libarchive's zip writer (see cimageio_zip.h for what the
 * archive holds and why). libarchive formats the headers and the central directory; this file decides every
 * field it leaves to the caller, feeds it each original in fixed blocks, and takes its output through one
 * block of its own, hashed as it is written.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cimageio_keyed.h"
#include "cimageio_zip.h"
#include "content_hash.h"

enum { BLOCK = 1 << 20 };

/* The build's content hash, plain or keyed, taken in steps. */
typedef struct {
    int keyed;
    wf_hash_state plain;
    uint8_t mac[WF_MAC_STATE_BYTES];
} zip_hash;

struct wf_zip {
    struct archive *archive;
    int fd;
    int keyed;
    uint8_t mac_state[WF_MAC_STATE_BYTES]; /* the prepared keyed state, copied (when keyed) */
    uint8_t *in;              /* an entry's bytes, a block at a time */
    uint8_t *out;             /* the archive's bytes, written a block at a time */
    size_t filled;
    uint64_t written;
    zip_hash archive_hash;
    int write_error; /* errno of a failed write, 0 when none failed */
    int abandoned;   /* being freed unfinished: libarchive's closing words are not written */
};

static void hash_start(zip_hash *h, const uint8_t *mac_state) {
    h->keyed = mac_state != NULL;
    if (h->keyed) {
        memcpy(h->mac, mac_state, WF_MAC_STATE_BYTES);
    } else {
        wf_hash_start(&h->plain);
    }
}

static void hash_update(zip_hash *h, const uint8_t *bytes, size_t n) {
    if (h->keyed) {
        wf_mac_update(h->mac, bytes, n, NULL, 0);
    } else {
        wf_hash_update(&h->plain, bytes, n);
    }
}

static void hash_finish(const zip_hash *h, uint8_t out[WF_ZIP_HASH_BYTES]) {
    if (h->keyed) {
        wf_mac_final(h->mac, out);
    } else {
        uint64_t words[2];
        wf_hash_finish(&h->plain, words);
        memcpy(out, words, sizeof words);
    }
}

static wf_zip_status fail(wf_zip_result *result, wf_zip_status status, int error, const char *message) {
    if (result) {
        result->status = status;
        result->error = error;
        snprintf(result->message, sizeof result->message, "%s", message ? message : "");
    }
    return status;
}

/* A write that libarchive's callback or the last flush could not make, else libarchive's own complaint. */
static wf_zip_status archive_failure(wf_zip *zip, wf_zip_result *result) {
    if (zip->write_error) return fail(result, WF_ZIP_ERR_WRITE, zip->write_error, strerror(zip->write_error));
    const char *why = archive_error_string(zip->archive);
    return fail(result, WF_ZIP_ERR_ARCHIVE, archive_errno(zip->archive), why ? why : "libarchive failed");
}

/* The block in hand, hashed (its words from its start, as wf_hash_fd reads a file) and written whole. */
static int flush(wf_zip *zip) {
    hash_update(&zip->archive_hash, zip->out, zip->filled);
    size_t done = 0;
    while (done < zip->filled) {
        ssize_t n = write(zip->fd, zip->out + done, zip->filled - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            zip->write_error = n < 0 ? errno : EIO;
            return -1;
        }
        done += (size_t)n;
    }
    zip->written += zip->filled;
    zip->filled = 0;
    return 0;
}

static la_ssize_t take_output(struct archive *archive, void *context, const void *buffer, size_t length) {
    wf_zip *zip = context;
    if (zip->abandoned) return (la_ssize_t)length;
    const uint8_t *bytes = buffer;
    size_t left = length;
    while (left > 0) {
        size_t room = BLOCK - zip->filled, n = left < room ? left : room;
        memcpy(zip->out + zip->filled, bytes, n);
        zip->filled += n;
        bytes += n;
        left -= n;
        if (zip->filled == BLOCK && flush(zip) != 0) {
            archive_set_error(archive, zip->write_error, "%s", strerror(zip->write_error));
            return -1;
        }
    }
    return (la_ssize_t)length;
}

void wf_zip_free(wf_zip *zip) {
    if (!zip) return;
    zip->abandoned = 1;
    if (zip->archive) archive_write_free(zip->archive);
    free(zip->in);
    free(zip->out);
    free(zip);
}

wf_zip *wf_zip_open(int fd, const uint8_t *mac_state, wf_zip_result *result) {
    fail(result, WF_ZIP_OK, 0, NULL);
    wf_zip *zip = calloc(1, sizeof *zip);
    if (!zip) {
        fail(result, WF_ZIP_ERR_ARCHIVE, ENOMEM, "out of memory");
        return NULL;
    }
    zip->fd = fd;
    zip->keyed = mac_state != NULL;
    if (zip->keyed) memcpy(zip->mac_state, mac_state, WF_MAC_STATE_BYTES);
    zip->in = malloc(BLOCK);
    zip->out = malloc(BLOCK);
    zip->archive = archive_write_new();
    if (!zip->in || !zip->out || !zip->archive) {
        wf_zip_free(zip);
        fail(result, WF_ZIP_ERR_ARCHIVE, ENOMEM, "out of memory");
        return NULL;
    }
    hash_start(&zip->archive_hash, zip->keyed ? zip->mac_state : NULL);
    /* Stored, names converted to UTF-8 and flagged so whatever the locale (from the entries' UTF-8 names, which
     * need no conversion), and no block padding: the output goes through take_output as it comes. */
    if (archive_write_set_format_zip(zip->archive) != ARCHIVE_OK
        || archive_write_set_format_option(zip->archive, "zip", "compression", "store") != ARCHIVE_OK
        || archive_write_set_format_option(zip->archive, "zip", "hdrcharset", "UTF-8") != ARCHIVE_OK
        || archive_write_set_bytes_per_block(zip->archive, 0) != ARCHIVE_OK
        || archive_write_open(zip->archive, zip, NULL, take_output, NULL) != ARCHIVE_OK) {
        archive_failure(zip, result);
        wf_zip_free(zip);
        return NULL;
    }
    return zip;
}

/* The entry's header: every field the bytes depend on set here, none left to the machine. */
static struct archive_entry *entry_for(const char *name, uint64_t size) {
    struct archive_entry *entry = archive_entry_new();
    if (!entry) return NULL;
    archive_entry_set_pathname_utf8(entry, name);
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_perm(entry, 0644);
    archive_entry_set_size(entry, (la_int64_t)size);
    archive_entry_set_uid(entry, 0);
    archive_entry_set_gid(entry, 0);
    archive_entry_unset_mtime(entry);
    archive_entry_unset_atime(entry);
    archive_entry_unset_ctime(entry);
    archive_entry_unset_birthtime(entry);
    return entry;
}

/* The next block of the entry's file: filled whole (short reads happen) unless its end comes first. */
static ssize_t read_block(int source, uint8_t *block, size_t want, uint64_t offset) {
    size_t filled = 0;
    while (filled < want) {
        ssize_t n = pread(source, block + filled, want - filled, (off_t)(offset + filled));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) break;
        filled += (size_t)n;
    }
    return (ssize_t)filled;
}

wf_zip_status wf_zip_add(wf_zip *zip, const char *name, int source, uint64_t size, uint8_t hash[WF_ZIP_HASH_BYTES],
                         wf_zip_result *result) {
    fail(result, WF_ZIP_OK, 0, NULL);
    struct archive_entry *entry = entry_for(name, size);
    if (!entry) return fail(result, WF_ZIP_ERR_ARCHIVE, ENOMEM, "out of memory");
    int status = archive_write_header(zip->archive, entry);
    archive_entry_free(entry);
    if (status != ARCHIVE_OK) return archive_failure(zip, result);
    zip_hash content;
    hash_start(&content, zip->keyed ? zip->mac_state : NULL);
    uint64_t offset = 0;
    while (offset < size) {
        size_t want = size - offset < BLOCK ? (size_t)(size - offset) : BLOCK;
        ssize_t got = read_block(source, zip->in, want, offset);
        if (got < 0) return fail(result, WF_ZIP_ERR_READ, errno, strerror(errno));
        if ((size_t)got < want) return fail(result, WF_ZIP_ERR_SHORT, 0, "the file ended before its size");
        hash_update(&content, zip->in, want);
        if (archive_write_data(zip->archive, zip->in, want) != (la_ssize_t)want) return archive_failure(zip, result);
        offset += want;
    }
    if (archive_write_finish_entry(zip->archive) != ARCHIVE_OK) return archive_failure(zip, result);
    hash_finish(&content, hash);
    return WF_ZIP_OK;
}

wf_zip_status wf_zip_close(wf_zip *zip, uint64_t *bytes, uint8_t hash[WF_ZIP_HASH_BYTES], wf_zip_result *result) {
    fail(result, WF_ZIP_OK, 0, NULL);
    wf_zip_status status = WF_ZIP_OK;
    if (archive_write_close(zip->archive) != ARCHIVE_OK) {
        status = archive_failure(zip, result);
    } else if (zip->filled > 0 && flush(zip) != 0) {
        status = archive_failure(zip, result);
    } else {
        *bytes = zip->written;
        hash_finish(&zip->archive_hash, hash);
    }
    wf_zip_free(zip);
    return status;
}
