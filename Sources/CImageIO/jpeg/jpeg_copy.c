/*
 * The lossless path: a JPEG whose derived image would be the photo itself, at its own size and upright, is
 * written from its DCT coefficients (as `jpegtran -copy icc -optimize` does) instead of being decoded and
 * encoded again. Nothing is lost, and the Huffman tables are optimised. It is taken only where the copy
 * cannot cost a visitor more bytes than a fresh encode would: 8-bit YCbCr 4:2:0 or grayscale (as the
 * encoder writes), with 8-bit quantisation tables at least as coarse, in sum, as the requested quality's.
 * Everything else (finer tables, 4:4:4 or 4:2:2 chroma, CMYK, a turned photo) goes the usual way.
 * Metadata is stripped: only a JFIF header and the ICC profile are written, as the encoder writes them.
 */
#include "jpeg_format.h"
#include "jpeg_support.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output_file.h"
#include "source_file.h"

typedef struct {
    struct jpeg_decompress_struct in;
    struct jpeg_compress_struct out;
    wf_jpeg_error error; /* shared by both, as jpegtran shares one */
    wf_jpeg_source source;
    struct jpeg_progress_mgr progress;
    uint32_t max_scans;
    wf_output_stream output; /* once opened (kept here: it must survive a longjmp) */
} copier;

static void scan_limit(j_common_ptr common) {
    j_decompress_ptr in = (j_decompress_ptr)common;
    copier *c = (copier *)in->client_data;
    if (in->input_scan_number > (int)c->max_scans)
        wf_jpeg_fail(common, WF_JPEG_STOP_LIMIT, "JPEG with more than %u scans (the limit for progressive files)",
                     c->max_scans);
}

/* The sum of a table's steps; 0 for a table with 16-bit steps, which a baseline file cannot carry. */
static unsigned table_sum(const JQUANT_TBL *table) {
    unsigned sum = 0;
    for (int k = 0; k < DCTSIZE2; k++) {
        if (table->quantval[k] > 255) return 0;
        sum += table->quantval[k];
    }
    return sum;
}

/* Whether the source is stored as the encoder would store it (components, sampling) at tables no finer
 * than `quality`'s. libjpeg itself gives the tables of a quality: a compressor set to it. `latched`: the
 * tables the coefficients were read with (a file may redefine a table between scans); else those the
 * header named, a first look that spares reading every coefficient of a file that will not do. */
static int eligible(copier *c, int quality, int latched) {
    j_decompress_ptr in = &c->in;
    if (in->data_precision != 8) return 0;
    int gray = in->jpeg_color_space == JCS_GRAYSCALE && in->num_components == 1;
    int ycc = in->jpeg_color_space == JCS_YCbCr && in->num_components == 3 && in->comp_info[0].h_samp_factor == 2 &&
              in->comp_info[0].v_samp_factor == 2 && in->comp_info[1].h_samp_factor == 1 &&
              in->comp_info[1].v_samp_factor == 1 && in->comp_info[2].h_samp_factor == 1 &&
              in->comp_info[2].v_samp_factor == 1;
    if (!gray && !ycc) return 0;
    struct jpeg_compress_struct *reference = &c->out;
    reference->in_color_space = gray ? JCS_GRAYSCALE : JCS_RGB;
    reference->input_components = gray ? 1 : 3;
    jpeg_set_defaults(reference);
    jpeg_set_quality(reference, quality, TRUE);
    for (int i = 0; i < in->num_components; i++) {
        int slot = in->comp_info[i].quant_tbl_no;
        const JQUANT_TBL *have = latched ? in->comp_info[i].quant_table
                                         : slot >= 0 && slot < NUM_QUANT_TBLS ? in->quant_tbl_ptrs[slot] : NULL;
        const JQUANT_TBL *want = reference->quant_tbl_ptrs[i == 0 ? 0 : 1];
        if (!have || !want || table_sum(have) < table_sum(want)) return 0;
    }
    return 1;
}

/* 1 copied, 0 not eligible (nothing written), -1 no memory for the output. */
static int copy(copier *c, uint32_t width, uint32_t height, int quality, uint64_t max_memory,
                const uint8_t *icc, size_t icc_length) {
    j_decompress_ptr in = &c->in;
    j_compress_ptr out = &c->out;
    jpeg_create_decompress(in);
    jpeg_create_compress(out);
    in->client_data = c;
    in->src = &c->source.manager;
    in->mem->max_memory_to_use = (long)max_memory;
    c->progress.progress_monitor = scan_limit;
    in->progress = &c->progress;
    jpeg_read_header(in, TRUE); /* every marker but the frame's own is skipped: none is kept */
    if (in->image_width != width || in->image_height != height) return 0; /* changed since it was decoded */
    if (!eligible(c, quality, 0)) return 0;
    jvirt_barray_ptr *coefficients = jpeg_read_coefficients(in);
    if (!eligible(c, quality, 1)) return 0;
    if (wf_output_open(&c->output) != 0) return -1;
    jpeg_stdio_dest(out, c->output.file);
    jpeg_copy_critical_parameters(in, out);
    /* as the encoder writes: a plain JFIF header (no density from the source), optimised tables */
    out->write_JFIF_header = TRUE;
    out->density_unit = 0;
    out->X_density = out->Y_density = 1;
    out->write_Adobe_marker = FALSE;
    out->optimize_coding = TRUE;
    jpeg_write_coefficients(out, coefficients);
    if (icc && icc_length > 0) jpeg_write_icc_profile(out, icc, (unsigned int)icc_length);
    jpeg_finish_compress(out);
    jpeg_finish_decompress(in);
    return 1;
}

int wf_copy_jpeg(int source, wf_encoded *encoded, uint32_t width, uint32_t height, int quality,
                 const wf_decode_options *options, const uint8_t *icc, size_t icc_length, wf_derive_status *status,
                 char *message, size_t size) {
    *status = WF_DERIVE_OK;
    wf_stream *stream = malloc(sizeof *stream);
    copier *c = calloc(1, sizeof *c);
    if (!stream || !c) {
        free(stream);
        free(c);
        return 0;
    }
    wf_stream_init_fd(stream, source);
    wf_jpeg_source_init(&c->source, stream);
    c->in.err = c->out.err = wf_jpeg_error_init(&c->error);
    c->error.strict = 1;
    c->max_scans = options->max_scans;
    int copied = 0;
    if (setjmp(c->error.jump) == 0) {
        copied = copy(c, width, height, quality, options->max_memory, icc, icc_length);
        if (copied < 0) {
            snprintf(message, size, "out of memory");
            *status = WF_DERIVE_ERR_LIMIT;
            copied = 1;
        }
    } else if (c->output.file) {
        wf_lowercase_first(c->error.message);
        snprintf(message, size, "cannot copy the JPEG: %s", c->error.message);
        *status = WF_DERIVE_ERR_WRITE;
        copied = 1;
    } /* else: the source could not be read this time; the usual path will say why, or make it */
    jpeg_destroy_compress(&c->out);
    jpeg_destroy_decompress(&c->in);
    if (c->output.file) *status = wf_output_close(&c->output, encoded, *status, message, size);
    free(c);
    free(stream);
    return copied;
}
