/*
 * Internal: libtiff behind Waterfall's conventions. A TIFF is opened over the one descriptor the build
 * holds (wf_stream, read with pread; never mapped), with per-handle error and warning handlers that print
 * nothing (the first error becomes the one-line reason), a cap on any single allocation libtiff makes, and
 * the strip and tile offsets loaded on demand ("O"), so a header claiming a million strips costs nothing
 * until a strip is read. Only IFD0 is ever read: no TIFFReadDirectory, no TIFFNumberOfDirectories, no
 * SubIFDs, so a multi-page file is its first page and an IFD chain that loops is never followed.
 */
#ifndef WF_TIFF_SUPPORT_H
#define WF_TIFF_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <tiffio.h>

#include "cimageio.h"
#include "stream.h"

/* The largest single allocation libtiff may make while reading a header (tags: a colour profile, XMP,
 * a strip offset table): libtiff 4.5 has no cumulative cap (TIFFOpenOptionsSetMaxCumulatedMemAlloc arrived
 * in 4.6), so this and the lazy strip tables are what bound a header read. */
#define WF_TIFF_HEADER_MAX_ALLOC ((uint64_t)64 << 20)

typedef struct {
    TIFF *tif;
    wf_stream *stream;
    uint64_t position;
    int64_t size;
    int reached_end;   /* a read stopped at the end of the file: truncated */
    int32_t warnings;  /* libtiff's warnings, counted, never printed */
    char message[160]; /* libtiff's first error, for the one-line reason */
} wf_tiff;

/* Opens IFD0 of the file behind `stream` (from its start), libtiff allocating at most `max_alloc` bytes at
 * once. 0, or -1 with `t->message` saying why (then wf_tiff_status tells truncated from corrupt). Call
 * wf_tiff_close either way. */
int wf_tiff_open(wf_tiff *t, wf_stream *stream, uint64_t max_alloc);
void wf_tiff_close(wf_tiff *t);

/* Whether libtiff's failure came from a file that ends early (WF_ERR_TRUNCATED) or a damaged one. */
wf_status wf_tiff_failure(const wf_tiff *t);

/* What Waterfall reads of IFD0, from its tags, once wf_tiff_check accepted it. */
typedef struct {
    uint32_t width, height;
    int orientation; /* 1-8 (anything else: 1) */
    int gray;        /* MinIsBlack or MinIsWhite: derived images stay gray */
    int alpha;       /* an extra sample that is alpha (associated, unassociated, or unspecified past 3 samples) */
    int channels;    /* what the decoder hands over: 1 gray, 2 gray + alpha, 3 colour, 4 colour + alpha */
    int bits;        /* bits a sample as stored */
    int cmyk;        /* Photometric Separated: inks, made RGB; its profile describes ink and is dropped */
} wf_tiff_layout;

/* Refuses what Waterfall does not read, before any pixel: a DNG (tag 50706: its IFD0 is a small preview), a
 * reduced-resolution IFD0, a compression off the allow-list (none, LZW, Deflate, PackBits, JPEG, ZSTD, WebP:
 * old-style JPEG, JBIG, LERC, the fax and Pixar/SGI codecs are refused), floating-point or signed samples,
 * more than 5 samples a pixel or a sample size other than 1, 2, 4, 8 or 16 bits, and what libtiff's RGBA
 * route cannot convert. WF_OK with `layout` filled, or WF_ERR_UNSUPPORTED / WF_ERR_CORRUPT with a one-line
 * `reason` ("unsupported TIFF compression: old-style JPEG"). */
wf_status wf_tiff_check(wf_tiff *t, wf_tiff_layout *layout, char *reason, size_t size);

#endif
