/*
 * The resampler's fixed-point kernels for opaque images (gray and RGB: nearly every photo). Weights are
 * Q14 integers summing to exactly 2^14, so a flat area stays exactly flat. The vertical pass turns bytes
 * into a Q6 int16 column, which keeps six bits below the byte for the horizontal pass, and that pass rounds
 * to bytes. All sums are exact integers, so the AVX2 kernels and the portable ones give the same bits on any
 * machine, whichever runs. AVX2's pmaddwd does two multiply-adds a lane, sixteen per instruction.
 */
#include "resample_kernels.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define WF_HAVE_AVX2_KERNELS 1
#include <immintrin.h>
#endif

static inline int16_t to_q6(int32_t sum) {
    int32_t v = (sum + (1 << (WF_Q_VERTICAL_SHIFT - 1))) >> WF_Q_VERTICAL_SHIFT;
    return (int16_t)(v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : v); /* as packs_epi32 saturates */
}

static inline uint8_t to_byte(int32_t sum) {
    int32_t v = (sum + (1 << (WF_Q_HORIZONTAL_SHIFT - 1))) >> WF_Q_HORIZONTAL_SHIFT;
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* ---- portable ---- */

static void vertical_portable(const uint8_t *const *rows, const int16_t *weights, uint32_t count, size_t from,
                              size_t n, int16_t *restrict column) {
    for (size_t i = from; i < n; i++) {
        int32_t sum = 0;
        for (uint32_t k = 0; k < count; k++) sum += (int32_t)weights[k] * rows[k][i];
        column[i] = to_q6(sum);
    }
}

static void horizontal_portable(const int16_t *const *planes, const uint32_t *starts, const int16_t *weights,
                                uint32_t stride, uint32_t from, uint32_t out_width, uint8_t *out, int channels) {
    for (uint32_t x = from; x < out_width; x++) {
        const int16_t *w = weights + (size_t)x * stride;
        for (int channel = 0; channel < channels; channel++) {
            const int16_t *s = planes[channel] + starts[x];
            int32_t sum = 0;
            for (uint32_t k = 0; k < stride; k++) sum += (int32_t)w[k] * s[k];
            out[(size_t)x * (size_t)channels + (size_t)channel] = to_byte(sum);
        }
    }
}

static void split_portable(const int16_t *column, uint32_t from, uint32_t width, int16_t *const planes[3]) {
    for (uint32_t x = from; x < width; x++) {
        planes[0][x] = column[(size_t)x * 3];
        planes[1][x] = column[(size_t)x * 3 + 1];
        planes[2][x] = column[(size_t)x * 3 + 2];
    }
}

/* ---- AVX2 ---- */

#ifdef WF_HAVE_AVX2_KERNELS
#define WF_AVX2 __attribute__((target("avx2")))

/* 32 samples at a time, all taps summed in registers before one store. */
WF_AVX2 static size_t vertical_avx2(const uint8_t *const *rows, const int16_t *weights, uint32_t count, size_t n,
                                    int16_t *restrict column) {
    const __m256i round = _mm256_set1_epi32(1 << (WF_Q_VERTICAL_SHIFT - 1));
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
        for (uint32_t k = 0; k < count; k += 2) {
            /* an odd last tap pairs with itself at weight 0 */
            uint32_t j = k + 1 < count ? k + 1 : k;
            int16_t wj = k + 1 < count ? weights[k + 1] : 0;
            __m256i pair = _mm256_set1_epi32((int32_t)((uint32_t)(uint16_t)weights[k] | (uint32_t)(uint16_t)wj << 16));
            __m256i x0 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(rows[k] + i)));
            __m256i y0 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(rows[j] + i)));
            __m256i x1 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(rows[k] + i + 16)));
            __m256i y1 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(rows[j] + i + 16)));
            a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_unpacklo_epi16(x0, y0), pair));
            a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_unpackhi_epi16(x0, y0), pair));
            a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(_mm256_unpacklo_epi16(x1, y1), pair));
            a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(_mm256_unpackhi_epi16(x1, y1), pair));
        }
        /* unpacklo/hi and packs both work within 128-bit lanes, so the pack restores sample order */
        a0 = _mm256_srai_epi32(_mm256_add_epi32(a0, round), WF_Q_VERTICAL_SHIFT);
        a1 = _mm256_srai_epi32(_mm256_add_epi32(a1, round), WF_Q_VERTICAL_SHIFT);
        a2 = _mm256_srai_epi32(_mm256_add_epi32(a2, round), WF_Q_VERTICAL_SHIFT);
        a3 = _mm256_srai_epi32(_mm256_add_epi32(a3, round), WF_Q_VERTICAL_SHIFT);
        _mm256_storeu_si256((__m256i *)(column + i), _mm256_packs_epi32(a0, a1));
        _mm256_storeu_si256((__m256i *)(column + i + 16), _mm256_packs_epi32(a2, a3));
    }
    return i;
}

