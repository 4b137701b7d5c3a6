/*
 * Internal: Huffman statistics and optimal tables for the JPEG encoder (jpeg_huffman.c), giving the tables
 * libjpeg's optimize_coding would give for the same coefficients.
 */
#ifndef WF_JPEG_HUFFMAN_H
#define WF_JPEG_HUFFMAN_H

#include <stdint.h>
#include <stdlib.h>

/* How often each symbol of one DC and one AC table is coded (libjpeg counts in long). */
typedef struct {
    int64_t dc[257];
    int64_t ac[257];
    uint32_t too_large; /* nonzero when a coefficient needs more bits than baseline codes carry */
} wf_jpeg_counts;

/* The AC symbols of one block: run/size pairs, runs of sixteen zeros, the end of block. `mask` has bit k
 * set for each nonzero coefficient in zigzag order (bit 0, the DC, is ignored). */
void wf_jpeg_count_ac(wf_jpeg_counts *counts, const int16_t block[64], uint64_t mask);

/* The size category of a DC difference. */
static inline void wf_jpeg_count_dc(wf_jpeg_counts *counts, int32_t difference) {
    uint32_t magnitude = (uint32_t)abs(difference);
    counts->too_large |= magnitude >> 11;
    counts->dc[magnitude ? 32 - __builtin_clz(magnitude) : 0]++;
}

/* A block coded with nothing but its DC, equal to the one before (libjpeg's dummy blocks). */
static inline void wf_jpeg_count_dummy(wf_jpeg_counts *counts, int64_t blocks) {
    counts->dc[0] += blocks;
    counts->ac[0] += blocks;
}

/* The code lengths of Annex K.2, limited to 16 bits, as jpeg_gen_optimal_table chooses them (ties go to
 * the larger symbol): `bits[1..16]` codes of each length, `values` the symbols by length. 0 on success,
 * -1 when a code would be longer than 32 bits before the limit (libjpeg's JERR_HUFF_CLEN_OVERFLOW). */
int wf_jpeg_optimal_table(const int64_t counts[257], uint8_t bits[17], uint8_t values[256]);

#endif
