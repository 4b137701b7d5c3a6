/* Internal: the fixed-point inner loops of the resampler (resample_kernels.c). */
#ifndef WF_RESAMPLE_KERNELS_H
#define WF_RESAMPLE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* Weights are Q14 (2^14 is one); the column between the passes is Q6. */
#define WF_Q_WEIGHT_BITS 14
#define WF_Q_VERTICAL_SHIFT 8    /* Q0 bytes × Q14 weights → Q6 */
#define WF_Q_HORIZONTAL_SHIFT 20 /* Q6 × Q14 → Q0 bytes */
/* The horizontal weights of each output sample are padded with zeros to a multiple of this. */
#define WF_Q_TAP_BLOCK 16

enum { WF_KERNELS_PORTABLE = 0, WF_KERNELS_AVX2 = 1 };

/* The fastest kernels this machine runs. Every choice gives the same bits. */
int wf_kernels_fastest(void);

/* column[i] = Σ weights[k] · rows[k][i] for i < n, rounded to Q6. */
void wf_kernel_vertical(int kernels, const uint8_t *const *rows, const int16_t *weights, uint32_t count, size_t n,
                        int16_t *column);

/* A row of `width` pixels of `channels` samples (2 or 4), alpha last, without its alpha: out has channels − 1
 * samples a pixel. For rows whose alpha is all 255 (the opaque guess, the split into planes). */
void wf_kernel_drop_alpha(int kernels, const uint8_t *in, uint32_t width, int channels, uint8_t *out);

/* An RGB column into its three planes. */
void wf_kernel_split(int kernels, const int16_t *column, uint32_t width, int16_t *const planes[3]);

/* out[x · channels + c] = Σ weights[x · stride + k] · planes[c][starts[x] + k] for k < stride, rounded to a
 * byte, for each of the 1 or 3 channels. `stride` is a multiple of WF_Q_TAP_BLOCK, and every plane readable
 * that far past every start. */
void wf_kernel_horizontal(int kernels, const int16_t *const *planes, const uint32_t *starts, const int16_t *weights,
                          uint32_t stride, uint32_t out_width, uint8_t *out, int channels);

#endif
