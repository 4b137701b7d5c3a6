/* Internal: the TIFF folder's entry points: header and metadata readers and decoder, through libtiff 4.5
 * (common/formats.c lists them). TIFF is read, never written: galleries publish it as JPEG, PNG, WebP or
 * AVIF, which browsers show. */
#ifndef WF_TIFF_FORMAT_H
#define WF_TIFF_FORMAT_H

#include "cimageio.h"
#include "decode.h"
#include "stream.h"

/* "II*\0" or "MM\0*", and BigTIFF's "II+\0" or "MM\0+". */
int wf_sniff_tiff(const uint8_t *bytes, size_t length);
/* IFD0's size, orientation (tag 274, applied as a JPEG's EXIF orientation is), samples and alpha; a file
 * Waterfall does not read (DNG, a preview first, a codec off the allow-list, float samples) is refused
 * here, with the reason. */
void wf_read_tiff_header(wf_stream *stream, wf_header *out);
/* IFD0's descriptive tags and its Exif IFD, re-serialised as a small TIFF structure for the EXIF facts, and
 * IFD0's XMP (tag 700) and IPTC IIM (tag 33723) parsed into the records (tiff_metadata.c). */
void wf_read_tiff_metadata(wf_stream *stream, wf_metadata *out);
/* IFD0's pixels as stored (orientation left to the caller), through libtiff's RGBA route, band by band:
 * 8 bits a sample, gray as gray, alpha straight (not premultiplied), CMYK made RGB. */
void wf_decode_tiff(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);

#endif
