/*
 * Internal: the libjpeg plumbing every JPEG path needs, in one place. A setjmp error manager that never
 * prints or exits, and a source manager over a wf_stream (block reads, seeking skips, a fake EOI and
 * JWRN_JPEG_EOF at the end of the data, as libjpeg's own sources do). Used by the header reader and
 * the decoder alike.
 */
#ifndef WF_JPEG_SUPPORT_H
#define WF_JPEG_SUPPORT_H

#include <stdio.h> /* jpeglib.h needs FILE and size_t first */
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include <jpeglib.h>
#include <jerror.h> /* after jpeglib.h: its message list depends on jconfig.h's settings */

#include "stream.h"

/* Why a wf_jpeg_fail or a fatal warning ended the work; 0 means libjpeg's own error_exit. */
enum {
    WF_JPEG_STOP_LIBRARY = 0,
    WF_JPEG_STOP_TRUNCATED, /* the data ended before the image did (JWRN_JPEG_EOF while strict) */
    WF_JPEG_STOP_DAMAGED,   /* a corrupt-data warning while strict: the pixels would be garbage */
    WF_JPEG_STOP_LIMIT,     /* one of our limits (scans, memory) */
    WF_JPEG_STOP_UNSUPPORTED /* something valid we do not handle (a colour space) */
};

typedef struct {
    struct jpeg_error_mgr manager; /* first: libjpeg hands back a pointer to it */
    jmp_buf jump;
    int strict;                    /* 1: warnings that mean damaged pixels stop the decode */
    int stop;                      /* WF_JPEG_STOP_* */
    char message[JMSG_LENGTH_MAX > 200 ? JMSG_LENGTH_MAX : 200];
} wf_jpeg_error;

/* Installs the silent error manager. The caller arms `jump` with setjmp before any libjpeg call. */
struct jpeg_error_mgr *wf_jpeg_error_init(wf_jpeg_error *error);

/* Formats a message and longjmps to the armed setjmp. Only call it from inside libjpeg callbacks or code
 * running under that setjmp. */
void wf_jpeg_fail(j_common_ptr info, int stop, const char *format, ...) __attribute__((format(printf, 3, 4), noreturn));

typedef struct {
    struct jpeg_source_mgr manager; /* first */
    wf_stream *stream;
    int reached_end;                /* the fake EOI has been served */
} wf_jpeg_source;

void wf_jpeg_source_init(wf_jpeg_source *source, wf_stream *stream);

/* Copies `length` bytes out of the source, or skips them when `destination` is NULL. A copy that runs
 * past the end of the data is JERR_INPUT_EOF. For marker processors. */
void wf_jpeg_take(j_decompress_ptr info, uint8_t *destination, size_t length);

#endif
