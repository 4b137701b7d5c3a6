/* Internal: the HEIF folder's entry points, for HEIC and AVIF alike: header and metadata readers and the
 * decoder (common/formats.c lists them). */
#ifndef WF_HEIF_FORMAT_H
#define WF_HEIF_FORMAT_H

#include "cimageio.h"
#include "decode.h"
#include "stream.h"

/* ISO base media files whose brand (right after "ftyp") is one of HEIF's, or AVIF's ("avif", "avis"). */
int wf_sniff_heic(const uint8_t *bytes, size_t length);
int wf_sniff_avif(const uint8_t *bytes, size_t length);
void wf_read_heif_header(wf_stream *stream, wf_header *out); /* HEIC and AVIF */
/* The same answer through libheif alone (the sanitizer driver checks that both agree on every prefix). */
void wf_read_heif_header_with_libheif(wf_stream *stream, wf_header *out);
void wf_read_heif_metadata(wf_stream *stream, wf_metadata *out); /* the Exif item */
/* HEIC and AVIF: the primary image, transformations (clap, irot, imir) applied, 8-bit sRGB-encoded RGB(A)
 * (10-bit and HDR sources converted), its ICC profile (or one made from its nclx colour description). */
void wf_decode_heif(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);

#endif