/* The eight sums of eight vectors, in order. */
WF_AVX2 static inline __m256i sum8(__m256i v0, __m256i v1, __m256i v2, __m256i v3, __m256i v4, __m256i v5, __m256i v6,
                                   __m256i v7) {
    __m256i t0 = _mm256_hadd_epi32(_mm256_hadd_epi32(v0, v1), _mm256_hadd_epi32(v2, v3));
    __m256i t1 = _mm256_hadd_epi32(_mm256_hadd_epi32(v4, v5), _mm256_hadd_epi32(v6, v7));
    return _mm256_add_epi32(_mm256_permute2x128_si256(t0, t1, 0x20), _mm256_permute2x128_si256(t0, t1, 0x31));
}

/* One output sample before rounding: its taps, `stride` of them (a multiple of sixteen), are contiguous. */
WF_AVX2 static inline __m256i dot(const int16_t *s, const int16_t *w, uint32_t stride) {
    __m256i sum = _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)s), _mm256_loadu_si256((const __m256i *)w));
    for (uint32_t k = 16; k < stride; k += 16)
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(s + k)),
                                                      _mm256_loadu_si256((const __m256i *)(w + k))));
    return sum;
}

/* Eight output samples of one plane, as eight bytes in the low half. */
WF_AVX2 static inline __m128i eight(const int16_t *plane, const uint32_t *starts, const int16_t *weights,
                                    uint32_t stride) {
    __m256i v[8];
    if (stride == 16) /* the common case (a shrink by up to 2.3): one step a sample, unrolled */
        for (int j = 0; j < 8; j++) v[j] = dot(plane + starts[j], weights + (size_t)j * 16, 16);
    else
        for (int j = 0; j < 8; j++) v[j] = dot(plane + starts[j], weights + (size_t)j * stride, stride);
    __m256i sums = sum8(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
    sums = _mm256_srai_epi32(_mm256_add_epi32(sums, _mm256_set1_epi32(1 << (WF_Q_HORIZONTAL_SHIFT - 1))),
                             WF_Q_HORIZONTAL_SHIFT);
    __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    return _mm_packus_epi16(words, words);
}

/* Eight pixels at a time; RGB's three planes are woven back into pixels in registers. */
WF_AVX2 static uint32_t horizontal_avx2(const int16_t *const *planes, const uint32_t *starts, const int16_t *weights,
                                        uint32_t stride, uint32_t out_width, uint8_t *out, int channels) {
    uint32_t x = 0;
    for (; x + 8 <= out_width; x += 8) {
        const int16_t *w = weights + (size_t)x * stride;
        if (channels == 1) {
            _mm_storel_epi64((__m128i *)(out + x), eight(planes[0], starts + x, w, stride));
            continue;
        }
        __m128i rg = _mm_unpacklo_epi64(eight(planes[0], starts + x, w, stride), eight(planes[1], starts + x, w, stride));
        __m128i b = eight(planes[2], starts + x, w, stride);
        /* rg is r0..r7 g0..g7, b is b0..b7: pixel i is rg[i], rg[8 + i], b[i] */
        const __m128i first_rg = _mm_setr_epi8(0, 8, -1, 1, 9, -1, 2, 10, -1, 3, 11, -1, 4, 12, -1, 5);
        const __m128i first_b = _mm_setr_epi8(-1, -1, 0, -1, -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, 4, -1);
        const __m128i last_rg = _mm_setr_epi8(13, -1, 6, 14, -1, 7, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1);
        const __m128i last_b = _mm_setr_epi8(-1, 5, -1, -1, 6, -1, -1, 7, -1, -1, -1, -1, -1, -1, -1, -1);
        uint8_t *o = out + (size_t)x * 3;
        _mm_storeu_si128((__m128i *)o, _mm_or_si128(_mm_shuffle_epi8(rg, first_rg), _mm_shuffle_epi8(b, first_b)));
        _mm_storel_epi64((__m128i *)(o + 16), _mm_or_si128(_mm_shuffle_epi8(rg, last_rg), _mm_shuffle_epi8(b, last_b)));
    }
    return x;
}

/* Eight RGB pixels (three vectors) into eight samples of each plane: a byte shuffle picks each plane's
 * samples from each vector, the others zeroed, and OR joins them. */
/* RGBA to RGB, four pixels a shuffle; each 16-byte store runs 4 bytes past its 12, so it stops 6 pixels
 * from the end. */
WF_AVX2 static uint32_t drop_alpha_avx2(const uint8_t *rgba, uint32_t width, uint8_t *rgb) {
    const __m128i pick = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    uint32_t x = 0;
    for (; x + 6 <= width; x += 4) {
        __m128i pixels = _mm_loadu_si128((const __m128i *)(rgba + 4 * (size_t)x));
        _mm_storeu_si128((__m128i *)(rgb + 3 * (size_t)x), _mm_shuffle_epi8(pixels, pick));
    }
    return x;
}

WF_AVX2 static uint32_t split_avx2(const int16_t *column, uint32_t width, int16_t *const planes[3]) {
#define PICK(a, b, c, d, e, f, g, h)                                                                                 \
    _mm_setr_epi8(a, (a) < 0 ? -1 : (a) + 1, b, (b) < 0 ? -1 : (b) + 1, c, (c) < 0 ? -1 : (c) + 1, d,              \
                  (d) < 0 ? -1 : (d) + 1, e, (e) < 0 ? -1 : (e) + 1, f, (f) < 0 ? -1 : (f) + 1, g,                 \
                  (g) < 0 ? -1 : (g) + 1, h, (h) < 0 ? -1 : (h) + 1)
    /* sample i of the 24 is in vector i / 8 at byte 2 (i % 8); plane p wants samples p, p + 3, ..., p + 21 */
    const __m128i r0 = PICK(0, 6, 12, -1, -1, -1, -1, -1), r1 = PICK(-1, -1, -1, 2, 8, 14, -1, -1),
                  r2 = PICK(-1, -1, -1, -1, -1, -1, 4, 10);
    const __m128i g0 = PICK(2, 8, 14, -1, -1, -1, -1, -1), g1 = PICK(-1, -1, -1, 4, 10, -1, -1, -1),
                  g2 = PICK(-1, -1, -1, -1, -1, 0, 6, 12);
    const __m128i b0 = PICK(4, 10, -1, -1, -1, -1, -1, -1), b1 = PICK(-1, -1, 0, 6, 12, -1, -1, -1),
                  b2 = PICK(-1, -1, -1, -1, -1, 2, 8, 14);
#undef PICK
    uint32_t x = 0;
    for (; x + 8 <= width; x += 8) {
        const __m128i *in = (const __m128i *)(column + (size_t)x * 3);
        __m128i v0 = _mm_loadu_si128(in), v1 = _mm_loadu_si128(in + 1), v2 = _mm_loadu_si128(in + 2);
        __m128i r = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(v0, r0), _mm_shuffle_epi8(v1, r1)), _mm_shuffle_epi8(v2, r2));
        __m128i g = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(v0, g0), _mm_shuffle_epi8(v1, g1)), _mm_shuffle_epi8(v2, g2));
        __m128i b = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(v0, b0), _mm_shuffle_epi8(v1, b1)), _mm_shuffle_epi8(v2, b2));
        _mm_storeu_si128((__m128i *)(planes[0] + x), r);
        _mm_storeu_si128((__m128i *)(planes[1] + x), g);
        _mm_storeu_si128((__m128i *)(planes[2] + x), b);
    }
    return x;
}

