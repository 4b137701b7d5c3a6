/* Internal: the BMP folder's entry points: header reader and decoder (common/formats.c lists them). Waterfall's
 * own bounded decoder: no Debian library fits (docs/formats.md says why). BMP carries no EXIF. */
#ifndef WF_BMP_FORMAT_H
#define WF_BMP_FORMAT_H

#include "cimageio.h"
#include "decode.h"
#include "stream.h"

/* "BM" and a DIB header size Waterfall knows (12, 40, 52, 56, 64, 108 or 124). */
int wf_sniff_bmp(const uint8_t *bytes, size_t length);
void wf_read_bmp_header(wf_stream *stream, wf_header *out);
/* Rows top to bottom, RGB, or RGBA when the file has alpha (an alpha mask, a 32-bit file whose fourth
 * bytes are not all 0, or pixels an RLE file leaves out). */
void wf_decode_bmp(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);

#endif
