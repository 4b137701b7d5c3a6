/*
 * JPEG decoding for derived images: libjpeg-turbo at a DCT scale (1/1, 1/2, 1/4, 1/8), rows pushed to a
 * sink as they are decoded, the ICC profile collected on the way, and hard limits on what a hostile file
 * can make the decoder do.
 *
 * Damage policy: a file whose scan data ends early makes libjpeg warn JWRN_JPEG_EOF and fill the rest of
 * the image with grey; a corrupt entropy-coded segment makes it warn and carry on with garbage. We FAIL in
 * both cases ("truncated JPEG: the image data ends early", "corrupt JPEG data: ...") rather than publish a
 * half-grey photo: the error manager runs in strict mode, where those warnings stop the decode at once.
 * jpeg_finish_decompress is called, so the file must also reach its EOI marker.
 */
#include "decode.h"
#include "jpeg_format.h"
#include "jpeg_support.h"
#include "source_file.h"

#include <stdlib.h>
#include <string.h>

#include "icc_cap.h"

/* ICC_PROFILE APP2 chunks, kept by sequence number. Constant work per marker (unlike jpeg_save_markers in
 * libjpeg-turbo 2.1.5, which walks every saved marker on each append), and never more than
 * WF_ICC_MAX_LENGTH bytes buffered (icc_cap.h). */
typedef struct {
    uint8_t *chunks[256];
    uint16_t lengths[256];
    int declared;   /* the chunk count every marker must agree on */
    size_t total;
    uint64_t seen_bytes; /* every ICC_PROFILE chunk's bytes, kept or not: the profile's size */
    int seen;       /* any ICC_PROFILE marker at all */
    int rejected;   /* inconsistent or too large: the profile is dropped */
    int too_large;  /* over WF_ICC_MAX_LENGTH */
} icc_collector;

typedef struct {
    struct jpeg_decompress_struct info;
    wf_jpeg_error error;
    wf_jpeg_source source;
    struct jpeg_progress_mgr progress;
    const wf_decode_options *options;
    wf_pixel_sink *sink;
    icc_collector icc;
    wf_derive_status sink_status; /* why the sink refused, when it did */
} decoder;

/* ---- APP2: the ICC profile ---- */

static boolean read_app2(j_decompress_ptr info) {
    decoder *d = (decoder *)info->client_data;
    icc_collector *icc = &d->icc;
    uint8_t length_bytes[2];
    wf_jpeg_take(info, length_bytes, 2);
    size_t length = (size_t)(length_bytes[0] << 8 | length_bytes[1]);
    if (length <= 2) return TRUE; /* damage: let the marker scanner resynchronise, as libjpeg does */
    length -= 2;
    static const uint8_t tag[12] = {'I', 'C', 'C', '_', 'P', 'R', 'O', 'F', 'I', 'L', 'E', 0};
    uint8_t header[14];
    if (!d->options->want_icc || length < sizeof header) {
        wf_jpeg_take(info, NULL, length);
        return TRUE;
    }
    wf_jpeg_take(info, header, sizeof header);
    length -= sizeof header;
    if (memcmp(header, tag, sizeof tag) != 0) { /* FlashPix and other APP2 uses */
        wf_jpeg_take(info, NULL, length);
        return TRUE;
    }
    icc->seen = 1;
    icc->seen_bytes += length;
    int sequence = header[12], count = header[13];
    if (!icc->rejected && icc->total + length > WF_ICC_MAX_LENGTH) icc->too_large = 1;
    if (icc->rejected || icc->too_large || sequence == 0 || count == 0 || sequence > count ||
        (icc->declared != 0 && count != icc->declared) || icc->chunks[sequence] != NULL) {
        icc->rejected = 1;
        wf_jpeg_take(info, NULL, length);
        return TRUE;
    }
    icc->declared = count;
    /* Stored before it is filled, so a longjmp out of the copy still frees it. */
    icc->chunks[sequence] = malloc(length ? length : 1);
    if (icc->chunks[sequence] == NULL) ERREXIT1(info, JERR_OUT_OF_MEMORY, 10);
    icc->lengths[sequence] = (uint16_t)length;
    icc->total += length;
    wf_jpeg_take(info, icc->chunks[sequence], length);
    return TRUE;
}

