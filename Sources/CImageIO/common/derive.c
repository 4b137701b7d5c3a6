/*
 * wf_derive: one derived image from one source file. The header reader runs first (the same code, limits
 * and orientation as `waterfall inspect`), so a file over the pixel cap is refused before a byte of image
 * data is decoded. Then: decode (JPEG at the largest DCT scale that still leaves twice the target size,
 * libvips' rule) straight into the streaming Lanczos-3 resampler, drop an all-opaque alpha channel, turn
 * the small result upright, and encode it with the ICC profile as its only metadata. A JPEG that would come
 * out at its own size, upright, is copied from its DCT coefficients instead where that costs no bytes
 * (jpeg_copy.c).
 */
#define _GNU_SOURCE
#include "decode.h"
#include "derive.h"
#include "encode.h"
#include "formats.h"
#include "output_file.h"
#include "raster.h"
#include "resample.h"
#include "resample_kernels.h"
#include "source_file.h"
#include "ycc_split.h"

#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* An animation's WebP quality when none is asked for (the stills' defaults are cimageio.h's WF_DEFAULT_*). */
enum { DEFAULT_ANIMATED_WEBP_QUALITY = 75 };

static void fail(wf_derive_result *out, wf_derive_status status, const char *format, ...) __attribute__((format(printf, 3, 4)));
static void fail(wf_derive_result *out, wf_derive_status status, const char *format, ...) {
    out->status = status;
    va_list args;
    va_start(args, format);
    vsnprintf(out->message, sizeof out->message, format, args);
    va_end(args);
}

/* "12", "12.3": megapixels to one decimal, as HeaderReader writes them. */
static void megapixels(uint64_t pixels, char *text, size_t size) {
    uint64_t tenths = (pixels + 50000) / 100000;
    if (tenths % 10 == 0) snprintf(text, size, "%llu", (unsigned long long)(tenths / 10));
    else snprintf(text, size, "%llu.%llu", (unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10));
}

/* "12 megapixels, over the 10-megapixel limit" when one decimal says it truly (the limit is a whole number of
 * tenths and the two differ); else exact: "240000 pixels, over the 1-pixel limit". As HeaderReader.overLimit. */
static void over_limit(uint64_t pixels, uint64_t limit, char *text, size_t size) {
    char have[32], cap[32];
    megapixels(pixels, have, sizeof have);
    megapixels(limit, cap, sizeof cap);
    if (limit % 100000 == 0 && strcmp(have, cap) != 0)
        snprintf(text, size, "%s megapixels, over the %s-megapixel limit", have, cap);
    else
        snprintf(text, size, "%llu pixels, over the %llu-pixel limit", (unsigned long long)pixels, (unsigned long long)limit);
}

/* The largest size that fits the box, never larger than the image; exact on the limiting axis. */
void wf_fit(uint32_t width, uint32_t height, uint32_t max_width, uint32_t max_height, uint32_t *out_width,
            uint32_t *out_height) {
    uint64_t w = width, h = height;
    int width_limits = max_width != 0 && max_width < width;
    int height_limits = max_height != 0 && max_height < height;
    if (width_limits && height_limits) {
        if ((uint64_t)max_width * h <= (uint64_t)max_height * w) height_limits = 0;
        else width_limits = 0;
    }
    if (width_limits) {
        *out_width = max_width;
        uint64_t scaled = (h * max_width + w / 2) / w;
        *out_height = scaled < 1 ? 1 : (uint32_t)scaled;
    } else if (height_limits) {
        *out_height = max_height;
        uint64_t scaled = (w * max_height + h / 2) / h;
        *out_width = scaled < 1 ? 1 : (uint32_t)scaled;
    } else {
        *out_width = width;
        *out_height = height;
    }
}

/* libvips' rule: shrink in the DCT by the largest of 8, 4, 2 that leaves at least twice the target size,
 * so the Lanczos filter still has real pixels to work with. */
static uint32_t dct_scale(uint32_t width, uint32_t height, uint32_t target_width, uint32_t target_height) {
    static const uint32_t denominators[] = {8, 4, 2};
    for (size_t i = 0; i < 3; i++) {
        uint64_t d = denominators[i];
        uint64_t w = (width + d - 1) / d, h = (height + d - 1) / d;
        if (w >= 2 * (uint64_t)target_width && h >= 2 * (uint64_t)target_height) return (uint32_t)d;
    }
    return 1;
}

/* A monotonic clock in nanoseconds (vDSO: cheap enough to call around every row). */
static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Whether every alpha (the last sample of each pixel) is 255: ANDed with no early exit, so the compiler
 * vectorises it; RGBA a whole pixel at a time, whose AND's fourth byte is 255 only if every alpha is. */
static int all_opaque(const uint8_t *pixels, size_t count, int channels) {
    if (channels == 4) {
        uint32_t all = 0xFFFFFFFFu;
        for (size_t i = 0; i < count; i++) {
            uint32_t pixel;
            memcpy(&pixel, pixels + 4 * i, 4);
            all &= pixel;
        }
        uint8_t bytes[4];
        memcpy(bytes, &all, 4); /* whatever the byte order, bytes[3] is the AND of the fourth bytes */
        return bytes[3] == 255;
    }
    uint8_t all = 255;
    for (size_t i = (size_t)channels - 1; i < count * (size_t)channels; i += (size_t)channels) all &= pixels[i];
    return all == 255;
}