static int have_avx2(void) { return __builtin_cpu_supports("avx2"); }
#else
static int have_avx2(void) { return 0; }
#endif

/* ---- entry points ---- */

int wf_kernels_fastest(void) { return have_avx2() ? WF_KERNELS_AVX2 : WF_KERNELS_PORTABLE; }

void wf_kernel_drop_alpha(int kernels, const uint8_t *in, uint32_t width, int channels, uint8_t *out) {
    uint32_t x = 0;
#ifdef WF_HAVE_AVX2_KERNELS
    if (kernels == WF_KERNELS_AVX2 && channels == 4) x = drop_alpha_avx2(in, width, out);
#else
    (void)kernels;
#endif
    const size_t kept = (size_t)channels - 1;
    for (; x < width; x++) memcpy(out + x * kept, in + x * (size_t)channels, kept);
}

void wf_kernel_vertical(int kernels, const uint8_t *const *rows, const int16_t *weights, uint32_t count, size_t n,
                        int16_t *column) {
    size_t done = 0;
#ifdef WF_HAVE_AVX2_KERNELS
    if (kernels == WF_KERNELS_AVX2) done = vertical_avx2(rows, weights, count, n, column);
#endif
    vertical_portable(rows, weights, count, done, n, column);
}

void wf_kernel_horizontal(int kernels, const int16_t *const *planes, const uint32_t *starts, const int16_t *weights,
                          uint32_t stride, uint32_t out_width, uint8_t *out, int channels) {
    uint32_t done = 0;
#ifdef WF_HAVE_AVX2_KERNELS
    if (kernels == WF_KERNELS_AVX2) done = horizontal_avx2(planes, starts, weights, stride, out_width, out, channels);
#endif
    horizontal_portable(planes, starts, weights, stride, done, out_width, out, channels);
}

void wf_kernel_split(int kernels, const int16_t *column, uint32_t width, int16_t *const planes[3]) {
    uint32_t done = 0;
#ifdef WF_HAVE_AVX2_KERNELS
    if (kernels == WF_KERNELS_AVX2) done = split_avx2(column, width, planes);
#endif
    split_portable(column, done, width, planes);
}
