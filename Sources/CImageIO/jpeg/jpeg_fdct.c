/*
 * The encoder's forward DCT and quantisation: libjpeg-turbo's default JDCT_ISLOW (jfdctint.c, the
 * Loeffler-Ligtenberg-Moschytz integer DCT with 13-bit constants, rows then columns, outputs scaled by 8)
 * and its reciprocal quantiser (jcdctmgr.c). Every step is exact integer arithmetic, so the AVX2 kernel
 * (two blocks per pass in 16-bit lanes, products by pmaddwd) and the portable one give the same bits, and
 * both give libjpeg's. Each block also gets a 64-bit mask of its nonzero coefficients in zigzag order, so
 * the Huffman statistics (jpeg_huffman.c) visit only what is there.
 */
#include "jpeg_fdct.h"

#include <string.h>

#include "resample_kernels.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define WF_HAVE_AVX2_KERNELS 1
#include <immintrin.h>
#endif

const uint8_t wf_jpeg_natural_order[64] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};

/* jfdctint.c's constants: FIX(x) = round(x × 2^13). */
enum {
    CONST_BITS = 13,
    PASS1_BITS = 2,
    FIX_0_298631336 = 2446,
    FIX_0_390180644 = 3196,
    FIX_0_541196100 = 4433,
    FIX_0_765366865 = 6270,
    FIX_0_899976223 = 7373,
    FIX_1_175875602 = 9633,
    FIX_1_501321110 = 12299,
    FIX_1_847759065 = 15137,
    FIX_1_961570560 = 16069,
    FIX_2_053119869 = 16819,
    FIX_2_562915447 = 20995,
    FIX_3_072711026 = 25172,
};

/* compute_reciprocal (jcdctmgr.c) for divisor = quantval << 3; quantval 1 makes 8, a power of two. */
void wf_jpeg_divisors_init(wf_jpeg_divisors *d, const uint16_t quantval[64]) {
    for (int i = 0; i < 64; i++) {
        uint32_t divisor = (uint32_t)quantval[i] << 3;
        int b = 31 - __builtin_clz(divisor); /* flss(divisor) - 1 */
        int r = 16 + b;
        uint32_t fq = (uint32_t)(((uint64_t)1 << r) / divisor);
        uint32_t fr = (uint32_t)(((uint64_t)1 << r) % divisor);
        uint32_t c = divisor / 2;
        if (fr == 0) { /* a power of two: fq would not fit 16 bits */
            fq >>= 1;
            r--;
        } else if (fr <= divisor / 2) {
            c++;
        } else {
            fq++;
        }
        d->recip[i] = (uint16_t)fq;
        d->corr[i] = (uint16_t)c;
        d->scale[i] = (uint16_t)(1u << (32 - r));
        d->shift[i] = (uint8_t)r;
    }
}

/* ---- portable: jfdctint.c as written ---- */

static inline int32_t descale(int32_t x, int n) { return (x + (1 << (n - 1))) >> n; }

/* One 8-sample line: out[k × stride] for k < 8. `pass` 1 keeps PASS1_BITS more bits, pass 2 removes them. */
static inline void fdct_line(const int32_t *in, size_t in_stride, int32_t *out, size_t stride, int pass) {
    int32_t tmp0 = in[0] + in[7 * in_stride], tmp7 = in[0] - in[7 * in_stride];
    int32_t tmp1 = in[in_stride] + in[6 * in_stride], tmp6 = in[in_stride] - in[6 * in_stride];
    int32_t tmp2 = in[2 * in_stride] + in[5 * in_stride], tmp5 = in[2 * in_stride] - in[5 * in_stride];
    int32_t tmp3 = in[3 * in_stride] + in[4 * in_stride], tmp4 = in[3 * in_stride] - in[4 * in_stride];
    int shift = pass == 1 ? CONST_BITS - PASS1_BITS : CONST_BITS + PASS1_BITS;

    int32_t tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
    out[0] = pass == 1 ? (tmp10 + tmp11) * (1 << PASS1_BITS) : descale(tmp10 + tmp11, PASS1_BITS);
    out[4 * stride] = pass == 1 ? (tmp10 - tmp11) * (1 << PASS1_BITS) : descale(tmp10 - tmp11, PASS1_BITS);
    int32_t z1 = (tmp12 + tmp13) * FIX_0_541196100;
    out[2 * stride] = descale(z1 + tmp13 * FIX_0_765366865, shift);
    out[6 * stride] = descale(z1 + tmp12 * -FIX_1_847759065, shift);

    z1 = tmp4 + tmp7;
    int32_t z2 = tmp5 + tmp6, z3 = tmp4 + tmp6, z4 = tmp5 + tmp7;
    int32_t z5 = (z3 + z4) * FIX_1_175875602;
    tmp4 *= FIX_0_298631336;
    tmp5 *= FIX_2_053119869;
    tmp6 *= FIX_3_072711026;
    tmp7 *= FIX_1_501321110;
    z1 *= -FIX_0_899976223;
    z2 *= -FIX_2_562915447;
    z3 = z3 * -FIX_1_961570560 + z5;
    z4 = z4 * -FIX_0_390180644 + z5;
    out[7 * stride] = descale(tmp4 + z1 + z3, shift);
    out[5 * stride] = descale(tmp5 + z2 + z4, shift);
    out[3 * stride] = descale(tmp6 + z2 + z3, shift);
    out[stride] = descale(tmp7 + z1 + z4, shift);
}