static void drop_alpha(uint8_t *pixels, size_t count, int channels) {
    size_t kept = (size_t)channels - 1;
    for (size_t i = 0; i < count; i++) memmove(pixels + i * kept, pixels + i * (size_t)channels, kept);
}

/* ---- the sink: decoder rows into the resampler ---- */

typedef struct {
    wf_resampler resampler;   /* interleaved rows */
    wf_resampler planes[3];   /* or a JPEG's Y, Cb and Cr, when `planar` */
    uint32_t expected_width, expected_height;
    uint32_t out_width, out_height;
    int orientation; /* the turn still to make: the header's, or the decoder's (begin_planes) */
    int swapped;     /* the decoder's turn swaps the sides: what is made is out_height × out_width upright */
    int channels;
    int planar;
    int began;
    /* Most images with an alpha channel use none of it (screenshots, exports): their rows are taken as
     * opaque, alpha dropped on the way into the fixed-point resampler, until a row shows otherwise. Then
     * `saw_alpha` is set, the rest is ignored, and the image is decoded again with its alpha. */
    int guess_opaque;
    int saw_alpha;
    int source_channels;
    uint8_t *staging; /* the decoder's row while guessing: width × source_channels */
    /* RGB rows may be split into Y, Cb and Cr (a set written only as JPEG): then `splitting`, and `split`
     * makes the planes that `planes` resample, as a YCbCr JPEG's would be. */
    int split_welcome;
    int splitting;
    wf_ycc_split split;
    uint64_t resample_ns; /* spent in the resampler while the decoder ran */
} resampling_sink;

static wf_derive_status check_size(const resampling_sink *s, uint32_t width, uint32_t height, char *message, size_t size) {
    if (width == s->expected_width && height == s->expected_height) return WF_DERIVE_OK;
    snprintf(message, size, "the image decodes to %u×%u, not the %u×%u its header promised (did the file change?)",
             width, height, s->expected_width, s->expected_height);
    return WF_DERIVE_ERR_CORRUPT;
}

static wf_derive_status sink_begin_planes(void *self, uint32_t width, uint32_t height, const wf_plane_layout *layout,
                                          int turn, char *message, size_t size);

/* RGB rows (or RGBA ones guessed opaque) to be split into planes: the planes' resamplers as a 4:2:0 JPEG's. */
static wf_derive_status begin_split(resampling_sink *s, uint32_t width, uint32_t height, int channels, char *message,
                                    size_t size) {
    uint32_t chroma_width, chroma_height;
    wf_raster_chroma_size(width, height, &chroma_width, &chroma_height);
    const wf_plane_layout layout = {.width = {width, chroma_width, chroma_width},
                                    .height = {height, chroma_height, chroma_height},
                                    .step_x = {1, 2, 2}, .step_y = {1, 2, 2}};
    wf_derive_status status = sink_begin_planes(s, width, height, &layout, 1, message, size);
    if (status != WF_DERIVE_OK) return status;
    if (wf_ycc_split_init(&s->split, width, channels) != 0) {
        snprintf(message, size, "out of memory for a %u×%u image", width, height);
        return WF_DERIVE_ERR_LIMIT; /* sink_free frees the planes' resamplers */
    }
    s->source_channels = channels;
    s->splitting = 1;
    return WF_DERIVE_OK;
}

static wf_derive_status sink_begin(void *self, uint32_t width, uint32_t height, int channels, char *message, size_t size) {
    resampling_sink *s = self;
    wf_derive_status status = check_size(s, width, height, message, size);
    if (status != WF_DERIVE_OK) return status;
    if (s->split_welcome && (channels == 3 || (channels == 4 && s->guess_opaque)))
        return begin_split(s, width, height, channels, message, size);
    int guess = s->guess_opaque && (channels == 2 || channels == 4);
    int kept = guess ? channels - 1 : channels;
    if (guess && !(s->staging = malloc((size_t)width * (size_t)channels))) guess = 0, kept = channels;
    if (wf_resampler_init(&s->resampler, width, height, s->out_width, s->out_height, kept) != 0) {
        free(s->staging);
        s->staging = NULL;
        snprintf(message, size, "out of memory for a %u×%u image", width, height);
        return WF_DERIVE_ERR_LIMIT;
    }
    s->source_channels = channels;
    s->channels = kept;
    s->began = 1;
    return WF_DERIVE_OK;
}

/* A staged row without its alpha, into the resampler; or, at the first row with alpha in use, nothing more. */
static void commit_guess(resampling_sink *s) {
    if (s->saw_alpha) return;
    if (!all_opaque(s->staging, s->resampler.in_width, s->source_channels)) {
        s->saw_alpha = 1;
        return;
    }
    wf_kernel_drop_alpha(s->resampler.kernels, s->staging, s->resampler.in_width, s->source_channels,
                         wf_resampler_row(&s->resampler));
    wf_resampler_commit(&s->resampler);
}

/* Y to the output size; Cb and Cr to the 4:2:0 planes of it (raster.c). A decoder's turn that makes the
 * header's size swaps the sides of what is made, which the turn then swaps back. */
