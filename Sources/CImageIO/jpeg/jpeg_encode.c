/*
 * The JPEG encoder of derived images: baseline (not progressive: thumbnails are small, and baseline is
 * faster to write and to decode), 4:2:0 for colour, Huffman tables optimised, a JFIF APP0 and the ICC
 * profile (APP2) as the only metadata. Creates `path` as a new file and removes it again on failure.
 *
 * The bytes are exactly those of libjpeg-turbo's scanline encoder with optimize_coding (what this file
 * used to call), made faster: the colour conversion, downsampling, DCT and quantisation are our kernels
 * (jpeg_color.c, jpeg_fdct.c: libjpeg's arithmetic, AVX2 where the machine has it), the Huffman statistics
 * and tables ours (jpeg_huffman.c), and libjpeg only writes: the coefficients go in by
 * jpeg_write_coefficients with our tables installed, and its SIMD entropy coder does the rest. libjpeg's own
 * optimize_coding statistics pass cost more than the whole encode without it.
 */
#include "jpeg_format.h"
#include "jpeg_support.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jpeg_fdct.h"
#include "jpeg_huffman.h"
#include "output_file.h"
#include "resample_kernels.h"
#include "source_file.h"

/* One component's samples, rows `first_row` on at `pixels`; past `width` and `height` the last column and
 * row repeat (to whole blocks). */
typedef struct {
    const uint8_t *pixels;
    size_t stride;
    uint32_t width, height;
    uint32_t first_row;
} sample_plane;

/* Interleaved RGB made into Y, Cb and Cr one iMCU row (16 rows) at a time, as the encoder reaches it: the
 * samples stay in cache between conversion and DCT, and no image-sized plane is ever allocated. */
typedef struct {
    int kernels;
    const uint8_t *rgb;
    uint32_t width, height, chroma_width, chroma_height;
    uint8_t *y, *cb, *cr;              /* 16 rows × width, 8 rows × chroma_width each */
    uint8_t *cb0, *cb1, *cr0, *cr1;    /* a pair of full-resolution rows, widened to whole MCUs */
} rgb_strips;

typedef struct {
    struct jpeg_compress_struct info;
    wf_jpeg_error error;
    int kernels;
    wf_jpeg_counts counts[2]; /* luminance, chrominance tables */
} jpeg_writer;

/* One component's geometry as libjpeg's initial_setup computes it. */
typedef struct {
    uint32_t blocks_across, blocks_down; /* real blocks */
    int h, v;                            /* blocks per MCU */
} component_blocks;

static uint32_t divide_up(uint64_t a, uint64_t b) { return (uint32_t)((a + b - 1) / b); }

static uint32_t round_up(uint32_t a, uint32_t b) { return divide_up(a, b) * b; }

/* One row of blocks: whole blocks straight from the plane (the bottom rows repeating), a block that
 * crosses the right edge from a copy with its last column repeated. */
static void transform_block_row(const jpeg_writer *w, const sample_plane *plane, uint32_t block_row,
                                uint32_t blocks_across, const wf_jpeg_divisors *divisors, JBLOCKROW out,
                                uint64_t *masks) {
    const uint8_t *rows[8];
    for (uint32_t r = 0; r < 8; r++) {
        uint32_t y = block_row * 8 + r;
        rows[r] = plane->pixels + (size_t)((y < plane->height ? y : plane->height - 1) - plane->first_row) * plane->stride;
    }
    uint32_t whole = plane->width / 8 < blocks_across ? plane->width / 8 : blocks_across;
    wf_jpeg_fdct_quantize(w->kernels, rows, whole, divisors, (int16_t(*)[64])out, masks);
    for (uint32_t b = whole; b < blocks_across; b++) {
        uint8_t edge[64];
        const uint8_t *edge_rows[8];
        for (uint32_t r = 0; r < 8; r++) {
            for (uint32_t c = 0; c < 8; c++) {
                uint32_t x = b * 8 + c;
                edge[r * 8 + c] = rows[r][x < plane->width ? x : plane->width - 1];
            }
            edge_rows[r] = edge + r * 8;
        }
        wf_jpeg_fdct_quantize(w->kernels, edge_rows, 1, divisors, (int16_t(*)[64])(out + b), masks + b);
    }
}

/* The DC differences of one iMCU row in the order the blocks are coded: MCU by MCU, and within an MCU row
 * by row. Dummy blocks (past the image, inside its last MCUs) repeat the DC before them: they leave the
 * prediction alone and are counted on their own. */