static void fdct_quantize_portable(const uint8_t *const rows[8], uint32_t from, uint32_t count,
                                   const wf_jpeg_divisors *d, int16_t (*blocks)[64], uint64_t *masks) {
    for (uint32_t b = from; b < count; b++) {
        int32_t samples[64], pass1[64], coefficients[64];
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++) samples[r * 8 + c] = rows[r][(size_t)b * 8 + (size_t)c] - 128;
        for (int r = 0; r < 8; r++) fdct_line(samples + r * 8, 1, pass1 + r * 8, 1, 1);
        for (int c = 0; c < 8; c++) fdct_line(pass1 + c, 8, coefficients + c, 8, 2);
        for (int i = 0; i < 64; i++) {
            int32_t x = coefficients[i];
            uint32_t magnitude = (uint32_t)(x < 0 ? -x : x);
            int32_t q = (int32_t)(((magnitude + d->corr[i]) * (uint32_t)d->recip[i]) >> d->shift[i]);
            blocks[b][i] = (int16_t)(x < 0 ? -q : q);
        }
        uint64_t mask = 0;
        for (int k = 0; k < 64; k++) mask |= (uint64_t)(blocks[b][wf_jpeg_natural_order[k]] != 0) << k;
        masks[b] = mask;
    }
}

/* ---- AVX2: two blocks at once, block A in the low 128-bit lane and block B in the high one ---- */

#ifdef WF_HAVE_AVX2_KERNELS
#define WF_AVX2 __attribute__((target("avx2")))

/* Within each lane, eight rows of eight int16 become eight columns. */
WF_AVX2 static inline void transpose(__m256i v[8]) {
    __m256i a0 = _mm256_unpacklo_epi16(v[0], v[1]), a1 = _mm256_unpackhi_epi16(v[0], v[1]);
    __m256i a2 = _mm256_unpacklo_epi16(v[2], v[3]), a3 = _mm256_unpackhi_epi16(v[2], v[3]);
    __m256i a4 = _mm256_unpacklo_epi16(v[4], v[5]), a5 = _mm256_unpackhi_epi16(v[4], v[5]);
    __m256i a6 = _mm256_unpacklo_epi16(v[6], v[7]), a7 = _mm256_unpackhi_epi16(v[6], v[7]);
    __m256i b0 = _mm256_unpacklo_epi32(a0, a2), b1 = _mm256_unpackhi_epi32(a0, a2);
    __m256i b2 = _mm256_unpacklo_epi32(a1, a3), b3 = _mm256_unpackhi_epi32(a1, a3);
    __m256i b4 = _mm256_unpacklo_epi32(a4, a6), b5 = _mm256_unpackhi_epi32(a4, a6);
    __m256i b6 = _mm256_unpacklo_epi32(a5, a7), b7 = _mm256_unpackhi_epi32(a5, a7);
    v[0] = _mm256_unpacklo_epi64(b0, b4);
    v[1] = _mm256_unpackhi_epi64(b0, b4);
    v[2] = _mm256_unpacklo_epi64(b1, b5);
    v[3] = _mm256_unpackhi_epi64(b1, b5);
    v[4] = _mm256_unpacklo_epi64(b2, b6);
    v[5] = _mm256_unpackhi_epi64(b2, b6);
    v[6] = _mm256_unpacklo_epi64(b3, b7);
    v[7] = _mm256_unpackhi_epi64(b3, b7);
}

