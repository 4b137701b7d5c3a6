/*
 * The encoder's colour kernels: RGB to YCbCr as libjpeg's rgb_ycc_convert (jccolor.c: 16-bit fixed point,
 * Cb and Cr rounded with 0.5 − ε so they never reach 256), and 2×2 chroma downsampling as its
 * h2v2_downsample (jcsample.c: the four samples' sum plus a bias alternating 1, 2, shifted by two). Exact
 * integers, so the AVX2 kernels and the portable ones give the same bytes, and libjpeg's.
 */
#include "jpeg_fdct.h"

#include "resample_kernels.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define WF_HAVE_AVX2_KERNELS 1
#include <immintrin.h>
#endif

/* FIX(x) = round(x × 2^16), jccolor.c's SCALEBITS 16 */
enum {
    R_Y = 19595, G_Y = 38470, B_Y = 7471,   /* 0.29900, 0.58700, 0.11400 */
    R_CB = 11059, G_CB = 21709,             /* 0.16874, 0.33126 (subtracted) */
    HALF = 32768,                           /* 0.5: B's weight in Cb, R's in Cr */
    G_CR = 27439, B_CR = 5329,              /* 0.41869, 0.08131 (subtracted) */
    Y_ROUND = 1 << 15,
    CBCR_OFFSET = (128 << 16) + (1 << 15) - 1,
};

static void rgb_to_ycc_portable(const uint8_t *rgb, uint32_t from, uint32_t width, uint8_t *y, uint8_t *cb,
                                uint8_t *cr) {
    for (uint32_t x = from; x < width; x++) {
        int32_t r = rgb[3 * (size_t)x], g = rgb[3 * (size_t)x + 1], b = rgb[3 * (size_t)x + 2];
        y[x] = (uint8_t)((R_Y * r + G_Y * g + B_Y * b + Y_ROUND) >> 16);
        cb[x] = (uint8_t)((-R_CB * r - G_CB * g + HALF * b + CBCR_OFFSET) >> 16);
        cr[x] = (uint8_t)((HALF * r - G_CR * g - B_CR * b + CBCR_OFFSET) >> 16);
    }
}

static void downsample_portable(const uint8_t *a, const uint8_t *b, uint32_t from, uint32_t width, uint8_t *out) {
    for (uint32_t x = from; x < width; x++) {
        int bias = 1 + (int)(x & 1);
        out[x] = (uint8_t)((a[2 * x] + a[2 * x + 1] + b[2 * x] + b[2 * x + 1] + bias) >> 2);
    }
}

#ifdef WF_HAVE_AVX2_KERNELS
#define WF_AVX2 __attribute__((target("avx2")))

#define PAIR(low, high) _mm256_set1_epi32((int32_t)(((uint32_t)(uint16_t)(int16_t)(low)) | ((uint32_t)(uint16_t)(int16_t)(high) << 16)))

/* Σ over two interleaved pairs, lanes 0-3 (lo) and 4-7 (hi) of each half, >> 16, as int16 in order. */
WF_AVX2 static inline __m256i weigh(__m256i p_lo, __m256i p_hi, __m256i p_k, __m256i q_lo, __m256i q_hi, __m256i q_k,
                                   __m256i offset) {
    __m256i lo = _mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(p_lo, p_k), _mm256_madd_epi16(q_lo, q_k)), offset);
    __m256i hi = _mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(p_hi, p_k), _mm256_madd_epi16(q_hi, q_k)), offset);
    return _mm256_packs_epi32(_mm256_srli_epi32(lo, 16), _mm256_srli_epi32(hi, 16));
}

WF_AVX2 static inline void store16(uint8_t *out, __m256i words) {
    _mm_storeu_si128((__m128i *)out, _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1)));
}

/* Sixteen pixels at a time: byte shuffles split 48 bytes into R, G and B, and pmaddwd weighs pairs of
 * channels. The weights over 32767 are split: G_Y = 22086 + 16384, and 0.5 is 16384 on a doubled pair. */
