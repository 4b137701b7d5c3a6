/* Internal: a decoded image, as interleaved samples or as a JPEG's YCbCr planes (raster.c), and what is
 * made of it: smaller sizes, the upright turn, the mean colour, the sketch (sketch.c). */
#ifndef WF_RASTER_H
#define WF_RASTER_H

#include <stddef.h>
#include <stdint.h>

#include "resample.h"

/* One 8-bit plane of an image, rows packed: Y, Cb or Cr (JPEG's full-range YCbCr) or gray. A JPEG decoded
 * in its own YCbCr is resampled, turned and encoded as planes, never converted to RGB and back. */
typedef struct {
    uint8_t *pixels;
    uint32_t width, height;
} wf_plane;

typedef struct {
    uint32_t width, height;
    int channels;       /* interleaved: 1-4, alpha last; planar: 3 */
    int planar;         /* planes[0] Y width × height, planes[1..2] Cb, Cr at 4:2:0 (wf_raster_chroma_size) */
    int orientation;    /* the EXIF-numbered turn that makes it upright, still to be applied */
    uint8_t *pixels;    /* interleaved */
    wf_plane planes[3]; /* planar */
} wf_raster;

void wf_raster_chroma_size(uint32_t width, uint32_t height, uint32_t *chroma_width, uint32_t *chroma_height);
/* The axes on which a chroma plane whose samples span step_x × step_y pixels of a width × height image is
 * filtered into the 4:2:0 chroma of out_width × out_height, to be turned by `orientation` afterwards. */
void wf_chroma_axes(uint32_t width, uint32_t height, uint32_t step_x, uint32_t step_y, uint32_t out_width,
                    uint32_t out_height, int orientation, wf_axis *x, wf_axis *y);
/* `out` is `in` resampled to width × height; 0, or -1 when out of memory (nothing to free). */
int wf_raster_resample(const wf_raster *in, uint32_t width, uint32_t height, wf_raster *out);
/* `out` is `in` turned upright by its `orientation`, sharing whatever did not need turning; release it with
 * wf_raster_release_turned. 0, or -1 when out of memory (nothing to release). */
int wf_raster_orient(const wf_raster *in, wf_raster *out);
void wf_raster_release_turned(const wf_raster *original, wf_raster *turned);
/* The mean colour as RGB, weighted by alpha; 0 when nothing is opaque. */
int wf_raster_average(const wf_raster *r, uint8_t rgb[3]);
/* The mean colour of each cell of a columns × rows grid over the raster (as stored, not turned), row by row,
 * 3 samples a cell, into `rgb`; 1, 0 when a cell has nothing opaque, -1 when the grid is finer than the
 * raster or memory ran out. */
int wf_raster_grid(const wf_raster *r, uint32_t columns, uint32_t rows, uint8_t *rgb);
/* The sketch of an opaque still (sketch.c): its colours on a grid of WF_SKETCH_CELLS on the long side,
 * upright, as a PNG of at most `capacity` bytes; its length, or 0 when none was made. */
enum { WF_SKETCH_CELLS = 8 };
size_t wf_raster_sketch(const wf_raster *r, uint8_t *png, size_t capacity);
void wf_raster_free(wf_raster *r);

#endif
