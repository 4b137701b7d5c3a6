/*
 * Colour for HEIF and AVIF derived images: what an 8-bit JPEG or PNG needs to show the photo as a browser
 * shows the original.
 *
 * - An embedded ICC profile ('prof' or 'rICC') is carried over as it is, like a JPEG's.
 * - A colour description in numbers (nclx: primaries, transfer, matrix) becomes an ICC profile of those
 *   primaries and that curve, unless it says sRGB (BT.709 primaries, an sRGB-like curve), which needs none.
 * - 10- and 12-bit samples become 8-bit by rounding.
 * - HDR (PQ or HLG transfer) is tone-mapped to SDR: decoded to light relative to SDR reference white
 *   (203 cd/m², ITU-R BT.2408), left as it is up to a knee and rolled off smoothly above it (on luminance,
 *   so hues stay), then encoded with the sRGB curve and tagged with the source's primaries.
 */
#include "heif_color.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "icc_cap.h"
#include "icc_profile.h"

/* SDR reference white, and the peak an HDR photo is assumed to be mastered for. */
#define REFERENCE_WHITE 203.0
#define HDR_PEAK 1000.0
/* Relative light up to this is kept as it is; above, it rolls off towards 1. */
#define KNEE 0.75
/* Linear light → 8-bit sRGB is looked up at this many steps. */
#define ENCODE_STEPS 4096

static double pq_to_nits(double e) {
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32,
                 c3 = 2392.0 / 4096 * 32;
    double p = pow(e, 1 / m2);
    double n = fmax(p - c1, 0) / (c2 - c3 * p);
    return 10000 * pow(n, 1 / m1);
}

/* HLG's inverse OETF: the signal to scene light, 0-1. */
static double hlg_to_scene(double e) {
    const double a = 0.17883277, b = 0.28466892, c = 0.55991073;
    return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12;
}

static double srgb_encode(double v) { return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055; }

/* Identity below the knee, then an exponential approach to 1. */
static double roll_off(double y) {
    if (y <= KNEE) return y;
    return KNEE + (1 - KNEE) * (1 - exp(-(y - KNEE) / (1 - KNEE)));
}

static int is_srgb_primaries(const struct heif_color_profile_nclx *nclx) {
    return nclx->color_primaries == heif_color_primaries_ITU_R_BT_709_5 ||
           nclx->color_primaries == heif_color_primaries_unspecified;
}

/* The ICC profile for an nclx description (none when it is sRGB). */
static void profile_for(const struct heif_color_profile_nclx *nclx, int hdr, wf_heif_color *plan) {
    wf_icc_curve curve = WF_ICC_CURVE_SRGB;
    double gamma = 1;
    switch (hdr ? heif_transfer_characteristic_IEC_61966_2_1 : nclx->transfer_characteristics) {
    case heif_transfer_characteristic_ITU_R_BT_470_6_System_M: curve = WF_ICC_CURVE_GAMMA, gamma = 2.2; break;
    case heif_transfer_characteristic_ITU_R_BT_470_6_System_B_G: curve = WF_ICC_CURVE_GAMMA, gamma = 2.8; break;
    case heif_transfer_characteristic_linear: curve = WF_ICC_CURVE_GAMMA, gamma = 1; break;
    default: break; /* sRGB, and BT.709-like curves, which browsers show as sRGB */
    }
    if (curve == WF_ICC_CURVE_SRGB && is_srgb_primaries(nclx)) return;
    double primaries[8] = {nclx->color_primary_red_x,   nclx->color_primary_red_y,  nclx->color_primary_green_x,
                           nclx->color_primary_green_y, nclx->color_primary_blue_x, nclx->color_primary_blue_y,
                           nclx->color_primary_white_x, nclx->color_primary_white_y};
    plan->icc = wf_icc_rgb_profile(primaries, curve, gamma, "Waterfall: from the image's nclx colour description",
                                   &plan->icc_length);
    double to_xyz[9];
    if (wf_rgb_to_xyz(primaries, to_xyz)) memcpy(plan->luma, to_xyz + 3, sizeof plan->luma);
}

/* The raw profile (ICC) of the image, when it has one. */
static void copy_raw_profile(struct heif_image_handle *handle, wf_heif_color *plan) {
    size_t size = heif_image_handle_get_raw_color_profile_size(handle);
    if (size == 0) return;
    if (size > WF_ICC_MAX_LENGTH) { /* never copied: the decoder notes it (wf_icc_fits) */
        plan->icc_over = size;
        return;
    }
    plan->icc = malloc(size);
    if (!plan->icc) return;
    if (heif_image_handle_get_raw_color_profile(handle, plan->icc).code != heif_error_Ok) {
        free(plan->icc);
        plan->icc = NULL;
        return;
    }
    plan->icc_length = size;
}

/* The nclx description, from the container or else from the bitstream (AVIF keeps it there). */
static struct heif_color_profile_nclx *nclx_of(struct heif_image_handle *handle, struct heif_image *image) {
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok && nclx) return nclx;
    if (heif_image_get_nclx_color_profile(image, &nclx).code == heif_error_Ok && nclx) return nclx;
    return NULL;
}