/* A pair of int16 multipliers for pmaddwd: `low` times the first operand, `high` times the second. */
#define PAIR(low, high) _mm256_set1_epi32((int32_t)(((uint32_t)(uint16_t)(int16_t)(low)) | ((uint32_t)(uint16_t)(int16_t)(high) << 16)))

/* Σ of two pmaddwd products over interleaved pairs (lo: lanes 0-3, hi: lanes 4-7), descaled, back to int16
 * in lane order. */
WF_AVX2 static inline __m256i combine(__m256i p_lo, __m256i p_hi, __m256i p_k, __m256i q_lo, __m256i q_hi,
                                      __m256i q_k, __m256i round, int shift) {
    __m256i lo = _mm256_add_epi32(_mm256_madd_epi16(p_lo, p_k), _mm256_madd_epi16(q_lo, q_k));
    __m256i hi = _mm256_add_epi32(_mm256_madd_epi16(p_hi, p_k), _mm256_madd_epi16(q_hi, q_k));
    lo = _mm256_srai_epi32(_mm256_add_epi32(lo, round), shift);
    hi = _mm256_srai_epi32(_mm256_add_epi32(hi, round), shift);
    return _mm256_packs_epi32(lo, hi);
}

WF_AVX2 static inline __m256i single(__m256i p_lo, __m256i p_hi, __m256i p_k, __m256i round, int shift) {
    __m256i lo = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(p_lo, p_k), round), shift);
    __m256i hi = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(p_hi, p_k), round), shift);
    return _mm256_packs_epi32(lo, hi);
}

/* One pass of jfdctint.c over the eight vectors (the DCT runs along the vector index, each int16 lane is
 * one line). The rotations are expanded so that each output is Σ constant × tmp over pairs of tmps: the
 * same integer as the C code's, as multiplication distributes. Every operand fits int16: the first pass
 * sees samples −128..127 and makes at most ±4096, so the second pass's sums stay within ±32640. */
