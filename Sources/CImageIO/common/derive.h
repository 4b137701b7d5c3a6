/* Internal: the pieces wf_derive is built from. Decoders push rows into a sink; the sink resamples. */
#ifndef WF_DERIVE_H
#define WF_DERIVE_H

#include "cimageio.h"
#include "decode.h"
#include "raster.h"
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
