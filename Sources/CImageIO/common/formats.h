/*
 * Internal: the formats Waterfall reads, one row each (formats.c): how a file of the format is known by its
 * first bytes, and the functions that read its header and metadata, decode it, read its animation's frames
 * and write it. The shared code (sniff.c, header.c, metadata.c, derive.c, the animated views) finds a
 * format's functions here, never by naming the format.
 */
#ifndef WF_FORMATS_H
#define WF_FORMATS_H

#include "animation.h"
#include "cimageio.h"
#include "decode.h"
#include "encode.h"
#include "stream.h"

typedef struct {
    wf_format format;
    /* Whether the file's first bytes (`length` of them, as many as wf_sniff was given) are this format's. */
    int (*sniff)(const uint8_t *bytes, size_t length);
    /* The header from the stream's start (wf_read_header_*: `out` reset, the format set). */
    void (*read_header)(wf_stream *stream, wf_header *out);
    /* The metadata from the stream's start (wf_read_metadata_*); NULL when the format carries none (GIF): the
     * read succeeds with nothing. */
    void (*read_metadata)(wf_stream *stream, wf_metadata *out);
    /* The image from the stream's start into `sink` (decode.h); NULL when the format is not decoded. */
    void (*decode)(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out);
    /* 1 when the decoder honours options->scale_denom, making ceil(width / d) × ceil(height / d) (JPEG in its
     * DCT, WebP in libwebp); derive.c then picks d as libvips does. */
    int decoder_scales;
    /* An animation's frames (animation.h), for animated views; NULL when the format has none. */
    int (*open_frames)(wf_stream *stream, const wf_decode_options *options, wf_frames *frames, wf_decode_outcome *out);
    /* Optional: the animation budget checked from the file's headers before an animated view opens its frames
     * (0 within it); NULL where open_frames checks it itself (WebP, from its chunks). */
    int (*animation_budget)(wf_stream *stream, const wf_decode_options *options, wf_decode_outcome *out);
    /* A derived still in this format (encode.h); NULL when Waterfall never writes it. */
    wf_derive_status (*encode)(wf_encoded *out, const wf_still *still, wf_encode_note *note);
    /* Optional: the derived image made from the source's own coded data, where it would be the source itself
     * (the same size, upright, and in this format): 0 when it cannot be (then encode), 1 when it answered,
     * `status` saying whether the copy was made. As wf_copy_jpeg (jpeg_format.h). */
    int (*copy)(int source, wf_encoded *out, uint32_t width, uint32_t height, int quality,
                const wf_decode_options *options, const uint8_t *icc, size_t icc_length, wf_derive_status *status,
                char *message, size_t size);
} wf_format_entry;

/* The row of `format`; NULL for a format Waterfall does not read. */
const wf_format_entry *wf_format_entry_of(wf_format format);

/* The format of the first row whose sniff knows the bytes; WF_FORMAT_UNKNOWN when none does. */
wf_format wf_sniff_read_format(const uint8_t *bytes, size_t length);

/* Whether wf_derive decodes the format. */
int wf_is_decodable(wf_format format);

#endif