WF_AVX2 static inline void dct_pass(__m256i x[8], int pass) {
    __m256i tmp0 = _mm256_add_epi16(x[0], x[7]), tmp7 = _mm256_sub_epi16(x[0], x[7]);
    __m256i tmp1 = _mm256_add_epi16(x[1], x[6]), tmp6 = _mm256_sub_epi16(x[1], x[6]);
    __m256i tmp2 = _mm256_add_epi16(x[2], x[5]), tmp5 = _mm256_sub_epi16(x[2], x[5]);
    __m256i tmp3 = _mm256_add_epi16(x[3], x[4]), tmp4 = _mm256_sub_epi16(x[3], x[4]);
    __m256i tmp10 = _mm256_add_epi16(tmp0, tmp3), tmp13 = _mm256_sub_epi16(tmp0, tmp3);
    __m256i tmp11 = _mm256_add_epi16(tmp1, tmp2), tmp12 = _mm256_sub_epi16(tmp1, tmp2);
    int shift = pass == 1 ? CONST_BITS - PASS1_BITS : CONST_BITS + PASS1_BITS;
    __m256i round = _mm256_set1_epi32(1 << (shift - 1));

    if (pass == 1) {
        x[0] = _mm256_slli_epi16(_mm256_add_epi16(tmp10, tmp11), PASS1_BITS);
        x[4] = _mm256_slli_epi16(_mm256_sub_epi16(tmp10, tmp11), PASS1_BITS);
    } else {
        __m256i half = _mm256_set1_epi16(1 << (PASS1_BITS - 1));
        x[0] = _mm256_srai_epi16(_mm256_add_epi16(_mm256_add_epi16(tmp10, tmp11), half), PASS1_BITS);
        x[4] = _mm256_srai_epi16(_mm256_add_epi16(_mm256_sub_epi16(tmp10, tmp11), half), PASS1_BITS);
    }

    __m256i e_lo = _mm256_unpacklo_epi16(tmp12, tmp13), e_hi = _mm256_unpackhi_epi16(tmp12, tmp13);
    x[2] = single(e_lo, e_hi, PAIR(FIX_0_541196100, FIX_0_541196100 + FIX_0_765366865), round, shift);
    x[6] = single(e_lo, e_hi, PAIR(FIX_0_541196100 - FIX_1_847759065, FIX_0_541196100), round, shift);

    __m256i a_lo = _mm256_unpacklo_epi16(tmp4, tmp5), a_hi = _mm256_unpackhi_epi16(tmp4, tmp5);
    __m256i b_lo = _mm256_unpacklo_epi16(tmp6, tmp7), b_hi = _mm256_unpackhi_epi16(tmp6, tmp7);
    /* z5 = (tmp4 + tmp5 + tmp6 + tmp7) c3 is in every odd output; z1..z4 in two each */
    enum { C = FIX_1_175875602 };
    x[7] = combine(a_lo, a_hi, PAIR(FIX_0_298631336 - FIX_0_899976223 - FIX_1_961570560 + C, C), b_lo, b_hi,
                   PAIR(C - FIX_1_961570560, C - FIX_0_899976223), round, shift);
    x[5] = combine(a_lo, a_hi, PAIR(C, FIX_2_053119869 - FIX_2_562915447 - FIX_0_390180644 + C), b_lo, b_hi,
                   PAIR(C - FIX_2_562915447, C - FIX_0_390180644), round, shift);
    x[3] = combine(a_lo, a_hi, PAIR(C - FIX_1_961570560, C - FIX_2_562915447), b_lo, b_hi,
                   PAIR(FIX_3_072711026 - FIX_2_562915447 - FIX_1_961570560 + C, C), round, shift);
    x[1] = combine(a_lo, a_hi, PAIR(C - FIX_0_899976223, C - FIX_0_390180644), b_lo, b_hi,
                   PAIR(C, FIX_1_501321110 - FIX_0_899976223 - FIX_0_390180644 + C), round, shift);
}

/* Where each zigzag position is among the four 16-coefficient chunks of a block (natural order): for
 * output chunk o, the byte shuffle of input chunk c (-1: not from that chunk). */
static const int8_t zigzag_pick[4][4][16] = {
    {
        {0, 1, 8, -1, 9, 2, 3, 10, -1, -1, -1, -1, -1, 11, 4, 5},
        {-1, -1, -1, 0, -1, -1, -1, -1, 1, 8, -1, 9, 2, -1, -1, -1},
        {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, -1, -1, -1, -1, -1},
        {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    },
    {
        {12, -1, -1, -1, -1, -1, -1, -1, -1, -1, 13, 6, 7, 14, -1, -1},
        {-1, 3, 10, -1, -1, -1, -1, -1, 11, 4, -1, -1, -1, -1, 5, 12},
        {-1, -1, -1, 1, 8, -1, 9, 2, -1, -1, -1, -1, -1, -1, -1, -1},
        {-1, -1, -1, -1, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    },
    {
        {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 15, -1, -1, -1, -1, -1},
        {-1, -1, -1, -1, -1, -1, -1, -1, 13, 6, -1, 7, 14, -1, -1, -1},
        {3, 10, -1, -1, -1, -1, 11, 4, -1, -1, -1, -1, -1, 5, 12, -1},
        {-1, -1, 1, 8, 9, 2, -1, -1, -1, -1, -1, -1, -1, -1, -1, 3},
    },
    {
        {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
        {-1, -1, -1, -1, -1, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
        {-1, -1, -1, 13, 6, -1, 7, 14, -1, -1, -1, -1, 15, -1, -1, -1},
        {10, 11, 4, -1, -1, -1, -1, -1, 5, 12, 13, 6, -1, 7, 14, 15},
    },
};

/* The zigzag nonzero masks of both blocks from their quantised rows. Saturating to bytes keeps zero and
 * nonzero apart; a byte shuffle per (output, input) chunk pair puts the bytes in zigzag order. */
WF_AVX2 static inline void zigzag_masks(const __m256i q[8], uint64_t *mask_a, uint64_t *mask_b) {
    __m256i chunks[4];
    for (int c = 0; c < 4; c++) chunks[c] = _mm256_packs_epi16(q[2 * c], q[2 * c + 1]);
    uint64_t a = 0, b = 0;
    for (int o = 0; o < 4; o++) {
        __m256i zz = _mm256_setzero_si256();
        for (int c = 0; c < 4; c++) {
            if ((o == 0 && c == 3) || (o == 3 && c == 0)) continue; /* nothing to take */
            __m256i pick = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)zigzag_pick[o][c]));
            zz = _mm256_or_si256(zz, _mm256_shuffle_epi8(chunks[c], pick));
        }
        uint32_t zero = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(zz, _mm256_setzero_si256()));
        a |= (uint64_t)(~zero & 0xFFFFu) << (16 * o);
        b |= (uint64_t)(~zero >> 16 & 0xFFFFu) << (16 * o);
    }
    *mask_a = a;
    *mask_b = b;
}

