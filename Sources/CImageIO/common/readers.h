/* Internal: the pieces wf_read_header_* is built from. */
#ifndef WF_READERS_H
#define WF_READERS_H

#include "cimageio.h"
#include "stream.h"

wf_format wf_sniff(const uint8_t *bytes, size_t length);
void wf_read_jpeg_header(wf_stream *stream, wf_header *out);
void wf_read_png_header(wf_stream *stream, wf_header *out);
void wf_read_heif_header(wf_stream *stream, wf_header *out); /* HEIC and AVIF */
/* The same answer through libheif alone (the sanitizer driver checks that both agree on every prefix). */
void wf_read_heif_header_with_libheif(wf_stream *stream, wf_header *out);
void wf_read_webp_header(wf_stream *stream, wf_header *out);
void wf_read_gif_header(wf_stream *stream, wf_header *out);

/* Sets status and a printf-style message. */
void wf_fail(wf_header *out, wf_status status, const char *format, ...) __attribute__((format(printf, 3, 4)));

#endif