static wf_derive_status sink_begin_planes(void *self, uint32_t width, uint32_t height, const wf_plane_layout *layout,
                                          int turn, char *message, size_t size) {
    resampling_sink *s = self;
    int swaps = turn >= 5 && turn <= 8;
    if (turn != 1 && (s->orientation != 1 || turn < 2 || turn > 8)) {
        snprintf(message, size, "the image is turned twice (orientation %d, then %d)", s->orientation, turn);
        return WF_DERIVE_ERR_CORRUPT;
    }
    wf_derive_status status = check_size(s, swaps ? height : width, swaps ? width : height, message, size);
    if (status != WF_DERIVE_OK) return status;
    if (swaps) {
        s->swapped = 1;
        uint32_t out_width = s->out_width;
        s->out_width = s->out_height;
        s->out_height = out_width;
    }
    if (turn != 1) s->orientation = turn;
    uint32_t chroma_width, chroma_height;
    wf_raster_chroma_size(s->out_width, s->out_height, &chroma_width, &chroma_height);
    for (int p = 0; p < 3; p++) {
        wf_axis x, y;
        wf_chroma_axes(width, height, layout->step_x[p], layout->step_y[p], s->out_width, s->out_height, s->orientation,
                       &x, &y);
        int failed = p == 0
            ? wf_resampler_init(&s->planes[0], layout->width[0], layout->height[0], s->out_width, s->out_height, 1)
            : wf_resampler_init_mapped(&s->planes[p], layout->width[p], layout->height[p], chroma_width, chroma_height, 1,
                                       x, y);
        if (failed) {
            for (int q = 0; q < p; q++) wf_resampler_free(&s->planes[q]);
            snprintf(message, size, "out of memory for a %u×%u image", width, height);
            return WF_DERIVE_ERR_LIMIT;
        }
    }
    s->channels = 3;
    s->planar = 1;
    s->began = 1;
    return WF_DERIVE_OK;
}

/* A decoder's RGB row split: its Y to the luma resampler, and after each pair of rows (or a last odd one)
 * their chroma to the chroma resamplers. A row that uses its alpha stops it, as commit_guess does. */
static void commit_split(resampling_sink *s) {
    if (s->saw_alpha) return;
    if (s->source_channels == 4 && !all_opaque(s->split.row, s->split.width, 4)) {
        s->saw_alpha = 1;
        return;
    }
    int pair = wf_ycc_split_take(&s->split, wf_resampler_row(&s->planes[0]));
    wf_resampler_commit(&s->planes[0]);
    if (!pair && s->split.rows != s->expected_height) return;
    wf_ycc_split_chroma(&s->split, wf_resampler_row(&s->planes[1]), wf_resampler_row(&s->planes[2]));
    wf_resampler_commit(&s->planes[1]);
    wf_resampler_commit(&s->planes[2]);
}

static uint8_t *sink_row(void *self) {
    resampling_sink *s = self;
    return s->splitting ? s->split.row : s->staging ? s->staging : wf_resampler_row(&s->resampler);
}
static void sink_commit(void *self) {
    resampling_sink *s = self;
    uint64_t start = now_ns();
    if (s->splitting) commit_split(s);
    else if (s->staging) commit_guess(s);
    else wf_resampler_commit(&s->resampler);
    s->resample_ns += now_ns() - start;
}
static uint8_t *sink_plane_row(void *self, int plane) { return wf_resampler_row(&((resampling_sink *)self)->planes[plane]); }
static void sink_plane_commit(void *self, int plane) {
    resampling_sink *s = self;
    uint64_t start = now_ns();
    wf_resampler_commit(&s->planes[plane]);
    s->resample_ns += now_ns() - start;
}

static void sink_free(resampling_sink *s) {
    free(s->staging);
    s->staging = NULL;
    if (s->splitting) wf_ycc_split_free(&s->split);
    s->splitting = 0;
    if (!s->began) return;
    if (!s->planar) wf_resampler_free(&s->resampler);
    for (int p = 0; p < 3 && s->planar; p++) wf_resampler_free(&s->planes[p]);
}

/* The decoded output as a raster; 0, or -1 when a plane or row is missing (the data ended early). */
static int sink_take(resampling_sink *s, wf_raster *out) {
    *out = (wf_raster){.width = s->out_width, .height = s->out_height, .channels = s->channels, .planar = s->planar,
                       .orientation = s->orientation};
    if (!s->planar) {
        out->pixels = wf_resampler_take_output(&s->resampler);
        return out->pixels ? 0 : -1;
    }
    for (int p = 0; p < 3; p++) {
        wf_resampler *r = &s->planes[p];
        out->planes[p] = (wf_plane){wf_resampler_take_output(r), r->out_width, r->out_height};
        if (!out->planes[p].pixels) {
            wf_raster_free(out);
            return -1;
        }
    }
    return 0;
}

/* Decodes the open file `fd` (from its start) into `sink`. */
static void decode_file(int fd, wf_format format, const wf_decode_options *options, wf_pixel_sink *sink,
                        wf_decode_outcome *outcome) {
    wf_stream *stream = malloc(sizeof *stream);
    if (!stream) {
        wf_outcome_fail(outcome, WF_DERIVE_ERR_LIMIT, "out of memory");
        return;
    }
    wf_stream_init_fd(stream, fd);
    const wf_format_entry *entry = wf_format_entry_of(format);
    if (entry && entry->decode) entry->decode(stream, options, sink, outcome);
    else wf_outcome_fail(outcome, WF_DERIVE_ERR_READ, "unsupported format");
    if (outcome->status == WF_DERIVE_OK && stream->read_errno != 0) {
        char text[128];
        wf_outcome_fail(outcome, WF_DERIVE_ERR_READ, "cannot read: %s", wf_describe_errno(stream->read_errno, text, sizeof text));
    }
    free(stream);
}

