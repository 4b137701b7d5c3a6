/*
 * RGB rows made into JPEG's Y, Cb and Cr planes as they arrive from a decoder (PNG, GIF, WebP, HEIC, the
 * AVIFs libavif does not hand over as planes): Y at full size, Cb and Cr as the 2×2 means of each pair of
 * rows (4:2:0, as the encoder would store them). The sink then takes the planar route a YCbCr JPEG takes:
 * half the samples through the resampler, and no conversion or chroma downsampling in each encode. The
 * conversion and the means are the encoder's own kernels (jpeg_color.c), so a picture kept at its size
 * comes out as libjpeg would have stored it.
 */
#include "ycc_split.h"
#include "jpeg_fdct.h"
#include "resample_kernels.h"

#include <stdlib.h>
#include <string.h>

int wf_ycc_split_init(wf_ycc_split *s, uint32_t width, int channels) {
    memset(s, 0, sizeof *s);
    s->kernels = wf_kernels_fastest();
    s->width = width;
    s->chroma_width = (width + 1) / 2;
    s->channels = channels;
    size_t padded = 2 * (size_t)s->chroma_width; /* an odd row's last sample repeated: the means read pairs */
    s->row = malloc((size_t)width * (size_t)channels);
    s->rgb = channels == 4 ? malloc((size_t)width * 3) : NULL;
    for (int k = 0; k < 4; k++) s->chroma[k] = malloc(padded);
    int missing = !s->row || (channels == 4 && !s->rgb);
    for (int k = 0; k < 4; k++) missing |= !s->chroma[k];
    if (missing) wf_ycc_split_free(s);
    return missing ? -1 : 0;
}

void wf_ycc_split_free(wf_ycc_split *s) {
    free(s->row);
    free(s->rgb);
    for (int k = 0; k < 4; k++) free(s->chroma[k]);
    memset(s, 0, sizeof *s);
}

int wf_ycc_split_take(wf_ycc_split *s, uint8_t *luma) {
    const uint8_t *rgb = s->row;
    if (s->channels == 4) {
        wf_kernel_drop_alpha(s->kernels, s->row, s->width, 4, s->rgb);
        rgb = s->rgb;
    }
    int second = (int)(s->rows & 1);
    uint8_t *cb = s->chroma[2 * second], *cr = s->chroma[2 * second + 1];
    wf_jpeg_rgb_to_ycc(s->kernels, rgb, s->width, luma, cb, cr);
    if (s->width & 1) {
        cb[s->width] = cb[s->width - 1];
        cr[s->width] = cr[s->width - 1];
    }
    s->rows++;
    return second;
}

void wf_ycc_split_chroma(const wf_ycc_split *s, uint8_t *cb, uint8_t *cr) {
    int pair = (s->rows & 1) == 0; /* else the last row of an odd height, alone: its own mean */
    wf_jpeg_downsample_2x2(s->kernels, s->chroma[0], s->chroma[pair ? 2 : 0], s->chroma_width, cb);
    wf_jpeg_downsample_2x2(s->kernels, s->chroma[1], s->chroma[pair ? 3 : 1], s->chroma_width, cr);
}