static int32_t count_dc_row(wf_jpeg_counts *counts, JBLOCKARRAY rows, const component_blocks *c, uint32_t imcu_row,
                            int32_t last) {
    uint32_t mcus_across = divide_up(c->blocks_across, (uint32_t)c->h);
    for (uint32_t m = 0; m < mcus_across; m++)
        for (int y = 0; y < c->v; y++) {
            if (imcu_row * (uint32_t)c->v + (uint32_t)y >= c->blocks_down) break;
            for (int x = 0; x < c->h; x++) {
                uint32_t column = m * (uint32_t)c->h + (uint32_t)x;
                if (column >= c->blocks_across) break;
                int32_t dc = rows[y][column][0];
                wf_jpeg_count_dc(counts, dc - last);
                last = dc;
            }
        }
    return last;
}

/* One iMCU row of one component into its coefficient array, counting its symbols on the way; returns the
 * DC the next row's first block is predicted from. */
static int32_t transform_imcu_row(jpeg_writer *w, const sample_plane *plane, const component_blocks *c,
                                  jvirt_barray_ptr array, uint32_t m, const wf_jpeg_divisors *divisors,
                                  wf_jpeg_counts *counts, uint64_t *masks, int32_t last_dc) {
    j_common_ptr common = (j_common_ptr)&w->info;
    JBLOCKARRAY rows = (*common->mem->access_virt_barray)(common, array, m * (JDIMENSION)c->v, (JDIMENSION)c->v, TRUE);
    for (int y = 0; y < c->v; y++) {
        uint32_t block_row = m * (uint32_t)c->v + (uint32_t)y;
        if (block_row >= c->blocks_down) break;
        transform_block_row(w, plane, block_row, c->blocks_across, divisors, rows[y], masks);
        for (uint32_t b = 0; b < c->blocks_across; b++) wf_jpeg_count_ac(counts, rows[y][b], masks[b]);
    }
    return count_dc_row(counts, rows, c, m, last_dc);
}

/* Rows 16m to 16m + 15 of the image as libjpeg converts and downsamples them for 4:2:0: each pair of rows
 * converted (the last row doubled when the height is odd), Cb and Cr widened to whole MCUs by repeating
 * their last sample, then averaged two by two. The chroma rows are as wide as their blocks, so no column of
 * them is repeated later; only the last row is. */
static void convert_strip(rgb_strips *s, uint32_t m, sample_plane planes[3]) {
    size_t wide = 2 * (size_t)s->chroma_width;
    uint32_t end = 8 * m + 8 < s->chroma_height ? 8 * m + 8 : s->chroma_height;
    for (uint32_t row = 8 * m; row < end; row++) {
        uint32_t top = 2 * row, bottom = top + 1 < s->height ? top + 1 : top;
        wf_jpeg_rgb_to_ycc(s->kernels, s->rgb + (size_t)top * s->width * 3, s->width,
                           s->y + (size_t)(top - 16 * m) * s->width, s->cb0, s->cr0);
        if (bottom != top) {
            wf_jpeg_rgb_to_ycc(s->kernels, s->rgb + (size_t)bottom * s->width * 3, s->width,
                               s->y + (size_t)(bottom - 16 * m) * s->width, s->cb1, s->cr1);
        } else {
            memcpy(s->cb1, s->cb0, s->width);
            memcpy(s->cr1, s->cr0, s->width);
        }
        for (size_t x = s->width; x < wide; x++) {
            s->cb0[x] = s->cb0[s->width - 1];
            s->cb1[x] = s->cb1[s->width - 1];
            s->cr0[x] = s->cr0[s->width - 1];
            s->cr1[x] = s->cr1[s->width - 1];
        }
        wf_jpeg_downsample_2x2(s->kernels, s->cb0, s->cb1, s->chroma_width, s->cb + (size_t)(row - 8 * m) * s->chroma_width);
        wf_jpeg_downsample_2x2(s->kernels, s->cr0, s->cr1, s->chroma_width, s->cr + (size_t)(row - 8 * m) * s->chroma_width);
    }
    planes[0] = (sample_plane){s->y, s->width, s->width, s->height, 16 * m};
    planes[1] = (sample_plane){s->cb, s->chroma_width, s->chroma_width, s->chroma_height, 8 * m};
    planes[2] = (sample_plane){s->cr, s->chroma_width, s->chroma_width, s->chroma_height, 8 * m};
}

