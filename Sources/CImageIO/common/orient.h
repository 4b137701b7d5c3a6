/* Internal: orientation, applied to the small image (orient.c). */
#ifndef WF_ORIENT_H
#define WF_ORIENT_H

#include <stdint.h>

/* A new buffer with `pixels` turned upright for EXIF `orientation`; NULL when out of memory. Orientation 1
 * returns `pixels` itself. `width`/`height` become the upright size. */
uint8_t *wf_orient(uint8_t *pixels, uint32_t *width, uint32_t *height, int channels, int orientation);
/* The one orientation that turns as `first` and then `second` do; 0 when out of memory. */
int wf_orientation_then(int first, int second);

#endif