WF_AVX2 static uint32_t rgb_to_ycc_avx2(const uint8_t *rgb, uint32_t width, uint8_t *y, uint8_t *cb, uint8_t *cr) {
    const __m128i r0 = _mm_setr_epi8(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i r1 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14, -1, -1, -1, -1, -1);
    const __m128i r2 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 4, 7, 10, 13);
    const __m128i g0 = _mm_setr_epi8(1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i g1 = _mm_setr_epi8(-1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1);
    const __m128i g2 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14);
    const __m128i b0 = _mm_setr_epi8(2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i b1 = _mm_setr_epi8(-1, -1, -1, -1, -1, 1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1);
    const __m128i b2 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15);
    const __m256i k_y_rg = PAIR(R_Y, G_Y - 16384), k_y_bg = PAIR(B_Y, 16384);
    const __m256i k_cb_rg = PAIR(-R_CB, -G_CB), k_cb_bb = PAIR(16384, 16384);
    const __m256i k_cr_rr = PAIR(16384, 16384), k_cr_gb = PAIR(-G_CR, -B_CR);
    const __m256i y_round = _mm256_set1_epi32(Y_ROUND), cbcr = _mm256_set1_epi32(CBCR_OFFSET);
    uint32_t x = 0;
    for (; x + 16 <= width; x += 16) {
        const __m128i *in = (const __m128i *)(rgb + (size_t)x * 3);
        __m128i v0 = _mm_loadu_si128(in), v1 = _mm_loadu_si128(in + 1), v2 = _mm_loadu_si128(in + 2);
        __m256i r = _mm256_cvtepu8_epi16(_mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(v0, r0), _mm_shuffle_epi8(v1, r1)), _mm_shuffle_epi8(v2, r2)));
        __m256i g = _mm256_cvtepu8_epi16(_mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(v0, g0), _mm_shuffle_epi8(v1, g1)), _mm_shuffle_epi8(v2, g2)));
        __m256i b = _mm256_cvtepu8_epi16(_mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(v0, b0), _mm_shuffle_epi8(v1, b1)), _mm_shuffle_epi8(v2, b2)));
        __m256i rg_lo = _mm256_unpacklo_epi16(r, g), rg_hi = _mm256_unpackhi_epi16(r, g);
        __m256i bg_lo = _mm256_unpacklo_epi16(b, g), bg_hi = _mm256_unpackhi_epi16(b, g);
        __m256i bb_lo = _mm256_unpacklo_epi16(b, b), bb_hi = _mm256_unpackhi_epi16(b, b);
        __m256i rr_lo = _mm256_unpacklo_epi16(r, r), rr_hi = _mm256_unpackhi_epi16(r, r);
        __m256i gb_lo = _mm256_unpacklo_epi16(g, b), gb_hi = _mm256_unpackhi_epi16(g, b);
        store16(y + x, weigh(rg_lo, rg_hi, k_y_rg, bg_lo, bg_hi, k_y_bg, y_round));
        store16(cb + x, weigh(rg_lo, rg_hi, k_cb_rg, bb_lo, bb_hi, k_cb_bb, cbcr));
        store16(cr + x, weigh(rr_lo, rr_hi, k_cr_rr, gb_lo, gb_hi, k_cr_gb, cbcr));
    }
    return x;
}

/* Sixteen outputs at a time: pmaddubsw by ones sums horizontal pairs, one add joins the rows. */
WF_AVX2 static uint32_t downsample_avx2(const uint8_t *a, const uint8_t *b, uint32_t width, uint8_t *out) {
    const __m256i ones = _mm256_set1_epi8(1), bias = _mm256_set1_epi32(1 | 2 << 16);
    uint32_t x = 0;
    for (; x + 16 <= width; x += 16) {
        __m256i top = _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i *)(a + 2 * (size_t)x)), ones);
        __m256i bottom = _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i *)(b + 2 * (size_t)x)), ones);
        store16(out + x, _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(top, bottom), bias), 2));
    }
    return x;
}
#endif

void wf_jpeg_rgb_to_ycc(int kernels, const uint8_t *rgb, uint32_t width, uint8_t *y, uint8_t *cb, uint8_t *cr) {
    uint32_t done = 0;
#ifdef WF_HAVE_AVX2_KERNELS
    if (kernels == WF_KERNELS_AVX2) done = rgb_to_ycc_avx2(rgb, width, y, cb, cr);
#endif
    rgb_to_ycc_portable(rgb, done, width, y, cb, cr);
}

void wf_jpeg_downsample_2x2(int kernels, const uint8_t *a, const uint8_t *b, uint32_t width, uint8_t *out) {
    uint32_t done = 0;
#ifdef WF_HAVE_AVX2_KERNELS
    if (kernels == WF_KERNELS_AVX2) done = downsample_avx2(a, b, width, out);
#endif
    downsample_portable(a, b, done, width, out);
}