/* The header reader's verdict as a derive failure. */
static void refuse_header(wf_derive_result *out) {
    const wf_header *h = &out->source;
    if (h->message[0]) fail(out, WF_DERIVE_ERR_READ, "%s", h->message);
    else if (h->status == WF_ERR_UNSUPPORTED) fail(out, WF_DERIVE_ERR_READ, "unsupported format");
    else fail(out, WF_DERIVE_ERR_READ, "cannot read the header");
}

/* Fills in the defaults; 0 when the request makes sense. */
static int normalise(const wf_derive_request *request, wf_derive_request *r, wf_derive_result *out) {
    *r = request ? *request : (wf_derive_request){0};
    if (r->max_width == 0 && r->max_height == 0) {
        fail(out, WF_DERIVE_ERR_REQUEST, "a derived image needs a maximum width or height");
        return -1;
    }
    const char *name = r->encode_format == WF_FORMAT_WEBP ? "WebP" : r->encode_format == WF_FORMAT_AVIF ? "AVIF" : "JPEG";
    if (r->encode_format != 0 && r->encode_format != WF_FORMAT_WEBP && r->encode_format != WF_FORMAT_AVIF) {
        fail(out, WF_DERIVE_ERR_REQUEST, "encode format %d is not 0 (automatic), WebP or AVIF", r->encode_format);
        return -1;
    }
    if (r->encode_format != 0 && r->force_png) {
        fail(out, WF_DERIVE_ERR_REQUEST, "force_png asks for PNG, but the encode format asks for %s", name);
        return -1;
    }
    if (r->speed < 0 || r->speed > 10) {
        fail(out, WF_DERIVE_ERR_REQUEST, "AVIF speed %d is outside 1-10", r->speed);
        return -1;
    }
    if (r->speed == 0) r->speed = WF_DEFAULT_AVIF_SPEED;
    if (r->quality == 0)
        r->quality = r->encode_format == WF_FORMAT_WEBP ? WF_DEFAULT_WEBP_QUALITY
                   : r->encode_format == WF_FORMAT_AVIF ? wf_avif_matched_quality(r->speed) : WF_DEFAULT_QUALITY;
    if (r->quality < 1 || r->quality > 100) {
        fail(out, WF_DERIVE_ERR_REQUEST, "%s quality %d is outside 1-100", name, r->quality);
        return -1;
    }
    if (r->max_pixels == 0) r->max_pixels = (uint64_t)WF_DEFAULT_MAX_PIXELS;
    if (r->max_scans == 0) r->max_scans = WF_DEFAULT_MAX_SCANS;
    if (r->max_memory == 0) r->max_memory = (uint64_t)WF_DEFAULT_MAX_MEMORY;
    if (r->max_memory > (uint64_t)(((unsigned long)-1) >> 1)) r->max_memory = ((unsigned long)-1) >> 1;
    return 0;
}

/* Reads the header into `out->source` and refuses what cannot or must not be decoded; 0 when fine. */
static int check_source(int source, const wf_derive_request *r, wf_derive_result *out) {
    wf_read_header_fd(source, &out->source);
    const wf_header *header = &out->source;
    if (header->status != WF_OK) {
        refuse_header(out);
        return -1;
    }
    if (!wf_is_decodable(header->format)) {
        fail(out, WF_DERIVE_ERR_READ, "unsupported format");
        return -1;
    }
    uint32_t width = header->width, height = header->height;
    if (width == 0 || height == 0) {
        fail(out, WF_DERIVE_ERR_CORRUPT, "zero width or height (%u×%u)", width, height);
        return -1;
    }
    uint64_t pixels = (uint64_t)width * height;
    if (pixels > r->max_pixels) {
        char reason[128];
        over_limit(pixels, r->max_pixels, reason, sizeof reason);
        fail(out, WF_DERIVE_ERR_TOO_LARGE, "%u×%u is %s", width, height, reason);
        return -1;
    }
    /* libpng's own default limit, restored here: the resampler's weights cost about 24 bytes per source
     * column and row, so a 1×250,000,000 "image" under the pixel cap would still cost gigabytes. */
    if (width > 1000000 || height > 1000000) {
        fail(out, WF_DERIVE_ERR_TOO_LARGE, "%u×%u has a side over 1,000,000 pixels", width, height);
        return -1;
    }
    return 0;
}

/* The output size in the stored orientation: the box is decided upright, then turned back. */
static void target_size(const wf_header *header, const wf_derive_request *r, uint32_t *width, uint32_t *height) {
    int swap = header->orientation >= 5 && header->orientation <= 8;
    uint32_t upright_width, upright_height;
    wf_fit(swap ? header->height : header->width, swap ? header->width : header->height, r->max_width, r->max_height,
        &upright_width, &upright_height);
    *width = swap ? upright_height : upright_width;
    *height = swap ? upright_width : upright_height;
}

/* Fills `out` for an image written from `image`; wf_derive_set adds the set's mean colour. */
static void made(const wf_raster *image, uint32_t width, uint32_t height, wf_format format, int icc_kept,
                 const wf_decode_outcome *decoded, wf_derive_result *out) {
    out->status = WF_DERIVE_OK;
    out->width = width;
    out->height = height;
    out->output_format = format;
    out->frames = 1;
    out->channels = image->channels;
    out->icc_length = icc_kept ? (int32_t)decoded->icc_length : 0;
    if (decoded->icc && !icc_kept) out->warnings++;
    out->planes = image->planar;
}

/* The format a request is written in. */
static wf_format output_format(const wf_derive_request *r, int has_alpha) {
    return r->encode_format == WF_FORMAT_WEBP ? WF_FORMAT_WEBP
         : r->encode_format == WF_FORMAT_AVIF ? WF_FORMAT_AVIF
         : has_alpha || r->force_png         ? WF_FORMAT_PNG : WF_FORMAT_JPEG;
}

