/*
 * HEIF and AVIF decoding for derived images: libheif decodes the primary image (a grid of tiles, as
 * iPhones store photos, is assembled by libheif) with its transformations applied (`clap`, `irot`,
 * `imir`), as RGB or RGBA; heif_color.c makes 8-bit samples and the profile of them; rows go to the sink.
 * The common AVIF goes by libavif instead (avif_decode.c), which is faster at it.
 */
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "avif_format.h"
#include "decode.h"
#include "heif_color.h"
#include "heif_format.h"
#include "icc_cap.h"
#include "heif_support.h"

static wf_derive_status derive_status(struct heif_error error, wf_status status) {
    switch (status) {
    case WF_ERR_TRUNCATED: return WF_DERIVE_ERR_TRUNCATED;
    case WF_ERR_UNSUPPORTED: return WF_DERIVE_ERR_UNSUPPORTED;
    case WF_ERR_IO: return WF_DERIVE_ERR_READ;
    default: return error.code == heif_error_Memory_allocation_error ? WF_DERIVE_ERR_LIMIT : WF_DERIVE_ERR_CORRUPT;
    }
}

static void fail_heif(const wf_heif *heif, wf_decode_outcome *out, struct heif_error error, const char *name) {
    char text[200];
    wf_status status;
    wf_heif_describe(heif, error, name, text, sizeof text, &status);
    wf_outcome_fail(out, derive_status(error, status), "%s", text);
}

/* libheif 1.15 assembles a grid in memory it never clears, and pastes each tile at the sum of the widths and
 * heights before it: where the tiles do not cover the grid (a grid taller than its tiles, a tile coded smaller
 * than its `ispe`), the picture shows whatever that memory held before (pixels of an earlier photo, freed
 * pointers), different on every run. So while libheif decodes, the heap hands out zeroed memory (glibc's
 * perturb byte 0xFF: 0 on malloc, 0xFF on free; fresh pages are zero already): such rows come out black, the
 * same every time. Planes are never served from the thread caches (64 rows of 64 bytes at least), which
 * perturbing does not reach. Counted, for threads that decode at once (a decoder process runs one job, a
 * test process several). */
static pthread_mutex_t zeroing_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned zeroing_decodes;

static void zero_new_memory(int on) {
#ifdef __GLIBC__
    pthread_mutex_lock(&zeroing_lock);
    if (on ? zeroing_decodes++ == 0 : --zeroing_decodes == 0) mallopt(M_PERTURB, on ? 0xFF : 0);
    pthread_mutex_unlock(&zeroing_lock);
#else
    (void)on;
#endif
}

/* Pushes the decoded image's rows through the colour plan to the sink. */
static void push_rows(struct heif_image *image, const wf_heif_color *plan, uint32_t width, uint32_t height,
                      wf_pixel_sink *sink, wf_decode_outcome *out) {
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    if (!plane || stride <= 0) {
        wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt HEIF: the decoded image has no pixels");
        return;
    }
    char message[200] = "";
    wf_derive_status status = sink->begin(sink->self, width, height, plan->channels, message, sizeof message);
    if (status != WF_DERIVE_OK) {
        wf_outcome_fail(out, status, "%s", message);
        return;
    }
    size_t row_bytes = (size_t)width * (size_t)plan->channels;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *source = plane + (size_t)y * (size_t)stride;
        uint8_t *destination = sink->row(sink->self);
        if (wf_heif_color_is_copy(plan)) memcpy(destination, source, row_bytes);
        else wf_heif_color_row(plan, source, destination, width);
        sink->commit(sink->self);
    }
}

