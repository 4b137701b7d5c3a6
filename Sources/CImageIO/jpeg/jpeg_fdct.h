/*
 * Internal: the JPEG encoder's pixel kernels (jpeg_fdct.c, jpeg_color.c). Each computes exactly what
 * libjpeg-turbo computes for the same step, so a file we write is the file libjpeg would have written.
 * `kernels` is WF_KERNELS_AVX2 or WF_KERNELS_PORTABLE (resample_kernels.h): both give the same bits.
 */
#ifndef WF_JPEG_FDCT_H
#define WF_JPEG_FDCT_H

#include <stddef.h>
#include <stdint.h>

/* jpeg_natural_order: the natural (row-major) index of the k-th coefficient in zigzag order. */
extern const uint8_t wf_jpeg_natural_order[64];

/* One quantisation table as libjpeg-turbo's jcdctmgr.c turns it into divisors for JDCT_ISLOW
 * (compute_reciprocal of quantval × 8): q = ((|x| + corr) × recip) >> shift, the sign put back. */
typedef struct {
    uint16_t recip[64];
    uint16_t corr[64];
    uint16_t scale[64]; /* 2^(32 - shift): two 16-bit high multiplies make the same shift */
    uint8_t shift[64];
} wf_jpeg_divisors;

/* From a table's quantval (natural order, 1-255: baseline). */
void wf_jpeg_divisors_init(wf_jpeg_divisors *divisors, const uint16_t quantval[64]);

/* `count` blocks side by side: block i is rows[r][8i .. 8i+7] for r < 8. Each is transformed by
 * jfdctint.c's integer DCT, quantised, and stored in natural order; masks[i] gets bit k set when the
 * block's k-th coefficient in zigzag order is not zero. */
void wf_jpeg_fdct_quantize(int kernels, const uint8_t *const rows[8], uint32_t count,
                           const wf_jpeg_divisors *divisors, int16_t (*blocks)[64], uint64_t *masks);

/* One row of RGB as jccolor.c's rgb_ycc_convert makes Y, Cb and Cr of it. */
void wf_jpeg_rgb_to_ycc(int kernels, const uint8_t *rgb, uint32_t width, uint8_t *y, uint8_t *cb, uint8_t *cr);

/* One row of jcsample.c's h2v2_downsample: out[i] is the mean of the two-by-two square at 2i of rows
 * `a` and `b` (2 × width samples each), rounded with bias 1, 2, 1, 2, ... from i = 0. */
void wf_jpeg_downsample_2x2(int kernels, const uint8_t *a, const uint8_t *b, uint32_t width, uint8_t *out);

#endif
