/* Internal: the WebP folder's entry points: header and metadata readers, decoder, animation frames and
 * encoder (common/formats.c lists them). */
#ifndef WF_WEBP_FORMAT_H
#define WF_WEBP_FORMAT_H

#include "animation.h"
#include "cimageio.h"
#include "decode.h"
#include "encode.h"
#include "stream.h"

int wf_sniff_webp(const uint8_t *bytes, size_t length);
void wf_read_webp_header(wf_stream *stream, wf_header *out);
void wf_read_webp_metadata(wf_stream *stream, wf_metadata *out); /* the EXIF chunk */
/* WebP: the still image, or an animation's first frame composed onto its canvas; RGB or RGBA. Honours
 * `scale_denom` (decoded straight to ceil(width / d) × ceil(height / d)). */
void wf_decode_webp(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);
int wf_webp_frames_open(wf_stream *stream, const wf_decode_options *options, wf_frames *frames, wf_decode_outcome *out);

/* ---- encoders: into `out`, in memory (left as it was on failure) ---- */

/* The still for the format table (encode.h), at WF_WEBP_METHOD. */
wf_derive_status wf_encode_webp(wf_encoded *out, const wf_still *still, wf_encode_note *note);
/* libwebp's method for derived stills (0 fastest - 6 smallest): 4, libwebp's default. On 500 px tiles
 * method 6 saves 4-8% of the bytes for 1.5-2.5 times the time, and 30 times with alpha; method 2 costs
 * 4-8% more bytes for half the time (`make bench-encode`). */
#define WF_WEBP_METHOD 4
/* Lossy WebP, RGB(A) (gray expanded), alpha lossless; the ICC profile as an ICCP chunk (a GRAY profile is
 * dropped: `*icc_kept` says whether it went in). Single-threaded: the same pixels give the same bytes. */
wf_derive_status wf_write_webp(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                               int quality, int method, const uint8_t *icc, size_t icc_length, int *icc_kept,
                               char *message, size_t size);

#endif
