/* Internal: the JPEG folder's entry points: header and metadata readers, decoder, encoders and the lossless
 * copy (common/formats.c lists them). */
#ifndef WF_JPEG_FORMAT_H
#define WF_JPEG_FORMAT_H

#include "cimageio.h"
#include "decode.h"
#include "encode.h"
#include "raster.h"
#include "stream.h"

int wf_sniff_jpeg(const uint8_t *bytes, size_t length);
void wf_read_jpeg_header(wf_stream *stream, wf_header *out);
void wf_read_jpeg_metadata(wf_stream *stream, wf_metadata *out);
void wf_decode_jpeg(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);

/* ---- encoders: into `out`, in memory (left as it was on failure) ---- */

/* The still for the format table (encode.h): its planes when it is planar, else its pixels. */
wf_derive_status wf_encode_jpeg(wf_encoded *out, const wf_still *still, wf_encode_note *note);
wf_derive_status wf_write_jpeg(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height,
                               int channels, int quality, const uint8_t *icc, size_t icc_length,
                               char *message, size_t size);
/* Y, Cb, Cr planes at 4:2:0 (plane_count 3: Y width × height, Cb and Cr ceil(width / 2) × ceil(height / 2)) or
 * one gray plane, as a baseline JPEG by the same encoder; each plane padded to whole blocks by repeating its
 * last column and row. The bytes are those of libjpeg's jpeg_write_raw_data on the planes so padded. */
wf_derive_status wf_write_jpeg_planes(wf_encoded *out, const wf_plane *planes, int plane_count, int quality,
                                      const uint8_t *icc, size_t icc_length, char *message, size_t size);
/* The lossless path (jpeg_copy.c): `out` from the source JPEG's DCT coefficients (read from `source`, an open
 * file), metadata stripped but `icc`, when the source is width × height, 8-bit YCbCr 4:2:0 or gray, and
 * quantised no finer than `quality`. Returns 0 when it is not (nothing made: encode as usual), 1 when it
 * answered; then `status` says whether the copy was made (on failure `message` says why). */
int wf_copy_jpeg(int source, wf_encoded *out, uint32_t width, uint32_t height, int quality,
                 const wf_decode_options *options, const uint8_t *icc, size_t icc_length, wf_derive_status *status,
                 char *message, size_t size);

#endif