static void install_table(jpeg_writer *w, JHUFF_TBL **slot, const int64_t counts[257]) {
    j_common_ptr common = (j_common_ptr)&w->info;
    if (!*slot) *slot = jpeg_alloc_huff_table(common);
    if (wf_jpeg_optimal_table(counts, (*slot)->bits, (*slot)->huffval) != 0) ERREXIT(common, JERR_HUFF_CLEN_OVERFLOW);
    (*slot)->sent_table = FALSE;
}

/* The core: 1 plane (gray) or 3 (Y, Cb, Cr at libjpeg's default 2×2, 1×1, 1×1 sampling), from `whole`
 * planes or made strip by strip from RGB by `strips`. */
static void encode(jpeg_writer *w, FILE *file, const sample_plane *whole, rgb_strips *strips, int count,
                   uint32_t width, uint32_t height, int quality, const uint8_t *icc, size_t icc_length) {
    struct jpeg_compress_struct *info = &w->info;
    jpeg_create_compress(info);
    jpeg_stdio_dest(info, file);
    info->image_width = width;
    info->image_height = height;
    info->input_components = count;
    info->in_color_space = count == 1 ? JCS_GRAYSCALE : JCS_YCbCr;
    jpeg_set_defaults(info);
    jpeg_set_quality(info, quality, TRUE);
    info->optimize_coding = FALSE; /* the tables are ours, installed before the data pass */

    component_blocks blocks[3];
    jvirt_barray_ptr arrays[3];
    int max_h = 1, max_v = 1;
    for (int i = 0; i < count; i++) {
        max_h = info->comp_info[i].h_samp_factor > max_h ? info->comp_info[i].h_samp_factor : max_h;
        max_v = info->comp_info[i].v_samp_factor > max_v ? info->comp_info[i].v_samp_factor : max_v;
    }
    uint32_t widest = 1;
    for (int i = 0; i < count; i++) {
        component_blocks *c = &blocks[i];
        c->h = info->comp_info[i].h_samp_factor;
        c->v = info->comp_info[i].v_samp_factor;
        c->blocks_across = divide_up((uint64_t)width * (uint64_t)c->h, (uint64_t)max_h * 8);
        c->blocks_down = divide_up((uint64_t)height * (uint64_t)c->v, (uint64_t)max_v * 8);
        widest = c->blocks_across > widest ? c->blocks_across : widest;
        arrays[i] = (*info->mem->request_virt_barray)((j_common_ptr)info, JPOOL_IMAGE, FALSE,
                                                      round_up(c->blocks_across, (uint32_t)c->h),
                                                      round_up(c->blocks_down, (uint32_t)c->v), (JDIMENSION)c->v);
    }
    jpeg_write_coefficients(info, arrays); /* checks the size, realises the arrays, writes SOI and JFIF */
    if (icc && icc_length > 0) jpeg_write_icc_profile(info, icc, (unsigned int)icc_length);

    uint64_t *masks = (*info->mem->alloc_large)((j_common_ptr)info, JPOOL_IMAGE, (size_t)widest * sizeof *masks);
    memset(w->counts, 0, sizeof w->counts);
    wf_jpeg_divisors divisors[3];
    for (int i = 0; i < count; i++)
        wf_jpeg_divisors_init(&divisors[i], info->quant_tbl_ptrs[info->comp_info[i].quant_tbl_no]->quantval);
    int32_t last_dc[3] = {0, 0, 0};
    sample_plane planes[3];
    for (int i = 0; i < count && whole; i++) planes[i] = whole[i];
    for (uint32_t m = 0, rows = divide_up(height, 8 * (uint32_t)max_v); m < rows; m++) {
        if (strips) convert_strip(strips, m, planes);
        for (int i = 0; i < count; i++)
            last_dc[i] = transform_imcu_row(w, &planes[i], &blocks[i], arrays[i], m, &divisors[i],
                                            &w->counts[i == 0 ? 0 : 1], masks, last_dc[i]);
    }
    /* in a colour scan the MCUs are whole: what is missing of them is dummy blocks */
    for (int i = 0; i < count && count > 1; i++)
        wf_jpeg_count_dummy(&w->counts[i == 0 ? 0 : 1],
                            (int64_t)round_up(blocks[i].blocks_across, (uint32_t)blocks[i].h) *
                                    round_up(blocks[i].blocks_down, (uint32_t)blocks[i].v) -
                                (int64_t)blocks[i].blocks_across * blocks[i].blocks_down);
    for (int t = 0; t < (count == 1 ? 1 : 2); t++) {
        if (w->counts[t].too_large) ERREXIT(info, JERR_BAD_DCT_COEF);
        install_table(w, &info->dc_huff_tbl_ptrs[t], w->counts[t].dc);
        install_table(w, &info->ac_huff_tbl_ptrs[t], w->counts[t].ac);
    }
    jpeg_finish_compress(info);
}

