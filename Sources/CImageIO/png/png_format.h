/* Internal: the PNG folder's entry points: header and metadata readers, decoder and encoder (common/formats.c
 * lists them). */
#ifndef WF_PNG_FORMAT_H
#define WF_PNG_FORMAT_H

#include "cimageio.h"
#include "decode.h"
#include "encode.h"
#include "stream.h"

/* A PNG signature, unless Apple's CgBI chunk comes before IHDR: not a PNG any standard decoder reads. */
int wf_sniff_png(const uint8_t *bytes, size_t length);
void wf_read_png_header(wf_stream *stream, wf_header *out);
void wf_read_png_metadata(wf_stream *stream, wf_metadata *out);
void wf_decode_png(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);

/* ---- encoders: into `out`, in memory (left as it was on failure) ---- */

/* The still for the format table (encode.h). */
wf_derive_status wf_encode_png(wf_encoded *out, const wf_still *still, wf_encode_note *note);
wf_derive_status wf_write_png(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height,
                              int channels, const uint8_t *icc, size_t icc_length, int *warnings,
                              int *icc_kept, char *message, size_t size);

#endif