/* Turns `image` (stored orientation) upright and writes it; fills `out` on success. */
static void emit(const wf_raster *image, int has_alpha, const wf_derive_request *r, wf_encoded *output,
                 const wf_decode_outcome *decoded, wf_derive_result *out) {
    wf_raster turned;
    if (wf_raster_orient(image, &turned) != 0) {
        fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        return;
    }
    uint32_t out_width = turned.width, out_height = turned.height;
    wf_format format = output_format(r, has_alpha); /* JPEG whenever planar: planes are only made for such sets */
    const wf_still still = {.image = &turned, .quality = r->quality, .speed = r->speed, .icc = decoded->icc,
                            .icc_length = decoded->icc_length};
    wf_encode_note note = {.icc_kept = decoded->icc != NULL};
    uint64_t start = now_ns();
    wf_derive_status status = wf_format_entry_of(format)->encode(output, &still, &note);
    out->encode_ns += now_ns() - start;
    wf_raster_release_turned(image, &turned);
    out->warnings += note.warnings;
    if (status != WF_DERIVE_OK) {
        fail(out, status, "%s", note.message);
        return;
    }
    made(image, out_width, out_height, format, note.icc_kept, decoded, out);
}

/* The photo's own coded data instead of emit, where the derived image would be the photo itself: same size,
 * upright, opaque, and written in the photo's format by a format that can copy (JPEG, from its DCT
 * coefficients). 1 when it answered for `out` (made or failed), 0 when emit should. */
static int copy_instead(int source, const wf_raster *image, int has_alpha, uint32_t denominator,
                        const wf_derive_request *r, const wf_decode_options *options, wf_encoded *output,
                        const wf_decode_outcome *decoded, wf_derive_result *out) {
    const wf_header *h = &out->source;
    const wf_format_entry *entry = wf_format_entry_of(h->format);
    uint32_t width = image->width, height = image->height;
    if (!entry->copy || h->orientation > 1 || denominator != 1 || width != h->width || height != h->height ||
        output_format(r, has_alpha) != h->format)
        return 0;
    wf_derive_status status;
    char message[200] = "";
    uint64_t start = now_ns();
    int answered = entry->copy(source, output, width, height, r->quality, options, decoded->icc, decoded->icc_length,
                               &status, message, sizeof message);
    out->encode_ns += now_ns() - start;
    if (!answered) return 0;
    if (status != WF_DERIVE_OK) {
        fail(out, status, "%s", message);
        return 1;
    }
    made(image, width, height, h->format, decoded->icc != NULL, decoded, out);
    out->copied = 1;
    return 1;
}

/* Whether `larger` is 1.9 to 2.1 times `smaller`. */
static int about_twice(uint32_t larger, uint32_t smaller) {
    return (uint64_t)larger * 10 >= (uint64_t)smaller * 19 && (uint64_t)larger * 10 <= (uint64_t)smaller * 21;
}

/* Frees a size made on the way, never the decoded image itself. */
static void free_unless_image(wf_raster *made, const wf_raster *image) {
    if (made->pixels != image->pixels || made->planes[0].pixels != image->planes[0].pixels) wf_raster_free(made);
}

/* The first still request not yet made whose size is the largest left; `count` when none is left. */
static size_t next_largest(const wf_derive_request *r, const wf_header *header, const uint32_t *widths,
                           const uint32_t *heights, const char *done, size_t count) {
    size_t best = count;
    for (size_t i = 0; i < count; i++) {
        if ((r[i].animate && header->animated) || done[i]) continue;
        if (best == count || (uint64_t)widths[i] * heights[i] > (uint64_t)widths[best] * heights[best]) best = i;
    }
    return best;
}

/* The first request of a set that is decoded as a still (the one its decode time is counted on). */
static size_t first_still(const wf_derive_request *r, const wf_header *header, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (!(r[i].animate && header->animated)) return i;
    return 0;
}

/* Whether the image may travel as YCbCr planes: a set whose stills are all written as JPEG, so the planes
 * are never converted back. A JPEG or AVIF then hands over its own planes where they are JPEG's (its
 * decoder decides); other RGB is split into planes as it arrives (ycc_split.c). */
static int planes_welcome(const wf_derive_request *r, const wf_header *header, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (r[i].animate && header->animated) continue;
        if (r[i].encode_format != 0 || r[i].force_png || r[i].no_planes) return 0;
    }
    return 1;
}