/* Encodes into `out` (memory); on failure `out` is left as it was. */
static wf_derive_status write_file(wf_encoded *out, const sample_plane *planes, rgb_strips *strips, int count,
                                   uint32_t width, uint32_t height, int quality, const uint8_t *icc, size_t icc_length,
                                   int kernels, char *message, size_t size) {
    wf_output_stream stream;
    if (wf_output_open(&stream) != 0) {
        snprintf(message, size, "out of memory");
        return WF_DERIVE_ERR_LIMIT;
    }
    FILE *file = stream.file;
    jpeg_writer *w = calloc(1, sizeof *w);
    wf_derive_status status = WF_DERIVE_OK;
    if (!w) {
        snprintf(message, size, "out of memory");
        status = WF_DERIVE_ERR_LIMIT;
    } else {
        w->kernels = kernels;
        w->info.err = wf_jpeg_error_init(&w->error);
        if (setjmp(w->error.jump) == 0) {
            encode(w, file, planes, strips, count, width, height, quality, icc, icc_length);
        } else {
            wf_lowercase_first(w->error.message);
            snprintf(message, size, "cannot write the JPEG: %s", w->error.message);
            status = WF_DERIVE_ERR_WRITE;
        }
        jpeg_destroy_compress(&w->info);
        free(w);
    }
    return wf_output_close(&stream, out, status, message, size);
}

/* ---- interleaved pixels ---- */

static wf_derive_status write_pixels(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height,
                                     int channels, int quality, const uint8_t *icc, size_t icc_length, int kernels,
                                     char *message, size_t size) {
    if (channels == 1 || width == 0 || height == 0) { /* gray, or an empty image libjpeg refuses */
        sample_plane gray = {pixels, width, width, height, 0}, planes[3] = {gray, gray, gray};
        return write_file(out, planes, NULL, channels == 1 ? 1 : 3, width, height, quality, icc, icc_length, kernels,
                          message, size);
    }
    if (channels != 3) { /* what libjpeg said to anything else */
        snprintf(message, size, "cannot write the JPEG: bogus input colorspace");
        return WF_DERIVE_ERR_WRITE;
    }
    rgb_strips strips = {.kernels = kernels, .rgb = pixels, .width = width, .height = height,
                         .chroma_width = 8 * divide_up(width, 16), .chroma_height = divide_up(height, 2)};
    size_t luma = 16 * (size_t)width, chroma = 8 * (size_t)strips.chroma_width, wide = 2 * (size_t)strips.chroma_width;
    uint8_t *memory = malloc(luma + 2 * chroma + 4 * wide);
    if (!memory) {
        snprintf(message, size, "out of memory");
        return WF_DERIVE_ERR_LIMIT;
    }
    strips.y = memory;
    strips.cb = strips.y + luma;
    strips.cr = strips.cb + chroma;
    strips.cb0 = strips.cr + chroma;
    strips.cb1 = strips.cb0 + wide;
    strips.cr0 = strips.cb1 + wide;
    strips.cr1 = strips.cr0 + wide;
    wf_derive_status status =
        write_file(out, NULL, &strips, 3, width, height, quality, icc, icc_length, kernels, message, size);
    free(memory);
    return status;
}

wf_derive_status wf_write_jpeg(wf_encoded *out, const uint8_t *pixels, uint32_t width, uint32_t height,
                               int channels, int quality, const uint8_t *icc, size_t icc_length,
                               char *message, size_t size) {
    return write_pixels(out, pixels, width, height, channels, quality, icc, icc_length, wf_kernels_fastest(),
                        message, size);
}

/* ---- planes ---- */