/* Tables for the per-sample work: the code values' light (HDR) or 8-bit value (deep SDR), and the sRGB
 * encoding of linear light. */
static int build_tables(wf_heif_color *plan) {
    size_t codes = (size_t)1 << plan->bits;
    double max = (double)(codes - 1);
    if (plan->transfer != WF_HEIF_SDR) {
        plan->linear = malloc(codes * sizeof *plan->linear);
        plan->encode = malloc(ENCODE_STEPS * sizeof *plan->encode);
        if (!plan->linear || !plan->encode) return -1;
        for (size_t i = 0; i < codes; i++) {
            double e = i / max;
            plan->linear[i] = (float)(plan->transfer == WF_HEIF_PQ ? pq_to_nits(e) / REFERENCE_WHITE : hlg_to_scene(e));
        }
        for (int i = 0; i < ENCODE_STEPS; i++)
            plan->encode[i] = (uint8_t)lround(srgb_encode((double)i / (ENCODE_STEPS - 1)) * 255);
    }
    return 0;
}

int wf_heif_color_plan(struct heif_image_handle *handle, struct heif_image *image, int bits, int channels,
                       wf_heif_color *plan) {
    memset(plan, 0, sizeof *plan);
    plan->bits = bits;
    plan->channels = channels;
    plan->luma[0] = 0.2126, plan->luma[1] = 0.7152, plan->luma[2] = 0.0722;
    enum heif_color_profile_type type = heif_image_handle_get_color_profile_type(handle);
    struct heif_color_profile_nclx *nclx = nclx_of(handle, image);
    if (nclx) {
        if (nclx->transfer_characteristics == heif_transfer_characteristic_ITU_R_BT_2100_0_PQ) plan->transfer = WF_HEIF_PQ;
        if (nclx->transfer_characteristics == heif_transfer_characteristic_ITU_R_BT_2100_0_HLG) plan->transfer = WF_HEIF_HLG;
    }
    if (type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC) {
        copy_raw_profile(handle, plan);
        if (nclx && plan->transfer != WF_HEIF_SDR) { /* an ICC for the primaries, the curve becomes sRGB */
            free(plan->icc);
            plan->icc = NULL;
            plan->icc_length = 0;
            profile_for(nclx, 1, plan);
        }
    } else if (nclx) {
        profile_for(nclx, plan->transfer != WF_HEIF_SDR, plan);
    }
    if (nclx) heif_nclx_color_profile_free(nclx);
    return build_tables(plan);
}

int wf_heif_color_is_copy(const wf_heif_color *plan) { return plan->bits == 8 && plan->transfer == WF_HEIF_SDR; }

/* A 16-bit little-endian sample (libheif's RRGGBB_LE), clamped to the bit depth. */
static unsigned sample16(const uint8_t *p, unsigned max) {
    unsigned v = (unsigned)p[0] | (unsigned)p[1] << 8;
    return v > max ? max : v;
}

static void tone_map_pixel(const wf_heif_color *plan, double rgb[3], uint8_t *out) {
    if (plan->transfer == WF_HEIF_HLG) {
        /* The HLG OOTF for a 1000 cd/m² display (system gamma 1.2), then relative to reference white. */
        double ys = plan->luma[0] * rgb[0] + plan->luma[1] * rgb[1] + plan->luma[2] * rgb[2];
        double gain = HDR_PEAK * pow(fmax(ys, 1e-6), 0.2) / REFERENCE_WHITE;
        for (int c = 0; c < 3; c++) rgb[c] *= gain;
    }
    double y = plan->luma[0] * rgb[0] + plan->luma[1] * rgb[1] + plan->luma[2] * rgb[2];
    double scale = y > 1e-9 ? roll_off(y) / y : 1;
    for (int c = 0; c < 3; c++) {
        double v = fmin(fmax(rgb[c] * scale, 0), 1);
        out[c] = plan->encode[(int)lround(v * (ENCODE_STEPS - 1))];
    }
}

void wf_heif_color_row(const wf_heif_color *plan, const uint8_t *source, uint8_t *destination, uint32_t width) {
    unsigned max = (1u << plan->bits) - 1;
    int deep = plan->bits > 8, step = deep ? 2 : 1;
    for (uint32_t x = 0; x < width; x++) {
        const uint8_t *in = source + (size_t)x * plan->channels * step;
        uint8_t *out = destination + (size_t)x * plan->channels;
        unsigned codes[4];
        for (int c = 0; c < plan->channels; c++) codes[c] = deep ? sample16(in + 2 * c, max) : in[c];
        if (plan->transfer == WF_HEIF_SDR) {
            for (int c = 0; c < 3; c++) out[c] = (uint8_t)((codes[c] * 255 + max / 2) / max);
        } else {
            double rgb[3] = {plan->linear[codes[0]], plan->linear[codes[1]], plan->linear[codes[2]]};
            tone_map_pixel(plan, rgb, out);
        }
        if (plan->channels == 4) out[3] = (uint8_t)((codes[3] * 255 + max / 2) / max);
    }
}

void wf_heif_color_free(wf_heif_color *plan) {
    free(plan->icc);
    free(plan->linear);
    free(plan->encode);
    memset(plan, 0, sizeof *plan);
}
