/*
 * The albums' ZIP writer (archive/zip_writer.c) under the sanitizers (make sanitize): files of every size
 * around its 1 MiB blocks (empty, a word, a block less one, a block, a block and one, several) and the files
 * named on the command line are archived twice, with the plain hash and keyed; each entry's hash is the
 * file's (wf_hash_fd, wf_mac_fd), the archive's hash and size are the archive file's, two runs give the same
 * bytes, and libarchive's reader finds every entry, named as given (UTF-8 included), holding the file's
 * bytes. A file shorter than its size, a source that cannot be read and a disk that is full (/dev/full) are
 * each the failure they are, with nothing leaked.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cimageio.h"
#include "cimageio_keyed.h"
#include "cimageio_zip.h"

static int failures;

static void expect(int condition, const char *what, const char *name) {
    if (condition) return;
    fprintf(stderr, "check_zip: %s (%s)\n", what, name);
    failures++;
}

typedef struct {
    const char *path;
    const char *name;
} source;

static void file_hash(int fd, const uint8_t *prepared, uint8_t out[WF_ZIP_HASH_BYTES]) {
    if (prepared) {
        wf_mac_fd(prepared, fd, out);
    } else {
        uint64_t words[2];
        wf_hash_fd(fd, words);
        memcpy(out, words, sizeof words);
    }
}

static uint8_t *slurp(int fd, size_t *length) {
    struct stat info;
    fstat(fd, &info);
    uint8_t *bytes = malloc((size_t)info.st_size + 1);
    *length = (size_t)pread(fd, bytes, (size_t)info.st_size, 0);
    return bytes;
}

/* Every entry of the archive, in order: named as given, holding the source's bytes. */
static void read_back(const char *archive_path, const source *sources, size_t count) {
    struct archive *reader = archive_read_new();
    archive_read_support_format_zip(reader);
    expect(archive_read_open_filename(reader, archive_path, 1 << 16) == ARCHIVE_OK, "libarchive cannot open it", archive_path);
    struct archive_entry *entry;
    size_t index = 0;
    while (archive_read_next_header(reader, &entry) == ARCHIVE_OK && index < count) {
        const char *name = archive_entry_pathname_utf8(entry);
        expect(name && strcmp(name, sources[index].name) == 0, "an entry's name is not the one given", sources[index].name);
        int fd = open(sources[index].path, O_RDONLY);
        size_t length;
        uint8_t *expected = slurp(fd, &length);
        close(fd);
        uint8_t *got = malloc(length + 1);
        la_ssize_t n = archive_read_data(reader, got, length + 1);
        expect(n == (la_ssize_t)length && memcmp(got, expected, length) == 0, "an entry's bytes are not the file's", sources[index].name);
        free(got);
        free(expected);
        index++;
    }
    if (index != count) fprintf(stderr, "check_zip: %zu of %zu entries read: %s\n", index, count, archive_error_string(reader));
    expect(index == count, "entries are missing", archive_path);
    archive_read_free(reader);
}

/* Archives the sources into `out_path`; returns the archive's bytes (for comparing two runs). */
static uint8_t *archive_all(const char *out_path, const source *sources, size_t count, const uint8_t *prepared, size_t *length) {
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    wf_zip_result result;
    wf_zip *zip = wf_zip_open(out, prepared, &result);
    expect(zip != NULL, "wf_zip_open failed", result.message);
    for (size_t i = 0; zip && i < count; i++) {
        int fd = open(sources[i].path, O_RDONLY);
        struct stat info;
        fstat(fd, &info);
        uint8_t hash[WF_ZIP_HASH_BYTES], reference[WF_ZIP_HASH_BYTES];
        wf_zip_status status = wf_zip_add(zip, sources[i].name, fd, (uint64_t)info.st_size, hash, &result);
        expect(status == WF_ZIP_OK, "wf_zip_add failed", sources[i].name);
        file_hash(fd, prepared, reference);
        expect(memcmp(hash, reference, sizeof hash) == 0, "an entry's hash is not the file's", sources[i].name);
        close(fd);
    }
    uint64_t bytes = 0;
    uint8_t hash[WF_ZIP_HASH_BYTES], reference[WF_ZIP_HASH_BYTES];
    expect(zip && wf_zip_close(zip, &bytes, hash, &result) == WF_ZIP_OK, "wf_zip_close failed", out_path);
    close(out);
    int in = open(out_path, O_RDONLY);
    file_hash(in, prepared, reference);
    uint8_t *all = slurp(in, length);
    close(in);
    expect(bytes == *length, "the archive's size is not the file's", out_path);
    expect(memcmp(hash, reference, sizeof hash) == 0, "the archive's hash is not the file's", out_path);
    return all;
}

