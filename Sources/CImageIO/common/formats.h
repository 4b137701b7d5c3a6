/*
 * Internal: the formats Waterfall reads, one row each (formats.c): how a file of the format is known by its
 * first bytes, and the functions that read its header and metadata. The shared code (sniff.c, header.c,
 * metadata.c) finds a format's functions here, never by naming the format.
 */
#ifndef WF_FORMATS_H
#define WF_FORMATS_H

#include "cimageio.h"
#include "stream.h"

typedef struct {
    wf_format format;
    /* Whether the file's first bytes (`length` of them, as many as wf_sniff was given) are this format's. */
    int (*sniff)(const uint8_t *bytes, size_t length);
    /* The header from the stream's start (wf_read_header_*: `out` reset, the format set). */
    void (*read_header)(wf_stream *stream, wf_header *out);
    /* The metadata from the stream's start (wf_read_metadata_*); NULL when the format carries none (GIF): the
     * read succeeds with nothing. */
    void (*read_metadata)(wf_stream *stream, wf_metadata *out);
} wf_format_entry;

/* The row of `format`; NULL for a format Waterfall does not read. */
const wf_format_entry *wf_format_entry_of(wf_format format);

/* The format of the first row whose sniff knows the bytes; WF_FORMAT_UNKNOWN when none does. */
wf_format wf_sniff_read_format(const uint8_t *bytes, size_t length);

#endif