void wf_keep_freed_buffers(void) {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

void wf_derive(const char *source, const char *output, const wf_derive_request *request, wf_derive_result *out) {
    wf_derive_set(source, request, &output, 1, out);
}

void wf_derive_set(const char *source, const wf_derive_request *requests, const char *const *outputs, size_t count,
                   wf_derive_result *results) {
    if (count == 0) return;
    wf_source_failure failure;
    int fd = wf_open_source(source, &failure);
    if (fd < 0) {
        for (size_t i = 0; i < count; i++) {
            memset(&results[i], 0, sizeof results[i]);
            fail(&results[i], WF_DERIVE_ERR_READ, "%s", failure.reason);
        }
        return;
    }
    wf_encoded *encoded = calloc(count, sizeof *encoded);
    if (!encoded) {
        for (size_t i = 0; i < count; i++) fail(&results[i], WF_DERIVE_ERR_LIMIT, "out of memory");
    } else {
        wf_derive_set_fd(fd, requests, count, results, encoded);
        for (size_t i = 0; i < count; i++) {
            if (results[i].status == WF_DERIVE_OK) {
                wf_derive_status status = wf_output_save(outputs[i], &encoded[i], results[i].message, sizeof results[i].message);
                if (status != WF_DERIVE_OK) results[i].status = status;
            }
            wf_encoded_free(&encoded[i]);
        }
        free(encoded);
    }
    close(fd);
}

/* ---- wf_derive_set_fd, step by step ---- */

/* One set's work, shared by the steps below. */
typedef struct {
    int source;
    const wf_derive_request *requests; /* as given: an animation's default quality depends on them */
    wf_derive_request *r;              /* with the defaults filled in */
    size_t count;
    wf_derive_result *results;
    wf_encoded *outputs;
    wf_header header;
    uint32_t *widths, *heights; /* every still's size, in the stored orientation */
    size_t primary, smallest;   /* the largest (decoded straight into its size) and the smallest still */
    uint32_t denominator;
    wf_decode_options options;
    wf_decode_outcome outcome;
    resampling_sink sink;
    wf_raster image; /* the decoded image at the primary's size */
    int has_alpha;
    /* The mean colour and the sketch, one per set, from its smallest image: a resample keeps the mean, so
     * every size would give it to within rounding, and the largest would cost twenty times the pixels. */
    int has_average;
    uint8_t average[3];
    uint8_t sketch[sizeof ((wf_derive_result *)0)->sketch];
    size_t sketch_length;
} derive_set;

/* Whether request `i` is made as a still (not an animation kept animated). */
static int is_still(const derive_set *s, size_t i) { return !(s->r[i].animate && s->header.animated); }

/* 1. The requests' defaults, then the header: format, stored size, orientation; refuse early. The decoder
 *    limits are the first request's: they describe the source, not the output. 0, or -1 with every result
 *    failed. */
static int accept_set(derive_set *s) {
    int bad = 0;
    for (size_t i = 0; i < s->count; i++) bad |= normalise(&s->requests[i], &s->r[i], &s->results[i]) != 0;
    if (bad || check_source(s->source, &s->r[0], &s->results[0]) != 0) {
        for (size_t i = 0; i < s->count; i++) {
            if (s->results[i].status != WF_DERIVE_OK) continue;
            s->results[i] = s->results[0];
            if (s->results[i].status == WF_DERIVE_OK)
                fail(&s->results[i], WF_DERIVE_ERR_REQUEST, "another request in the set makes no sense");
        }
        return -1;
    }
    s->header = s->results[0].source;
    for (size_t i = 1; i < s->count; i++) s->results[i].source = s->header;
    return 0;
}

/* Animations asked to stay animations are made apart, from every frame; the rest share one decode. Returns
 * how many stills are left to make. */
static size_t make_animations(derive_set *s) {
    size_t stills = 0;
    for (size_t i = 0; i < s->count; i++) {
        if (is_still(s, i)) {
            stills++;
            continue;
        }
        /* An animation is WebP whatever encode_format says: its default quality is 75 (or, with the
         * automatic format, 82 as before); the stills' WebP default was calibrated on stills only. */
        wf_derive_request animation = s->r[i];
        if (s->requests[i].quality == 0 && animation.encode_format != 0) animation.quality = DEFAULT_ANIMATED_WEBP_QUALITY;
        uint64_t start = now_ns(); /* frames are decoded and encoded in turn: counted as encoding */
        wf_write_animated_webp(s->source, &s->header, &animation, &s->outputs[i], &s->results[i]);
        s->results[i].encode_ns = now_ns() - start;
    }
    return stills;
}

/* 2. Every target in the stored orientation; the largest decides the DCT scale and is resampled straight
 *    from the decoder, the others after it (step 4: one decode for the whole set). 0, or -1 when out of
 *    memory (the outcome says so). */
static int plan_targets(derive_set *s) {
    s->widths = calloc(s->count, sizeof *s->widths);
    s->heights = calloc(s->count, sizeof *s->heights);
    if (!s->widths || !s->heights) {
        wf_outcome_fail(&s->outcome, WF_DERIVE_ERR_LIMIT, "out of memory");
        return -1;
    }
    const uint32_t *w = s->widths, *h = s->heights;
    s->primary = s->smallest = s->count;
    for (size_t i = 0; i < s->count; i++) {
        if (!is_still(s, i)) continue;
        target_size(&s->header, &s->r[i], &s->widths[i], &s->heights[i]);
        uint64_t area = (uint64_t)w[i] * h[i];
        if (s->primary == s->count || area > (uint64_t)w[s->primary] * h[s->primary]) s->primary = i;
        if (s->smallest == s->count || area < (uint64_t)w[s->smallest] * h[s->smallest]) s->smallest = i;
    }
    return 0;
}

/* The sink for the primary's size, at the decoder's scale. */
static void start_sink(derive_set *s) {
    const wf_header *header = &s->header;
    resampling_sink *sink = &s->sink;
    sink->expected_width = (header->width + s->denominator - 1) / s->denominator;
    sink->expected_height = (header->height + s->denominator - 1) / s->denominator;
    sink->out_width = s->widths[s->primary];
    sink->out_height = s->heights[s->primary];
    sink->orientation = header->orientation >= 1 && header->orientation <= 8 ? header->orientation : 1;
    sink->guess_opaque = 1;
    sink->split_welcome = planes_welcome(s->r, header, s->count);
}

/* Decodes the source once into the sink, and again with alpha where the guess that it was opaque was wrong;
 * the image at the primary's size in `s->image`, or the outcome says why not. */
static void decode_primary(derive_set *s) {
    const wf_header *header = &s->header;
    /* JPEG scales in its DCT, WebP in its decoder: the same rule for both. */
    s->denominator = wf_format_entry_of(header->format)->decoder_scales
                         ? dct_scale(header->width, header->height, s->widths[s->primary], s->heights[s->primary]) : 1;
    start_sink(s);
    resampling_sink *sink = &s->sink;
    const resampling_sink unstarted = *sink; /* what a second decode starts from */
    wf_pixel_sink callbacks = {.begin = sink_begin, .row = sink_row, .commit = sink_commit, .self = sink};
    if (sink->split_welcome) {
        callbacks.begin_planes = sink_begin_planes;
        callbacks.plane_row = sink_plane_row;
        callbacks.plane_commit = sink_plane_commit;
    }
    s->options = (wf_decode_options){.scale_denom = s->denominator, .max_scans = s->r[0].max_scans,
                                     .max_memory = s->r[0].max_memory, .want_icc = 1};
    uint64_t start = now_ns();
    decode_file(s->source, header->format, &s->options, &callbacks, &s->outcome);
    if (s->outcome.status == WF_DERIVE_OK && sink->saw_alpha) { /* the guess was wrong: again, with alpha */
        uint64_t spent = sink->resample_ns;
        sink_free(sink);
        *sink = unstarted;
        sink->guess_opaque = 0;
        sink->resample_ns = spent;
        free(s->outcome.icc);
        s->outcome = (wf_decode_outcome){.status = WF_DERIVE_OK};
        decode_file(s->source, header->format, &s->options, &callbacks, &s->outcome);
    }
    s->results[s->primary].resample_ns += sink->resample_ns;
    s->results[first_still(s->r, header, s->count)].decode_ns += now_ns() - start - sink->resample_ns;
    if (s->outcome.status == WF_DERIVE_OK && sink_take(sink, &s->image) != 0)
        wf_outcome_fail(&s->outcome, WF_DERIVE_ERR_TRUNCATED, "the image data ends early");
}

/* The decode's warnings on every still, and its note (a colour profile left out, icc_cap.h) for the build to
 * say, or its failure. */
static void report_decode(derive_set *s) {
    for (size_t i = 0; i < s->count; i++) {
        if (!is_still(s, i)) continue;
        s->results[i].warnings = s->outcome.warnings;
        if (s->outcome.status == WF_DERIVE_OK)
            snprintf(s->results[i].message, sizeof s->results[i].message, "%s", s->outcome.message);
        else
            fail(&s->results[i], s->outcome.status, "%s", s->outcome.message);
    }
}

/* 3. Alpha only where it is used (decided once, on the largest); each output is turned upright as written. */
static void drop_unused_alpha(derive_set *s) {
    wf_raster *image = &s->image;
    size_t pixels = (size_t)s->widths[s->primary] * s->heights[s->primary];
    s->has_alpha = !image->planar && (image->channels == 2 || image->channels == 4);
    if (s->has_alpha && all_opaque(image->pixels, pixels, image->channels)) {
        drop_alpha(image->pixels, pixels, image->channels);
        image->channels--;
        s->has_alpha = 0;
    }
}

/* Every still request of target `i`'s size not yet made (the same tile in several formats), written from
 * `sized`, or failed when that size could not be made. */
static void write_size(derive_set *s, size_t i, const wf_raster *sized, int missing, char *done) {
    const uint32_t *w = s->widths, *h = s->heights;
    for (size_t j = i; j < s->count; j++) {
        if (!is_still(s, j) || done[j] || w[j] != w[i] || h[j] != h[i]) continue;
        done[j] = 1;
        s->results[j].scale_denom = (int32_t)s->denominator;
        if (missing) fail(&s->results[j], WF_DERIVE_ERR_LIMIT, "out of memory");
        else if (!copy_instead(s->source, sized, s->has_alpha, s->denominator, &s->r[j], &s->options, &s->outputs[j],
                               &s->outcome, &s->results[j]))
            emit(sized, s->has_alpha, &s->r[j], &s->outputs[j], &s->outcome, &s->results[j]);
    }
}

/* Target `i`'s size made from `*from` (the last size made) or from the decoded image, and written; it
 * becomes `*from`, the size before it freed. */
static void make_size(derive_set *s, size_t i, wf_raster *from, char *done) {
    int same_as_primary = s->widths[i] == s->widths[s->primary] && s->heights[i] == s->heights[s->primary];
    uint64_t start = now_ns();
    wf_raster sized = *from;
    uint32_t width = s->sink.swapped ? s->heights[i] : s->widths[i];
    uint32_t height = s->sink.swapped ? s->widths[i] : s->heights[i];
    /* From the size before only where it is about twice this one on both axes (1000 to 500 px, 1.9-2.1×):
     * measured as good as from the largest, where other ladders lost up to 1 dB of chroma PSNR (600, 400,
     * then 150 px), and a box of another shape would grow an axis. Else from the largest again. */
    int halves = about_twice(from->width, width) && about_twice(from->height, height);
    const wf_raster *base = halves ? from : &s->image;
    int missing = !same_as_primary && wf_raster_resample(base, width, height, &sized) != 0;
    s->results[i].resample_ns += now_ns() - start;
    if (i == s->smallest && !missing) {
        s->has_average = wf_raster_average(&sized, s->average);
        if (!s->has_alpha) s->sketch_length = wf_raster_sketch(&sized, s->sketch, sizeof s->sketch);
    }
    write_size(s, i, &sized, missing, done);
    if (same_as_primary || missing) return;
    free_unless_image(from, &s->image);
    *from = sized;
}

/* 4. One resample per distinct size, largest first, each from the size before it where that is about
 *    twice as large (a 500-px tile from the 1000-px one, not from the 2048-px view: a quarter of the
 *    pixels to filter), else from the largest. Every request of that size (the same tile in several
 *    formats) is encoded from it; the size before is then freed. 0, or -1 when out of memory (every still
 *    failed). */
static int make_sizes(derive_set *s) {
    char *done = calloc(s->count, 1);
    if (!done) {
        for (size_t i = 0; i < s->count; i++)
            if (is_still(s, i)) fail(&s->results[i], WF_DERIVE_ERR_LIMIT, "out of memory");
        return -1;
    }
    wf_raster from = s->image; /* the last size made: what the next is made from */
    for (size_t i; (i = next_largest(s->r, &s->header, s->widths, s->heights, done, s->count)) < s->count;)
        make_size(s, i, &from, done);
    free_unless_image(&from, &s->image);
    free(done);
    return 0;
}

/* The set's mean colour on every still made, and the sketch on those of the smallest size. */
static void share_summary(derive_set *s) {
    for (size_t i = 0; i < s->count; i++) {
        if (!is_still(s, i) || s->results[i].status != WF_DERIVE_OK) continue;
        s->results[i].has_average = s->has_average;
        memcpy(s->results[i].average_rgb, s->average, sizeof s->average);
        if (s->widths[i] == s->widths[s->smallest] && s->heights[i] == s->heights[s->smallest]) {
            s->results[i].sketch_length = (int32_t)s->sketch_length;
            memcpy(s->results[i].sketch, s->sketch, s->sketch_length);
        }
    }
}

/* Steps 2-4 for the stills of a set: one decode, then every size. */
static void make_stills(derive_set *s) {
    if (plan_targets(s) == 0) decode_primary(s);
    report_decode(s);
    if (s->outcome.status == WF_DERIVE_OK) {
        drop_unused_alpha(s);
        if (make_sizes(s) == 0) share_summary(s);
    }
    wf_raster_free(&s->image);
    free(s->outcome.icc);
    free(s->widths);
    free(s->heights);
    sink_free(&s->sink);
}

void wf_derive_set_fd(int source, const wf_derive_request *requests, size_t count, wf_derive_result *results,
                      wf_encoded *outputs) {
    if (count == 0) return;
    derive_set s = {.source = source, .requests = requests, .count = count, .results = results, .outputs = outputs,
                    .outcome = {.status = WF_DERIVE_OK}};
    s.r = calloc(count, sizeof *s.r);
    for (size_t i = 0; i < count; i++) memset(&results[i], 0, sizeof results[i]);
    if (!s.r) {
        for (size_t i = 0; i < count; i++) fail(&results[i], WF_DERIVE_ERR_LIMIT, "out of memory");
        return;
    }
    if (accept_set(&s) == 0 && make_animations(&s) > 0) make_stills(&s);
    free(s.r);
}

/* ---- for tests ---- */

static void decode_image(const char *path, int libheif_only, wf_image *out);

static wf_derive_status collect_begin(void *self, uint32_t width, uint32_t height, int channels, char *message, size_t size) {
    resampling_sink *s = self;
    s->expected_width = s->out_width = width;
    s->expected_height = s->out_height = height;
    return sink_begin(self, width, height, channels, message, size);
}

void wf_decode_image(const char *path, wf_image *out) { decode_image(path, 0, out); }

void wf_decode_image_by_libheif(const char *path, wf_image *out) { decode_image(path, 1, out); }

static void decode_image(const char *path, int libheif_only, wf_image *out) {
    memset(out, 0, sizeof *out);
    wf_source_failure failure;
    int fd = wf_open_source(path, &failure);
    if (fd < 0) {
        out->status = WF_DERIVE_ERR_READ;
        snprintf(out->message, sizeof out->message, "%s", failure.reason);
        return;
    }
    wf_header header;
    wf_read_header_fd(fd, &header);
    if (header.status != WF_OK || !wf_is_decodable(header.format)) {
        out->status = WF_DERIVE_ERR_READ;
        snprintf(out->message, sizeof out->message, "%s", header.message[0] ? header.message : "unsupported format");
        close(fd);
        return;
    }
    resampling_sink sink = {0};
    wf_pixel_sink callbacks = {.begin = collect_begin, .row = sink_row, .commit = sink_commit, .self = &sink};
    wf_decode_options options = {.scale_denom = 1, .max_scans = WF_DEFAULT_MAX_SCANS, .max_memory = (uint64_t)WF_DEFAULT_MAX_MEMORY,
                                 .libheif_only = libheif_only};
    wf_decode_outcome outcome = {.status = WF_DERIVE_OK};
    decode_file(fd, header.format, &options, &callbacks, &outcome);
    close(fd);
    free(outcome.icc);
    out->status = outcome.status;
    snprintf(out->message, sizeof out->message, "%s", outcome.message);
    if (outcome.status == WF_DERIVE_OK) {
        out->pixels = wf_resampler_take_output(&sink.resampler);
        out->width = sink.out_width;
        out->height = sink.out_height;
        out->channels = sink.channels;
    }
    sink_free(&sink);
}

void wf_image_free(wf_image *image) {
    free(image->pixels);
    image->pixels = NULL;
}
