/* Internal: a HEIF's item graph checked from its boxes before libheif (or libavif) sees the file.
 *
 * libheif 1.15 follows derived images (`dimg`: a grid's tiles, an `iden` or `iovl` input) and auxiliary images
 * (`auxl`: an alpha plane) by recursion, without looking for rings: a 300-byte file whose grid names a grid
 * that names the first makes it run off its stack (SIGSEGV), and an alpha image that is the alpha of its own
 * master makes it loop forever. It also matches every item against every `iloc`, `ipma` and `iref` entry, so
 * its parse grows with the square of the items (19,000 items: 25 s). So every path that hands a file to
 * libheif (header, metadata, decode, and libavif's decode) first walks the boxes here, in time linear in
 * the boxes, and refuses:
 *
 * - a ring of image items (derived or auxiliary, an item naming itself included): "corrupt";
 * - more than WF_HEIF_MAX_ITEMS items, WF_HEIF_MAX_REFERENCES references or property associations, derived
 *   images nested deeper than WF_HEIF_MAX_DEPTH, or a picture made of more than WF_HEIF_MAX_DECODED_IMAGES
 *   images: "unsupported" (Waterfall's limits, far above what cameras write).
 *
 * What it cannot read (a cut or damaged box) it leaves to libheif, which refuses such files itself.
 */
#ifndef WF_HEIF_GRAPH_H
#define WF_HEIF_GRAPH_H

#include <stdint.h>

#include "cimageio.h"
#include "stream.h"

/* An iPhone photo holds about 50 items (a 48-tile grid, its thumbnail, Exif, XMP, depth and gain maps); a
 * 48-megapixel one about 220 (192 tiles). libheif itself now stops at 1,000 (its max_items, 1.18 on). At
 * 2,048 items libheif 1.15's quadratic parse costs about 0.3 s a file. */
#define WF_HEIF_MAX_ITEMS 2048u
/* Each tile is one `dimg` reference; the rest (thumbnails, metadata, alpha) a few a photo. */
#define WF_HEIF_MAX_REFERENCES 8192u
/* Derived images over derived images: a grid is 1, an `iden` over a grid with an alpha grid 3. */
#define WF_HEIF_MAX_DEPTH 6u
/* Images one decode of the primary decodes, itself and every tile included, each counted as often as it is
 * used (a grid of grids naming one tile thousands of times is counted, not decoded): an iPhone photo is 49
 * (a grid of 48 tiles), a 48-megapixel one with an alpha grid 386, a 250-megapixel grid of 512-pixel tiles
 * 955. */
#define WF_HEIF_MAX_DECODED_IMAGES 4096u
/* Top-level boxes, and children of `meta` and `iprp` (real files: under ten). */
#define WF_HEIF_MAX_BOXES 1024u

typedef struct {
    wf_status status;   /* WF_ERR_CORRUPT (a ring) or WF_ERR_UNSUPPORTED (over a limit) */
    char message[160];  /* one line, without the "corrupt HEIF: " that wf_heif_describe puts first */
} wf_heif_refusal;

/* 0 when every top-level `meta` box's items are within the limits and free of rings; -1 and `refusal` when
 * the file must not reach libheif. `size` is the stream's (wf_stream_size). Reads box headers, `pitm`, `iinf`,
 * `iref` and the `ipma` entry counts, nothing else. */
int wf_heif_check_graph(wf_stream *stream, int64_t size, wf_heif_refusal *refusal);

#endif