/* Eight coefficients of a divisor row, in both lanes. */
WF_AVX2 static inline __m256i row_of(const uint16_t *table, int v) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(table + 8 * v)));
}

/* Two blocks (the second may be absent: then its lane is computed from zeros and not stored). */
WF_AVX2 static void pair_avx2(const uint8_t *const rows[8], size_t column, int both, const wf_jpeg_divisors *d,
                              int16_t (*blocks)[64], uint64_t *masks) {
    const __m256i centre = _mm256_set1_epi16(128);
    __m256i x[8];
    for (int r = 0; r < 8; r++) {
        __m128i bytes = both ? _mm_loadu_si128((const __m128i *)(rows[r] + column))
                             : _mm_loadl_epi64((const __m128i *)(rows[r] + column));
        /* cvtepu8 puts bytes 0-7 (block A's row) in the low lane and 8-15 (B's) in the high one */
        x[r] = _mm256_sub_epi16(_mm256_cvtepu8_epi16(bytes), centre);
    }
    transpose(x); /* x[j]: column j of each block, a line per row */
    dct_pass(x, 1);
    transpose(x); /* x[r]: row r's row-pass outputs, a line per frequency */
    dct_pass(x, 2); /* x[v]: coefficient row v */
    for (int v = 0; v < 8; v++) {
        __m256i magnitude = _mm256_add_epi16(_mm256_abs_epi16(x[v]), row_of(d->corr, v));
        magnitude = _mm256_mulhi_epu16(_mm256_mulhi_epu16(magnitude, row_of(d->recip, v)), row_of(d->scale, v));
        x[v] = _mm256_sign_epi16(magnitude, x[v]);
    }
    uint64_t mask_a, mask_b;
    zigzag_masks(x, &mask_a, &mask_b);
    for (int v = 0; v < 8; v += 2)
        _mm256_storeu_si256((__m256i *)(blocks[0] + 8 * v), _mm256_permute2x128_si256(x[v], x[v + 1], 0x20));
    masks[0] = mask_a;
    if (both) {
        for (int v = 0; v < 8; v += 2)
            _mm256_storeu_si256((__m256i *)(blocks[1] + 8 * v), _mm256_permute2x128_si256(x[v], x[v + 1], 0x31));
        masks[1] = mask_b;
    }
}

WF_AVX2 static void fdct_quantize_avx2(const uint8_t *const rows[8], uint32_t count, const wf_jpeg_divisors *d,
                                       int16_t (*blocks)[64], uint64_t *masks) {
    uint32_t b = 0;
    for (; b + 2 <= count; b += 2) pair_avx2(rows, (size_t)b * 8, 1, d, blocks + b, masks + b);
    if (b < count) pair_avx2(rows, (size_t)b * 8, 0, d, blocks + b, masks + b);
}
#endif

void wf_jpeg_fdct_quantize(int kernels, const uint8_t *const rows[8], uint32_t count, const wf_jpeg_divisors *d,
                           int16_t (*blocks)[64], uint64_t *masks) {
#ifdef WF_HAVE_AVX2_KERNELS
    if (kernels == WF_KERNELS_AVX2) {
        fdct_quantize_avx2(rows, count, d, blocks, masks);
        return;
    }
#endif
    fdct_quantize_portable(rows, 0, count, d, blocks, masks);
}