static void free_icc(icc_collector *icc) {
    for (int i = 0; i < 256; i++) free(icc->chunks[i]);
    memset(icc, 0, sizeof *icc);
}

/* The profile, if every chunk 1...count arrived and they agree; NULL otherwise. */
static uint8_t *assemble_icc(icc_collector *icc, size_t *length) {
    *length = 0;
    if (!icc->seen || icc->rejected || icc->declared == 0 || icc->total == 0) return NULL;
    for (int i = 1; i <= icc->declared; i++)
        if (icc->chunks[i] == NULL) return NULL;
    uint8_t *profile = malloc(icc->total);
    if (!profile) return NULL;
    size_t at = 0;
    for (int i = 1; i <= icc->declared; i++) {
        memcpy(profile + at, icc->chunks[i], icc->lengths[i]);
        at += icc->lengths[i];
    }
    *length = at;
    return profile;
}

/* ---- limits ---- */

/* Called before each step of input: a progressive file with thousands of tiny scans is refused here,
 * before it can make the decoder rework the whole coefficient buffer thousands of times. */
static void progress_monitor(j_common_ptr common) {
    j_decompress_ptr info = (j_decompress_ptr)common;
    decoder *d = (decoder *)info->client_data;
    if (info->input_scan_number > (int)d->options->max_scans)
        wf_jpeg_fail(common, WF_JPEG_STOP_LIMIT, "JPEG with more than %u scans (the limit for progressive files)",
                     d->options->max_scans);
}

/* ---- colour ---- */

/* Naive CMYK → RGB, no colour management. Adobe (APP14) files store the inks inverted (255 = no ink), and
 * libjpeg hands them over as stored; other CMYK files are plain ink amounts. */
static void cmyk_to_rgb(const uint8_t *restrict in, uint8_t *restrict out, uint32_t width, int inverted) {
    for (uint32_t x = 0; x < width; x++, in += 4, out += 3) {
        unsigned c = in[0], m = in[1], y = in[2], k = in[3];
        if (!inverted) c = 255 - c, m = 255 - m, y = 255 - y, k = 255 - k;
        out[0] = (uint8_t)((c * k + 127) / 255);
        out[1] = (uint8_t)((m * k + 127) / 255);
        out[2] = (uint8_t)((y * k + 127) / 255);
    }
}

/* ---- the decode ---- */

/* Whether the sink can take this file's planes: YCbCr whose luma is the full-size plane and whose chroma
 * spans a whole number of pixels (4:2:0, 4:2:2, 4:4:4, 4:4:0, 4:1:1), at the scale asked. Fills `layout`
 * (the sizes are libjpeg's, known once jpeg_calc_output_dimensions has run). */
static int planar_layout(j_decompress_ptr info, const wf_pixel_sink *sink, wf_plane_layout *layout) {
    if (!sink->begin_planes || info->jpeg_color_space != JCS_YCbCr || info->num_components != 3) return 0;
    jpeg_calc_output_dimensions(info);
    for (int c = 0; c < 3; c++) {
        const jpeg_component_info *component = &info->comp_info[c];
        int span_x = info->max_h_samp_factor * info->min_DCT_scaled_size,
            span_y = info->max_v_samp_factor * info->min_DCT_scaled_size;
        int sample_x = component->h_samp_factor * component->DCT_scaled_size,
            sample_y = component->v_samp_factor * component->DCT_scaled_size;
        if (sample_x == 0 || sample_y == 0 || span_x % sample_x != 0 || span_y % sample_y != 0) return 0;
        layout->step_x[c] = (uint32_t)(span_x / sample_x);
        layout->step_y[c] = (uint32_t)(span_y / sample_y);
        if (layout->step_x[c] > 4 || layout->step_y[c] > 4 || (c == 0 && (layout->step_x[0] != 1 || layout->step_y[0] != 1)))
            return 0;
        layout->width[c] = (uint32_t)((info->output_width + layout->step_x[c] - 1) / layout->step_x[c]);
        layout->height[c] = (uint32_t)((info->output_height + layout->step_y[c] - 1) / layout->step_y[c]);
    }
    return 1;
}