static void check_failures(const char *folder, const char *some_file) {
    char path[4096];
    wf_zip_result result;
    uint8_t hash[WF_ZIP_HASH_BYTES];
    snprintf(path, sizeof path, "%s/short.zip", folder);
    int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    wf_zip *zip = wf_zip_open(out, NULL, &result);
    int fd = open(some_file, O_RDONLY);
    struct stat info;
    fstat(fd, &info);
    expect(wf_zip_add(zip, "short.jpg", fd, (uint64_t)info.st_size + 1, hash, &result) == WF_ZIP_ERR_SHORT, "a short file is not short", some_file);
    wf_zip_free(zip);
    close(fd);
    close(out);

    out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    zip = wf_zip_open(out, NULL, &result);
    fd = open(some_file, O_WRONLY | O_APPEND);
    expect(wf_zip_add(zip, "unreadable.jpg", fd, 10, hash, &result) == WF_ZIP_ERR_READ && result.error == EBADF,
           "an unreadable source is not a read error", some_file);
    wf_zip_free(zip);
    close(fd);
    close(out);

    out = open("/dev/full", O_WRONLY);
    if (out < 0) return;
    zip = wf_zip_open(out, NULL, &result);
    fd = open(some_file, O_RDONLY);
    wf_zip_status status = wf_zip_add(zip, "full.jpg", fd, (uint64_t)info.st_size, hash, &result);
    uint64_t bytes;
    if (status == WF_ZIP_OK) {
        status = wf_zip_close(zip, &bytes, hash, &result);
    } else {
        wf_zip_free(zip);
    }
    expect(status == WF_ZIP_ERR_WRITE && result.error == ENOSPC, "a full disk is not a write error", result.message);
    close(fd);
    close(out);
}

static void make_file(const char *path, size_t size, unsigned seed) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    uint8_t block[4096];
    for (size_t done = 0; done < size;) {
        size_t n = size - done < sizeof block ? size - done : sizeof block;
        for (size_t i = 0; i < n; i++) block[i] = (uint8_t)((done + i) * 2654435761u >> 13 ^ seed);
        if (write(fd, block, n) != (ssize_t)n) break;
        done += n;
    }
    close(fd);
}

int main(int argc, char **argv) {
    if (wf_crypto_ready() != 0) return 1;
    char folder[] = "/tmp/check_zip_XXXXXX";
    if (!mkdtemp(folder)) return 1;
    static const size_t sizes[] = {0, 1, 8, 13, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 5};
    enum { MADE = sizeof sizes / sizeof sizes[0] };
    static const char *names[MADE] = {"empty", "one byte", "a word.bin", "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac.jpg",
                                      "block less one", "block", "block and one", "several blocks"};
    size_t count = MADE + (size_t)(argc - 1);
    source *sources = calloc(count, sizeof *sources);
    char (*paths)[4096] = calloc(MADE, sizeof *paths);
    for (size_t i = 0; i < MADE; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/made-%zu", folder, i);
        make_file(paths[i], sizes[i], (unsigned)i);
        sources[i] = (source){paths[i], names[i]};
    }
    for (int i = 1; i < argc; i++) {
        const char *slash = strrchr(argv[i], '/');
        sources[MADE + (size_t)(i - 1)] = (source){argv[i], slash ? slash + 1 : argv[i]};
    }
    uint8_t master[WF_KEY_BYTES], key[WF_KEY_BYTES], prepared[WF_MAC_STATE_BYTES];
    for (int i = 0; i < WF_KEY_BYTES; i++) master[i] = (uint8_t)(i * 37 + 11);
    if (wf_key_derive(key, 1, master) != 0) return 1;
    wf_mac_prepare(prepared, key);

    char first[4096], second[4096];
    snprintf(first, sizeof first, "%s/first.zip", folder);
    snprintf(second, sizeof second, "%s/second.zip", folder);
    size_t a_length, b_length;
    uint8_t *a = archive_all(first, sources, count, NULL, &a_length);
    uint8_t *b = archive_all(second, sources, count, prepared, &b_length);
    expect(a_length == b_length && memcmp(a, b, a_length) == 0, "two runs (plain and keyed) wrote other bytes", first);
    /* Written in the C locale (this program's, as the build's), read back in a UTF-8 one: libarchive's reader
     * gives a name only in the locale's own characters. */
    if (!setlocale(LC_CTYPE, "C.UTF-8")) fprintf(stderr, "check_zip: no C.UTF-8 locale; reading back in C\n");
    read_back(first, sources, count);
    free(a);
    free(b);
    check_failures(folder, paths[MADE - 1]);

    for (size_t i = 0; i < MADE; i++) unlink(paths[i]);
    unlink(first);
    unlink(second);
    char path[4096];
    snprintf(path, sizeof path, "%s/short.zip", folder);
    unlink(path);
    rmdir(folder);
    free(paths);
    free(sources);
    printf("check_zip: %zu entries archived plain and keyed, read back; %d failure%s\n", count, failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
