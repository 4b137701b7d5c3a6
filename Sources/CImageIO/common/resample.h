/* Internal: Lanczos-3 resampling, streaming: rows in, one at a time; the output image at the end
 * (resample.c). */
#ifndef WF_RESAMPLE_H
#define WF_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t start;  /* first source sample */
    uint32_t count;  /* taps */
    uint32_t offset; /* into the weight array */
} wf_taps;

typedef struct {
    uint32_t in_width, in_height, out_width, out_height;
    int channels;
    int alpha;     /* channels 2 and 4: premultiplied while filtering */
    int identity;  /* same size: rows go straight to the output */
    wf_taps *x_taps, *y_taps;
    float *x_weights, *y_weights;
    uint32_t slots;      /* ring of source rows, as many as the widest vertical filter */
    uint8_t *ring_bytes; /* opaque sources: the decoder writes straight into the ring */
    float *ring_floats;  /* alpha sources: premultiplied copies of the rows */
    uint8_t *staging;    /* alpha sources: where the decoder writes */
    float *column;       /* a vertically filtered row: in_width × channels (+ padding) */
    float *line;         /* a horizontally filtered row: out_width × channels (+ padding) */
    /* Opaque sources (gray, RGB) are filtered in fixed point instead (resample_kernels.h). */
    int kernels;              /* which kernels run: WF_KERNELS_* */
    int16_t *y_fixed;         /* Q14, at y_taps' offsets */
    int16_t *x_fixed;         /* Q14, x_stride per output column, zero-padded */
    uint32_t x_stride;
    uint32_t *x_starts;
    const uint8_t **rows;     /* the ring rows of the output row being made */
    int16_t *column_fixed;    /* in_width × channels, Q6 */
    int16_t *planes;          /* the column split by channel, each plane_length long (zero-padded) */
    size_t plane_length;
    uint8_t *output;     /* out_width × out_height × channels */
    uint32_t rows_in, rows_out;
} wf_resampler;

/* 0 on success, -1 when out of memory (everything freed). */
int wf_resampler_init(wf_resampler *r, uint32_t in_width, uint32_t in_height, uint32_t out_width,
                      uint32_t out_height, int channels);
/* Where the output samples of one axis sit on the source: `scale` source samples per output sample (0: in /
 * out), the output grid moved by `shift` output samples. A chroma plane is filtered at its image's scale,
 * which its rounded-up size only approximates, and moved to where its samples land once the image is
 * turned (raster.c). */
typedef struct {
    double scale, shift;
} wf_axis;

int wf_resampler_init_mapped(wf_resampler *r, uint32_t in_width, uint32_t in_height, uint32_t out_width,
                             uint32_t out_height, int channels, wf_axis x, wf_axis y);
uint8_t *wf_resample_image_mapped(const uint8_t *image, uint32_t width, uint32_t height, int channels,
                                  uint32_t out_width, uint32_t out_height, wf_axis x, wf_axis y, int portable);
uint8_t *wf_resampler_row(wf_resampler *r);
void wf_resampler_commit(wf_resampler *r);
/* Every row of an image already in memory (in_width × in_height × channels), as row() and commit() would
 * take them one by one, but an opaque image's rows are read where they are instead of copied in. */
void wf_resampler_feed_image(wf_resampler *r, const uint8_t *image);
/* Hands over the output (out_height rows, once every source row is in); the resampler keeps nothing. */
uint8_t *wf_resampler_take_output(wf_resampler *r);
void wf_resampler_free(wf_resampler *r);

#endif
