/* Internal: the pieces of wf_derive that other files use: the box fit and the animated path. */
#ifndef WF_DERIVE_H
#define WF_DERIVE_H

#include "cimageio.h"

/* An animated GIF or WebP (the open file `source`) as an animated WebP fitting the request's box (every frame
 * resampled), with no metadata, into `output`. `out` is filled as wf_derive_set fills it (output_format
 * WF_FORMAT_WEBP). */
void wf_write_animated_webp(int source, const wf_header *header, const wf_derive_request *request,
                            wf_encoded *output, wf_derive_result *out);

/* The largest size that fits the box (0 = unbounded on that axis), never larger than the image; exact on the
 * limiting axis, the other rounded to nearest and at least 1. */
void wf_fit(uint32_t width, uint32_t height, uint32_t max_width, uint32_t max_height, uint32_t *out_width,
            uint32_t *out_height);

#endif
