/*
 * The table of formats Waterfall reads. To add a format: a folder of its own (its code, and a <name>_format.h
 * declaring what its row names), a row below with that header's #include, and in Package.swift the folder's
 * headerSearchPath and its library's linkedLibrary (in the Makefile: the library's package in BUILD_DEPS and
 * its -l in C_LIBS). Its wf_format is in cimageio.h (most formats Waterfall does not read are named there
 * already). A format derived images may be written in is also a choice of wf_derive_request.encode_format
 * (derive.c's normalise and output_format); Swift's ImageFormat.swift names what a gallery publishes.
 */
#include "avif_format.h"
#include "bmp_format.h"
#include "formats.h"
#include "gif_format.h"
#include "heif_format.h"
#include "jpeg_format.h"
#include "png_format.h"
#include "tiff_format.h"
#include "webp_format.h"

#include <stddef.h>

/* In the order wf_sniff asks them: the first whose sniff says yes names the file (a RIFF whose size reads
 * "ftyp" is a WebP, not an ISO base media file). HEIC and AVIF share HEIF's readers. */
static const wf_format_entry formats[] = {
    {WF_FORMAT_JPEG, .sniff = wf_sniff_jpeg, .read_header = wf_read_jpeg_header, .read_metadata = wf_read_jpeg_metadata,
     .decode = wf_decode_jpeg, .decoder_scales = 1, .encode = wf_encode_jpeg, .copy = wf_copy_jpeg},
    {WF_FORMAT_PNG, .sniff = wf_sniff_png, .read_header = wf_read_png_header, .read_metadata = wf_read_png_metadata,
     .decode = wf_decode_png, .encode = wf_encode_png},
    {WF_FORMAT_GIF, .sniff = wf_sniff_gif, .read_header = wf_read_gif_header, .decode = wf_decode_gif,
     .open_frames = wf_gif_frames_open, .animation_budget = wf_gif_animation_budget},
    {WF_FORMAT_WEBP, .sniff = wf_sniff_webp, .read_header = wf_read_webp_header, .read_metadata = wf_read_webp_metadata,
     .decode = wf_decode_webp, .decoder_scales = 1, .open_frames = wf_webp_frames_open, .encode = wf_encode_webp},
    {WF_FORMAT_HEIC, .sniff = wf_sniff_heic, .read_header = wf_read_heif_header, .read_metadata = wf_read_heif_metadata,
     .decode = wf_decode_heif},
    /* wf_decode_heif tries libavif's route first; the encoder is libavif's (avif/). */
    {WF_FORMAT_AVIF, .sniff = wf_sniff_avif, .read_header = wf_read_heif_header, .read_metadata = wf_read_heif_metadata,
     .decode = wf_decode_heif, .open_frames = wf_avif_frames_open, .encode = wf_encode_avif},
    {WF_FORMAT_TIFF, .sniff = wf_sniff_tiff, .read_header = wf_read_tiff_header, .read_metadata = wf_read_tiff_metadata,
     .decode = wf_decode_tiff},
    {WF_FORMAT_BMP, .sniff = wf_sniff_bmp, .read_header = wf_read_bmp_header, .decode = wf_decode_bmp},
};

enum { FORMAT_COUNT = sizeof formats / sizeof formats[0] };

const wf_format_entry *wf_format_entry_of(wf_format format) {
    for (size_t i = 0; i < FORMAT_COUNT; i++)
        if (formats[i].format == format) return &formats[i];
    return NULL;
}

wf_format wf_sniff_read_format(const uint8_t *bytes, size_t length) {
    for (size_t i = 0; i < FORMAT_COUNT; i++)
        if (formats[i].sniff(bytes, length)) return formats[i].format;
    return WF_FORMAT_UNKNOWN;
}

int wf_is_decodable(wf_format format) {
    const wf_format_entry *entry = wf_format_entry_of(format);
    return entry && entry->decode;
}
