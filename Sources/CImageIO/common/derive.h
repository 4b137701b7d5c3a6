/* Internal: the pieces wf_derive is built from. Decoders push rows into a sink; the sink resamples. */
#ifndef WF_DERIVE_H
#define WF_DERIVE_H

#include "cimageio.h"
#include "decode.h"
#include "stream.h"

void wf_decode_jpeg(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);
void wf_decode_png(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);
/* HEIC and AVIF: the primary image, transformations (clap, irot, imir) applied, 8-bit sRGB-encoded RGB(A)
 * (10-bit and HDR sources converted), its ICC profile (or one made from its nclx colour description). */
void wf_decode_heif(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);
/* AVIF by libavif, where it decodes the image as the libheif route would (8-bit, opaque, SDR, sRGB-like
 * or ICC): 1 when it did (`out` says how it went), 0 when the libheif route should (nothing sent to the
 * sink). */
int wf_decode_avif(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);
/* WebP: the still image, or an animation's first frame composed onto its canvas; RGB or RGBA. Honours
 * `scale_denom` (decoded straight to ceil(width / d) × ceil(height / d)). */
void wf_decode_webp(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);
/* GIF: the first frame composed onto the logical screen; RGBA. */
void wf_decode_gif(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);

/* An animated GIF or WebP (the open file `source`) as an animated WebP fitting the request's box (every frame
 * resampled), with no metadata, into `output`. `out` is filled as wf_derive_set fills it (output_format
 * WF_FORMAT_WEBP). */
void wf_write_animated_webp(int source, const wf_header *header, const wf_derive_request *request,
                            wf_encoded *output, wf_derive_result *out);

/* The largest size that fits the box (0 = unbounded on that axis), never larger than the image; exact on the
 * limiting axis, the other rounded to nearest and at least 1. */
void wf_fit(uint32_t width, uint32_t height, uint32_t max_width, uint32_t max_height, uint32_t *out_width,
            uint32_t *out_height);

/* Whether wf_derive decodes the format. */
int wf_is_decodable(wf_format format);

/* ---- Lanczos-3 resampling, streaming: rows in, one at a time; the output image at the end ---- */

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

/* ---- orientation, applied to the small image ---- */

/* A new buffer with `pixels` turned upright for EXIF `orientation`; NULL when out of memory. Orientation 1
 * returns `pixels` itself. `width`/`height` become the upright size. */
uint8_t *wf_orient(uint8_t *pixels, uint32_t *width, uint32_t *height, int channels, int orientation);
/* The one orientation that turns as `first` and then `second` do; 0 when out of memory. */
int wf_orientation_then(int first, int second);

/* One 8-bit plane of an image, rows packed: Y, Cb or Cr (JPEG's full-range YCbCr) or gray. A JPEG decoded
 * in its own YCbCr is resampled, turned and encoded as planes, never converted to RGB and back. */
typedef struct {
    uint8_t *pixels;
    uint32_t width, height;
} wf_plane;

/* ---- a decoded image: interleaved samples, or a JPEG's YCbCr planes (raster.c) ---- */

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

/* RGB rows into Y, Cb and Cr planes (ycc_split.c): the decoder writes each row into `row` (width ×
 * channels: 3, or 4 with an alpha of 255 everywhere, which is dropped), then take() puts its Y into `luma`
 * and returns 1 when it completed a pair of rows, whose chroma (chroma_width samples each) chroma() then
 * writes; after the last row of an odd height (take() returned 0), chroma() makes that row's alone. */
typedef struct {
    int kernels;
    uint32_t width, chroma_width;
    int channels;
    uint32_t rows;      /* taken so far */
    uint8_t *row;       /* the decoder's row */
    uint8_t *rgb;       /* a four-channel row without its alpha */
    uint8_t *chroma[4]; /* Cb, Cr of the pending pair's first row, then of its second, at full width (padded even) */
} wf_ycc_split;

int wf_ycc_split_init(wf_ycc_split *s, uint32_t width, int channels);
void wf_ycc_split_free(wf_ycc_split *s);
int wf_ycc_split_take(wf_ycc_split *s, uint8_t *luma);
void wf_ycc_split_chroma(const wf_ycc_split *s, uint8_t *cb, uint8_t *cr);

/* ---- encoders: into `out`, in memory (left as it was on failure) ---- */

wf_derive_status wf_write_jpeg(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height,
                               int channels, int quality, const uint8_t *icc, size_t icc_length,
                               char *message, size_t size);
/* Y, Cb, Cr planes at 4:2:0 (plane_count 3: Y width × height, Cb and Cr ceil(width / 2) × ceil(height / 2)) or
 * one gray plane, as a baseline JPEG by the same encoder; each plane padded to whole blocks by repeating its
 * last column and row. The bytes are those of libjpeg's jpeg_write_raw_data on the planes so padded. */
wf_derive_status wf_write_jpeg_planes(wf_encoded *out, const wf_plane *planes, int plane_count, int quality,
                                      const uint8_t *icc, size_t icc_length, char *message, size_t size);
wf_derive_status wf_write_png(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height,
                              int channels, const uint8_t *icc, size_t icc_length, int *warnings,
                              int *icc_kept, char *message, size_t size);
/* The lossless path (jpeg_copy.c): `out` from the source JPEG's DCT coefficients (read from `source`, an open
 * file), metadata stripped but `icc`, when the source is width × height, 8-bit YCbCr 4:2:0 or gray, and
 * quantised no finer than `quality`. Returns 0 when it is not (nothing made: encode as usual), 1 when it
 * answered; then `status` says whether the copy was made (on failure `message` says why). */
int wf_copy_jpeg(int source, wf_encoded *out, uint32_t width, uint32_t height, int quality,
                 const wf_decode_options *options, const uint8_t *icc, size_t icc_length, wf_derive_status *status,
                 char *message, size_t size);
/* libwebp's method for derived stills (0 fastest - 6 smallest): 4, libwebp's default. On 500 px tiles
 * method 6 saves 4-8% of the bytes for 1.5-2.5 times the time, and 30 times with alpha; method 2 costs
 * 4-8% more bytes for half the time (`make bench-encode`). */
#define WF_WEBP_METHOD 4
/* Lossy WebP, RGB(A) (gray expanded), alpha lossless; the ICC profile as an ICCP chunk (a GRAY profile is
 * dropped: `*icc_kept` says whether it went in). Single-threaded: the same pixels give the same bytes. */
wf_derive_status wf_write_webp(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                               int quality, int method, const uint8_t *icc, size_t icc_length, int *icc_kept,
                               char *message, size_t size);
/* AVIF by libaom: 8-bit full-range YUV 4:2:0 (4:0:0 for gray), alpha lossless, the ICC profile or else
 * nclx 1/13/6 (sRGB). One thread: the same pixels give the same bytes. `speed` 0-10, `quality` 1-100. */
wf_derive_status wf_write_avif(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                               int quality, int speed, const uint8_t *icc, size_t icc_length, char *message,
                               size_t size);

#endif
