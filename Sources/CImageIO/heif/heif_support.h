/* Internal: libheif behind Waterfall's conventions (a reader over wf_stream, limits set before any box is
 * parsed, errors as one line, nothing printed). */
#ifndef WF_HEIF_SUPPORT_H
#define WF_HEIF_SUPPORT_H

#include <libheif/heif.h>

#include "cimageio.h"
#include "heif_graph.h"
#include "stream.h"

/* libheif refuses images wider or taller than this while it parses (its own security limit; the pixel
 * cap is Waterfall's, checked on the display size). */
#define WF_HEIF_MAX_SIDE 32768

#define WF_HEIF_BLOCK 4096

/* An open HEIF (HEIC or AVIF) file: the context over the stream, and its primary image. */
typedef struct {
    struct heif_context *context;
    struct heif_image_handle *primary;
    wf_stream *stream;
    int64_t position;
    int64_t size;
    int header_only;
    /* libheif reads a box field by field (1 to 8 bytes a call): they come from this block, one pread each
     * WF_HEIF_BLOCK bytes. */
    uint8_t block[WF_HEIF_BLOCK];
    int64_t block_start;
    size_t block_length;
    /* Header-only: the payload of the first top-level `mdat` box (image data, never read). */
    int64_t mdat_start, mdat_end;
    /* Why the file never reached libheif (heif_graph.h), when it did not. */
    wf_heif_refusal refusal;
} wf_heif;

/* Reads longer than this are image data, in a header-only open (see wf_heif_open). */
#define WF_HEIF_HEADER_READ 4096

/* Opens `stream` and its primary image; 0 on success, else the error (`*error` is libheif's, or says the item
 * graph was refused before libheif saw the file: wf_heif_describe words it). Always call wf_heif_close.
 *
 * `header_only`: libheif 1.15 reads every item's data while it opens a file (the image data too, to look
 * for metadata in it), so a header read would cost the whole file. Then reads inside the `mdat` box and
 * reads longer than WF_HEIF_HEADER_READ are answered with zeros, never read: the boxes and the grid
 * descriptors that a header needs are in `meta` (libheif takes a grid's size from its `ispe`); `mdat`
 * holds the coded images and the Exif, which a header does not use. Such a context must not be used to
 * decode or to read metadata. */
int wf_heif_open(wf_heif *heif, wf_stream *stream, int header_only, struct heif_error *error);
void wf_heif_close(wf_heif *heif);

/* The header of the top-level box at `at`: its type, its declared length (0: to the end of the file) and
 * the header's own size (8, or 16 with a 64-bit length). 0 when the header cannot be read. One reader for
 * the three walks over a file's top-level boxes (the box header reader, mdat for a header-only open, and
 * where a cut file ends). */
int wf_heif_box_header(wf_stream *stream, int64_t at, uint32_t *type, uint64_t *length, unsigned *header_size);

/* The status a libheif error stands for. */
wf_status wf_heif_status(struct heif_error error);

/* An error of `heif` as one line, "truncated HEIF: …" or "corrupt HEIF: …" (`name` is "HEIF" or "AVIF"),
 * and its status: a file that ends inside one of its boxes is truncated whatever libheif says. */
void wf_heif_describe(const wf_heif *heif, struct heif_error error, const char *name, char *text, size_t size,
                      wf_status *status);

#endif
