/*
 * Huffman statistics and optimal code lengths for the JPEG encoder. libjpeg's own statistics pass
 * (htest_one_block) tests all 63 AC coefficients of every block one by one; here each block comes with a
 * mask of its nonzero coefficients in zigzag order, so a count and a zero-count instruction find the next
 * symbol, and the work follows the coefficients that are there. The table is built as libjpeg's
 * jpeg_gen_optimal_table builds it (the same merges, the same ties), so the files are the same.
 */
#include "jpeg_huffman.h"

#include <string.h>

#include "jpeg_fdct.h"

void wf_jpeg_count_ac(wf_jpeg_counts *counts, const int16_t block[64], uint64_t mask) {
    uint64_t rest = mask & ~(uint64_t)1;
    uint32_t too_large = 0;
    int last = 0;
    while (rest) {
        int k = __builtin_ctzll(rest);
        int run = k - last - 1;
        if (run > 15) counts->ac[0xF0] += run >> 4; /* sixteen zeros at a time (rare: a branch beats a store) */
        int32_t value = block[wf_jpeg_natural_order[k]];
        uint32_t magnitude = (uint32_t)(value < 0 ? -value : value);
        too_large |= magnitude >> 10; /* then the index below is wrong but still within the 257 */
        counts->ac[((run & 15) << 4) + 32 - __builtin_clz(magnitude)]++;
        last = k;
        rest &= rest - 1;
    }
    if (last != 63) counts->ac[0]++; /* end of block */
    counts->too_large |= too_large;
}

/* Huffman's procedure over the symbols in play, kept in ascending order: scanning with <= then finds, among
 * equal counts, the largest symbol, as libjpeg's scan over all 257 does. The merged tree keeps c1's place. */
static int code_sizes(int64_t freq[257], int codesize[257]) {
    int others[257], active[257], n = 0;
    for (int i = 0; i < 257; i++) {
        others[i] = -1;
        codesize[i] = 0;
        if (freq[i]) active[n++] = i;
    }
    for (;;) {
        int c1 = -1, c2 = -1, at2 = -1;
        int64_t v = 1000000000L; /* as libjpeg: counts above this are never picked */
        for (int a = 0; a < n; a++)
            if (freq[active[a]] <= v) v = freq[active[a]], c1 = active[a];
        v = 1000000000L;
        for (int a = 0; a < n; a++)
            if (freq[active[a]] <= v && active[a] != c1) v = freq[active[a]], c2 = active[a], at2 = a;
        if (c2 < 0) break;
        freq[c1] += freq[c2];
        freq[c2] = 0;
        memmove(active + at2, active + at2 + 1, (size_t)(n - at2 - 1) * sizeof *active);
        n--;
        codesize[c1]++;
        while (others[c1] >= 0) codesize[c1 = others[c1]]++;
        others[c1] = c2;
        codesize[c2]++;
        while (others[c2] >= 0) codesize[c2 = others[c2]]++;
    }
    int longest = 0;
    for (int i = 0; i < 257; i++) longest = codesize[i] > longest ? codesize[i] : longest;
    return longest;
}

int wf_jpeg_optimal_table(const int64_t counts[257], uint8_t bits_out[17], uint8_t values[256]) {
    enum { MAX_CLEN = 32 };
    int64_t freq[257];
    memcpy(freq, counts, sizeof freq);
    freq[256] = 1; /* the pseudo-symbol: no real code is all ones */
    int codesize[257];
    int longest = code_sizes(freq, codesize);
    if (longest > MAX_CLEN) return -1;

    int bits[MAX_CLEN + 1] = {0};
    for (int i = 0; i < 257; i++)
        if (codesize[i]) bits[codesize[i]]++;
    /* Annex K.2's length limit: a pair at the longest length moves up, a shorter code becomes its prefix */
    int i = MAX_CLEN;
    for (; i > 16; i--) {
        while (bits[i] > 0) {
            int j = i - 2;
            while (bits[j] == 0) j--;
            bits[i] -= 2;
            bits[i - 1]++;
            bits[j + 1] += 2;
            bits[j]--;
        }
    }
    while (bits[i] == 0) i--;
    bits[i]--; /* the pseudo-symbol leaves the longest length */
    for (int k = 0; k <= 16; k++) bits_out[k] = (uint8_t)bits[k];

    /* the symbols by their unlimited code size, as libjpeg lists them */
    int p = 0;
    for (int length = 1; length <= longest; length++)
        for (int symbol = 0; symbol < 256; symbol++)
            if (codesize[symbol] == length) values[p++] = (uint8_t)symbol;
    return 0;
}