/* The planes, an iMCU row at a time, each row that lies inside its plane handed to the sink. */
static void read_planes(decoder *d, const wf_plane_layout *layout) {
    j_decompress_ptr info = &d->info;
    JSAMPARRAY rows[3];
    int tall[3];
    for (int c = 0; c < 3; c++) {
        const jpeg_component_info *component = &info->comp_info[c];
        tall[c] = component->v_samp_factor * component->DCT_scaled_size;
        JDIMENSION wide = component->width_in_blocks * (JDIMENSION)component->DCT_scaled_size;
        rows[c] = (*info->mem->alloc_sarray)((j_common_ptr)info, JPOOL_IMAGE, wide, (JDIMENSION)tall[c]);
    }
    JDIMENSION lines = (JDIMENSION)(info->max_v_samp_factor * info->min_DCT_scaled_size);
    uint32_t done[3] = {0, 0, 0};
    while (info->output_scanline < info->output_height) {
        if (jpeg_read_raw_data(info, rows, lines) != lines) ERREXIT(info, JERR_INPUT_EOF); /* never suspends */
        for (int c = 0; c < 3; c++) {
            for (int k = 0; k < tall[c] && done[c] < layout->height[c]; k++, done[c]++) {
                memcpy(d->sink->plane_row(d->sink->self, c), rows[c][k], layout->width[c]);
                d->sink->plane_commit(d->sink->self, c);
            }
        }
    }
}

/* RGB or gray rows (CMYK made RGB), one at a time. */
static void read_rows(decoder *d, int cmyk) {
    j_decompress_ptr info = &d->info;
    JSAMPROW cmyk_row = NULL;
    if (cmyk) cmyk_row = (*info->mem->alloc_large)((j_common_ptr)info, JPOOL_IMAGE, (size_t)info->output_width * 4);
    while (info->output_scanline < info->output_height) {
        uint8_t *row = d->sink->row(d->sink->self);
        JSAMPROW target = cmyk ? cmyk_row : row;
        if (jpeg_read_scanlines(info, &target, 1) != 1) ERREXIT(info, JERR_INPUT_EOF); /* never suspends */
        if (cmyk) cmyk_to_rgb(cmyk_row, row, info->output_width, info->saw_Adobe_marker);
        d->sink->commit(d->sink->self);
    }
}

static void run(decoder *d, wf_decode_outcome *out) {
    j_decompress_ptr info = &d->info;
    jpeg_create_decompress(info);
    info->client_data = d;
    info->src = &d->source.manager;
    info->mem->max_memory_to_use = (long)d->options->max_memory;
    d->progress.progress_monitor = progress_monitor;
    info->progress = &d->progress;
    /* Only APP2 is read; EXIF, XMP, comments and every other segment are skipped by seeking. */
    jpeg_set_marker_processor(info, JPEG_APP0 + 2, read_app2);
    jpeg_read_header(info, TRUE);

    int cmyk = 0;
    switch (info->jpeg_color_space) {
    case JCS_GRAYSCALE: info->out_color_space = JCS_GRAYSCALE; break;
    case JCS_YCbCr:
    case JCS_RGB: info->out_color_space = JCS_RGB; break;
    case JCS_CMYK:
    case JCS_YCCK: info->out_color_space = JCS_CMYK, cmyk = 1; break;
    default:
        wf_jpeg_fail((j_common_ptr)info, WF_JPEG_STOP_UNSUPPORTED, "unsupported JPEG colour space (%d components)",
                     info->num_components);
    }
    info->scale_num = 1;
    info->scale_denom = d->options->scale_denom;
    wf_plane_layout layout;
    int planar = planar_layout(info, d->sink, &layout);
    info->raw_data_out = planar ? TRUE : FALSE;
    jpeg_start_decompress(info);

    char message[200] = "";
    d->sink_status = planar ? d->sink->begin_planes(d->sink->self, info->output_width, info->output_height, &layout, 1,
                                                    message, sizeof message)
                            : d->sink->begin(d->sink->self, info->output_width, info->output_height,
                                             cmyk ? 3 : info->output_components, message, sizeof message);
    if (d->sink_status != WF_DERIVE_OK) wf_jpeg_fail((j_common_ptr)info, WF_JPEG_STOP_LIMIT, "%s", message);
    if (planar) read_planes(d, &layout);
    else read_rows(d, cmyk);
    jpeg_finish_decompress(info);

    out->icc = assemble_icc(&d->icc, &out->icc_length);
    /* A CMYK profile does not describe the RGB we made from it. */
    if (cmyk && out->icc) {
        free(out->icc);
        out->icc = NULL;
        out->icc_length = 0;
    }
    if (d->icc.too_large && !cmyk) wf_icc_fits(d->icc.seen_bytes, out); /* left out, with the reason */
    else if (d->icc.seen && out->icc == NULL) out->warnings++;           /* a profile was there and is dropped */
    out->warnings += (int32_t)d->error.manager.num_warnings;
    out->status = WF_DERIVE_OK;
}

