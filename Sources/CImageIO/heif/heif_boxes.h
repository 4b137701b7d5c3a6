/* Internal: a HEIF's display size read straight from its `meta` box, for the header reader.
 *
 * libheif parses every box of every item into objects (and, in 1.15, reads every item's data) before it
 * answers anything: about 400 µs for an iPhone photo's 50 items, a hundred times the I/O. A header needs
 * five boxes of one item. So the plain cases phones and encoders write (an hvc1, av01 or grid primary
 * image with ispe, irot, imir, whole-pixel clap, an alpha auxl image) are answered here from one read;
 * anything else (unknown essential properties, derived images, limits, damage) is left to libheif, which
 * stays the authority: it decides every file this reader declines. Where both answer, they agree (the
 * sanitizer driver and the fuzzer check it). Damage outside the boxes read here (a broken `dinf`, an item
 * without data) is found when the image is decoded, with libheif's reason, as for a JPEG whose scan
 * data is damaged. */
#ifndef WF_HEIF_BOXES_H
#define WF_HEIF_BOXES_H

#include <stdint.h>

#include "stream.h"

typedef struct {
    uint32_t width, height; /* display size: ispe with clap, irot and imir applied */
    int alpha;
    int bit_depth;
} wf_heif_facts;

/* 1 and `facts` when the file is plain enough to answer from its boxes; 0 when libheif must decide. */
int wf_heif_quick_facts(wf_stream *stream, int64_t size, wf_heif_facts *facts);

#endif
