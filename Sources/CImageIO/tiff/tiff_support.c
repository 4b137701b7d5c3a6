/*
 * libtiff over wf_stream (tiff_support.h): client procedures that read at offsets with pread, handlers that
 * keep libtiff's first error and print nothing, and the checks that decide whether IFD0 is read at all.
 */
#include "tiff_support.h"
#include "source_file.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- client procedures: the one descriptor, read at offsets, never written or mapped ---- */

static tmsize_t on_read(thandle_t handle, void *buffer, tmsize_t size) {
    wf_tiff *t = handle;
    if (size <= 0) return 0;
    size_t got = wf_stream_read_at(t->stream, t->position, buffer, (size_t)size);
    t->position += got;
    if (got < (size_t)size && t->stream->read_errno == 0) t->reached_end = 1;
    return (tmsize_t)got;
}

static tmsize_t on_write(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle, (void)buffer, (void)size;
    return -1;
}

static toff_t on_seek(thandle_t handle, toff_t offset, int whence) {
    wf_tiff *t = handle;
    uint64_t base = whence == SEEK_CUR ? t->position : whence == SEEK_END ? (uint64_t)t->size : 0;
    if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END) return (toff_t)-1;
    /* libtiff passes a negative move as a huge unsigned one; the sum wraps to the right place. */
    uint64_t position = base + (uint64_t)offset;
    if (position > (uint64_t)INT64_MAX) return (toff_t)-1;
    t->position = position;
    return (toff_t)position;
}

static int on_close(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t on_size(thandle_t handle) { return (toff_t)((wf_tiff *)handle)->size; }

/* ---- handlers: the first error kept on one line, warnings counted, nothing printed ---- */

static int on_error(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif, (void)module;
    wf_tiff *t = user;
    if (t->message[0] != '\0') return 1;
    vsnprintf(t->message, sizeof t->message, format, args);
    for (char *c = t->message; *c; c++)
        if (*c == '\n' || *c == '\r' || *c == '\t') *c = ' ';
    wf_lowercase_first(t->message);
    return 1; /* handled: libtiff's process-wide handler is not called */
}

static int on_warning(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif, (void)module, (void)format, (void)args;
    ((wf_tiff *)user)->warnings++;
    return 1;
}

/* A few of libtiff's messages are raised without a handle (a codec's registration); its process-wide
 * handlers print to stderr, so they are cleared once. Nothing else in Waterfall uses libtiff. */
static pthread_once_t quiet_once = PTHREAD_ONCE_INIT;

static void quiet_process_handlers(void) {
    TIFFSetErrorHandler(NULL);
    TIFFSetWarningHandler(NULL);
}

/* A classic TIFF whose IFD0 offset is 0 or whose IFD0 has no entries, worded here (libtiff's words for it
 * are about memory). 0 when libtiff should see the file. */
static int no_first_directory(wf_tiff *t) {
    uint8_t header[8], count[2];
    if (wf_stream_read_at(t->stream, 0, header, 8) != 8 || (header[2] != 42 && header[3] != 42)) return 0;
    int big = header[0] == 'M';
    uint32_t at = big ? (uint32_t)header[4] << 24 | (uint32_t)header[5] << 16 | (uint32_t)header[6] << 8 | header[7]
                      : (uint32_t)header[7] << 24 | (uint32_t)header[6] << 16 | (uint32_t)header[5] << 8 | header[4];
    if (at == 0) {
        snprintf(t->message, sizeof t->message, "it has no first directory (IFD0 at offset 0)");
        return 1;
    }
    if (wf_stream_read_at(t->stream, at, count, 2) == 2 && count[0] == 0 && count[1] == 0) {
        snprintf(t->message, sizeof t->message, "its first directory (IFD0) has no entries");
        return 1;
    }
    return 0;
}

int wf_tiff_open(wf_tiff *t, wf_stream *stream, uint64_t max_alloc) {
    memset(t, 0, sizeof *t);
    t->stream = stream;
    t->size = wf_stream_size(stream);
    pthread_once(&quiet_once, quiet_process_handlers);
    if (t->size < 0) {
        snprintf(t->message, sizeof t->message, "a TIFF is read at offsets, and this file cannot seek");
        return -1;
    }
    if (no_first_directory(t)) return -1;
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) {
        snprintf(t->message, sizeof t->message, "out of memory");
        return -1;
    }
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_alloc);
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, t);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, t);
    /* r: read; m: never map the file; O: strip and tile offsets loaded on demand, a few at a time. */
    t->tif = TIFFClientOpenExt("TIFF", "rmO", (thandle_t)t, on_read, on_write, on_seek, on_close, on_size, NULL, NULL,
                               options);
    TIFFOpenOptionsFree(options);
    if (t->tif) return 0;
    if (t->message[0] == '\0') snprintf(t->message, sizeof t->message, "libtiff cannot read its first directory");
    return -1;
}

void wf_tiff_close(wf_tiff *t) {
    if (t->tif) TIFFClose(t->tif);
    t->tif = NULL;
}

wf_status wf_tiff_failure(const wf_tiff *t) {
    if (t->stream->read_errno != 0) return WF_ERR_IO;
    return t->reached_end ? WF_ERR_TRUNCATED : WF_ERR_CORRUPT;
}
