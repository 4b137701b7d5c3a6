/* Internal: the sink's RGB rows split into a JPEG's Y, Cb and Cr planes as a decoder hands them over. */
#ifndef WF_YCC_SPLIT_H
#define WF_YCC_SPLIT_H

#include <stdint.h>

/* RGB rows into Y, Cb and Cr planes (ycc_split.c): the decoder writes each row into `row` (width ×
 * channels: 3, or 4 with an alpha of 255 everywhere, which is dropped), then take() puts its Y into `luma`
 * and returns 1 when it completed a pair of rows, whose chroma (chroma_width samples each) chroma() then
 * writes; after the last row of an odd height (take() returned 0), chroma() makes that row's alone. */
typedef struct {
    int kernels;
    uint32_t width, chroma_width;
    int channels;
    uint32_t rows;      /* taken so far */
    uint8_t *row;       /* the decoder's row */
    uint8_t *rgb;       /* a four-channel row without its alpha */
    uint8_t *chroma[4]; /* Cb, Cr of the pending pair's first row, then of its second, at full width (padded even) */
} wf_ycc_split;

int wf_ycc_split_init(wf_ycc_split *s, uint32_t width, int channels);
void wf_ycc_split_free(wf_ycc_split *s);
int wf_ycc_split_take(wf_ycc_split *s, uint8_t *luma);
void wf_ycc_split_chroma(const wf_ycc_split *s, uint8_t *cb, uint8_t *cr);

#endif
