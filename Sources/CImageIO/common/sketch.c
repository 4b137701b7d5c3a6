/*
 * A photo's sketch: the mean colours of a small grid over it, upright, as a PNG of a couple of hundred bytes
 * that a page can carry inline. Scaled up by the browser (smoothly, as every engine scales a small image),
 * it is the photo's light and colour where its tile will be, shown before any image arrives.
 */
#include "orient.h"
#include "png_format.h"
#include "raster.h"

#include <stdlib.h>
#include <string.h>

/* Cells on the short side: the long side's WF_SKETCH_CELLS in the photo's proportion, at least one. */
static uint32_t short_side(uint32_t longer, uint32_t shorter) {
    uint32_t cells = (uint32_t)(((uint64_t)shorter * WF_SKETCH_CELLS * 2 + longer) / (2 * (uint64_t)longer));
    return cells < 1 ? 1 : cells;
}

size_t wf_raster_sketch(const wf_raster *r, uint8_t *png, size_t capacity) {
    uint32_t width = r->planar ? r->planes[0].width : r->width, height = r->planar ? r->planes[0].height : r->height;
    uint32_t columns = width >= height ? WF_SKETCH_CELLS : short_side(height, width);
    uint32_t rows = width >= height ? short_side(width, height) : WF_SKETCH_CELLS;
    uint8_t grid[WF_SKETCH_CELLS * WF_SKETCH_CELLS * 3];
    if (wf_raster_grid(r, columns, rows, grid) != 1) return 0;
    uint8_t *upright = wf_orient(grid, &columns, &rows, 3, r->orientation >= 1 && r->orientation <= 8 ? r->orientation : 1);
    if (!upright) return 0;
    wf_encoded encoded = {0};
    char message[200];
    int warnings = 0, icc_kept = 0;
    wf_derive_status status = wf_write_png(&encoded, upright, columns, rows, 3, NULL, 0, &warnings, &icc_kept,
                                           message, sizeof message);
    if (upright != grid) free(upright);
    size_t length = status == WF_DERIVE_OK && encoded.length <= capacity ? encoded.length : 0;
    if (length) memcpy(png, encoded.bytes, length);
    wf_encoded_free(&encoded);
    return length;
}