static void describe_failure(decoder *d, wf_decode_outcome *out) {
    const struct jpeg_error_mgr *error = &d->error.manager;
    char *message = d->error.message;
    switch (d->error.stop) {
    case WF_JPEG_STOP_TRUNCATED:
        wf_outcome_fail(out, WF_DERIVE_ERR_TRUNCATED, "truncated JPEG: the image data ends early");
        return;
    case WF_JPEG_STOP_DAMAGED:
        wf_lowercase_first(message);
        wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "%s", message);
        return;
    case WF_JPEG_STOP_UNSUPPORTED:
        wf_outcome_fail(out, WF_DERIVE_ERR_UNSUPPORTED, "%s", message);
        return;
    case WF_JPEG_STOP_LIMIT:
        wf_outcome_fail(out, d->sink_status != WF_DERIVE_OK ? d->sink_status : WF_DERIVE_ERR_LIMIT, "%s", message);
        return;
    default: break;
    }
    if (d->source.reached_end || error->msg_code == JERR_INPUT_EOF) {
        wf_outcome_fail(out, WF_DERIVE_ERR_TRUNCATED, "truncated JPEG: the image data ends early");
    } else if (error->msg_code == JERR_NO_BACKING_STORE) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "JPEG needs more than the %llu MiB decoding limit (a large progressive file)",
                        (unsigned long long)(d->options->max_memory >> 20));
    } else if (error->msg_code == JERR_OUT_OF_MEMORY) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory decoding the JPEG");
    } else if (error->msg_code == JERR_SOF_UNSUPPORTED || error->msg_code == JERR_BAD_PRECISION ||
               error->msg_code == JERR_CONVERSION_NOTIMPL) {
        wf_lowercase_first(message);
        wf_outcome_fail(out, WF_DERIVE_ERR_UNSUPPORTED, "%s", message);
    } else {
        wf_lowercase_first(message);
        wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt JPEG: %s", message);
    }
}

void wf_decode_jpeg(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out) {
    decoder *d = calloc(1, sizeof *d); /* the ICC table makes it 3 KB; keep it off small thread stacks */
    if (!d) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        return;
    }
    d->info.err = wf_jpeg_error_init(&d->error);
    d->error.strict = 1;
    wf_jpeg_source_init(&d->source, stream);
    d->options = options;
    d->sink = sink;
    d->sink_status = WF_DERIVE_OK;
    if (setjmp(d->error.jump) == 0) {
        run(d, out);
    } else {
        free(out->icc);
        out->icc = NULL;
        out->icc_length = 0;
        describe_failure(d, out);
    }
    jpeg_destroy_decompress(&d->info);
    free_icc(&d->icc);
    free(d);
}
