/* Internal: turning a decoded HEIF/AVIF image into 8-bit samples and the profile they carry. */
#ifndef WF_HEIF_COLOR_H
#define WF_HEIF_COLOR_H

#include <libheif/heif.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { WF_HEIF_SDR, WF_HEIF_PQ, WF_HEIF_HLG } wf_heif_transfer;

typedef struct {
    int bits;                  /* a sample's bits as decoded: 8, or 10-16 in 16-bit little-endian words */
    int channels;              /* 3 or 4 (alpha last, not premultiplied) */
    wf_heif_transfer transfer;
    double luma[3];            /* the primaries' luminance weights, for tone mapping */
    float *linear;             /* HDR: each code value's light, relative to SDR white (HLG: scene light) */
    uint8_t *encode;           /* HDR: linear light → 8-bit sRGB */
    uint8_t *icc;              /* the profile the output carries (malloc'd), or NULL for sRGB */
    size_t icc_length;
    size_t icc_over;           /* the size of an embedded profile left out (over the cap, icc_cap.h), or 0 */
} wf_heif_color;

/* What to do with `image` (decoded from `handle`) of `bits` and `channels`; 0, or -1 when out of memory.
 * Always call wf_heif_color_free. */
int wf_heif_color_plan(struct heif_image_handle *handle, struct heif_image *image, int bits, int channels,
                       wf_heif_color *plan);

/* Whether rows can be copied as they are (8-bit SDR). */
int wf_heif_color_is_copy(const wf_heif_color *plan);

/* One row of `width` pixels from the decoded image into 8-bit samples. */
void wf_heif_color_row(const wf_heif_color *plan, const uint8_t *source, uint8_t *destination, uint32_t width);

void wf_heif_color_free(wf_heif_color *plan);

#endif