static void decode_primary(wf_heif *heif, const wf_decode_options *options, const char *name, wf_pixel_sink *sink,
                           wf_decode_outcome *out) {
    int alpha = heif_image_handle_has_alpha_channel(heif->primary);
    int bits = heif_image_handle_get_luma_bits_per_pixel(heif->primary);
    int deep = bits > 8;
    uint64_t width = (uint64_t)heif_image_handle_get_width(heif->primary);
    uint64_t height = (uint64_t)heif_image_handle_get_height(heif->primary);
    /* The RGB, and the decoded planes libheif converts it from, held at once (a grid's tiles are pasted into
     * one image of planes first): a 20 KB grid of 12800×13400 took 1005 MiB, its RGB 491 MiB. */
    uint64_t need = width * height * (alpha ? 4 : 3) * (deep ? 2 : 1) * 2;
    if (need > options->max_memory) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "decoding this %s would need %llu MiB, over the %llu MiB limit", name,
                        (unsigned long long)(need >> 20), (unsigned long long)(options->max_memory >> 20));
        return;
    }
    enum heif_chroma chroma = deep ? (alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                                   : (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB);
    struct heif_decoding_options *decoding = heif_decoding_options_alloc();
    if (!decoding) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        return;
    }
    decoding->ignore_transformations = 0;
    /* A damaged bitstream is an error, not a picture of noise (libde265 decodes through damage otherwise). */
    decoding->strict_decoding = 1;
    struct heif_image *image = NULL;
    zero_new_memory(1);
    struct heif_error error = heif_decode_image(heif->primary, &image, heif_colorspace_RGB, chroma, decoding);
    zero_new_memory(0);
    heif_decoding_options_free(decoding);
    if (error.code != heif_error_Ok) {
        fail_heif(heif, out, error, name);
        if (image) heif_image_release(image);
        return;
    }
    uint32_t decoded_width = (uint32_t)heif_image_get_width(image, heif_channel_interleaved);
    uint32_t decoded_height = (uint32_t)heif_image_get_height(image, heif_channel_interleaved);
    if (decoded_width != width || decoded_height != height) {
        /* libheif 1.15 reports a clean aperture that starts between pixels as no crop, yet crops by it */
        wf_outcome_fail(out, WF_DERIVE_ERR_UNSUPPORTED,
                        "unsupported %s: libheif decodes it to %u×%u, not the %llu×%llu its boxes give (a clean aperture "
                        "off the pixel grid)", name, decoded_width, decoded_height, (unsigned long long)width,
                        (unsigned long long)height);
        heif_image_release(image);
        return;
    }
    int decoded_bits = deep ? heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) : 8;
    wf_heif_color plan;
    if (wf_heif_color_plan(heif->primary, image, decoded_bits > 8 ? decoded_bits : 8, alpha ? 4 : 3, &plan) != 0) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
    } else {
        push_rows(image, &plan, decoded_width, decoded_height, sink, out);
        if (out->status == WF_DERIVE_OK && options->want_icc && plan.icc) {
            out->icc = plan.icc; /* handed over: within the cap, or made here from nclx (600 bytes) */
            out->icc_length = plan.icc_length;
            plan.icc = NULL;
        }
        if (out->status == WF_DERIVE_OK && options->want_icc && plan.icc_over) wf_icc_fits(plan.icc_over, out);
    }
    wf_heif_color_free(&plan);
    heif_image_release(image);
}

void wf_decode_heif(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out) {
    const uint8_t *first;
    size_t length = wf_stream_peek(stream, &first);
    const char *name = length >= 12 && memcmp(first + 8, "avi", 3) == 0 ? "AVIF" : "HEIF";
    /* An AVIF sequence's first frame, by libavif (avif_sequence.c), whatever still item it also holds. */
    if (name[0] == 'A' && !options->libheif_only && wf_decode_avif_sequence(stream, options, sink, out)) return;
    wf_heif heif;
    /* Before either library: libavif parses the same item graph. wf_heif_open checks it for libheif. */
    memset(&heif, 0, sizeof heif);
    if (wf_heif_check_graph(stream, wf_stream_size(stream), &heif.refusal) != 0) {
        fail_heif(&heif, out, (struct heif_error){heif_error_Invalid_input, heif_suberror_Unspecified, ""}, name);
        return;
    }
    if (name[0] == 'A' && !options->libheif_only && wf_decode_avif(stream, options, sink, out)) return;
    struct heif_error error;
    if (wf_heif_open(&heif, stream, 0, &error) != 0) fail_heif(&heif, out, error, name);
    else decode_primary(&heif, options, name, sink, out);
    wf_heif_close(&heif);
}