static wf_derive_status write_wf_planes(wf_encoded *out, const wf_plane *planes, int plane_count, int quality,
                                        const uint8_t *icc, size_t icc_length, int kernels, char *message,
                                        size_t size) {
    if (plane_count != 1 && plane_count != 3) {
        snprintf(message, size, "cannot write the JPEG: %d planes (1 or 3 make an image)", plane_count);
        return WF_DERIVE_ERR_REQUEST;
    }
    uint32_t width = planes[0].width, height = planes[0].height;
    for (int i = 1; i < plane_count; i++)
        if (planes[i].width != divide_up(width, 2) || planes[i].height != divide_up(height, 2)) {
            snprintf(message, size, "cannot write the JPEG: a %u×%u chroma plane for a %u×%u image (4:2:0 needs %u×%u)",
                     planes[i].width, planes[i].height, width, height, divide_up(width, 2), divide_up(height, 2));
            return WF_DERIVE_ERR_REQUEST;
        }
    sample_plane samples[3];
    for (int i = 0; i < plane_count; i++)
        samples[i] = (sample_plane){planes[i].pixels, planes[i].width, planes[i].width, planes[i].height, 0};
    return write_file(out, samples, NULL, plane_count, width, height, quality, icc, icc_length, kernels, message,
                      size);
}

wf_derive_status wf_write_jpeg_planes(wf_encoded *out, const wf_plane *planes, int plane_count, int quality,
                                      const uint8_t *icc, size_t icc_length, char *message, size_t size) {
    return write_wf_planes(out, planes, plane_count, quality, icc, icc_length, wf_kernels_fastest(), message, size);
}

wf_derive_status wf_encode_jpeg(wf_encoded *out, const wf_still *still, wf_encode_note *note) {
    const wf_raster *image = still->image;
    if (image->planar)
        return wf_write_jpeg_planes(out, image->planes, 3, still->quality, still->icc, still->icc_length, note->message,
                                    sizeof note->message);
    return wf_write_jpeg(out, image->pixels, image->width, image->height, image->channels, still->quality, still->icc,
                         still->icc_length, note->message, sizeof note->message);
}

/* ---- for tests: the same writers with the portable kernels on demand ---- */

wf_derive_status wf_encode_jpeg_for_tests(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height,
                                          int32_t channels, int32_t quality, const uint8_t *icc, size_t icc_length,
                                          int32_t portable, char *message, size_t size) {
    wf_encoded encoded = {0};
    wf_derive_status status = write_pixels(&encoded, pixels, width, height, channels, quality, icc, icc_length,
                                           portable ? WF_KERNELS_PORTABLE : wf_kernels_fastest(), message, size);
    if (status == WF_DERIVE_OK) status = wf_output_save(path, &encoded, message, size);
    wf_encoded_free(&encoded);
    return status;
}

wf_derive_status wf_encode_jpeg_planes_for_tests(const char *path, uint8_t *const *pixels, const uint32_t *widths,
                                                 const uint32_t *heights, int32_t plane_count, int32_t quality,
                                                 const uint8_t *icc, size_t icc_length, int32_t portable,
                                                 char *message, size_t size) {
    wf_plane planes[3];
    for (int i = 0; i < plane_count && i < 3; i++) planes[i] = (wf_plane){pixels[i], widths[i], heights[i]};
    wf_encoded encoded = {0};
    wf_derive_status status = write_wf_planes(&encoded, planes, plane_count, quality, icc, icc_length,
                                              portable ? WF_KERNELS_PORTABLE : wf_kernels_fastest(), message, size);
    if (status == WF_DERIVE_OK) status = wf_output_save(path, &encoded, message, size);
    wf_encoded_free(&encoded);
    return status;
}

int32_t wf_jpeg_quantize_for_tests(const uint8_t *samples, size_t stride, uint32_t count, int32_t quality,
                                   int32_t chroma, int32_t portable, int16_t *coefficients, uint64_t *masks) {
    jpeg_writer *w = calloc(1, sizeof *w);
    if (!w) return -1;
    volatile int32_t result = 0;
    w->info.err = wf_jpeg_error_init(&w->error);
    if (setjmp(w->error.jump) == 0) {
        jpeg_create_compress(&w->info);
        w->info.in_color_space = JCS_YCbCr;
        w->info.input_components = 3;
        jpeg_set_defaults(&w->info);
        jpeg_set_quality(&w->info, quality, TRUE);
        wf_jpeg_divisors divisors;
        wf_jpeg_divisors_init(&divisors, w->info.quant_tbl_ptrs[chroma ? 1 : 0]->quantval);
        const uint8_t *rows[8];
        for (int r = 0; r < 8; r++) rows[r] = samples + (size_t)r * stride;
        wf_jpeg_fdct_quantize(portable ? WF_KERNELS_PORTABLE : wf_kernels_fastest(), rows, count, &divisors,
                              (int16_t(*)[64])coefficients, masks);
    } else {
        result = -1;
    }
    jpeg_destroy_compress(&w->info);
    free(w);
    return result;
}

int32_t wf_jpeg_kernels_for_tests(void) { return wf_kernels_fastest(); }
