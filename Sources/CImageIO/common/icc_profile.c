/*
 * An ICC v2 display profile made from a colour description (primaries, white point, transfer curve), for
 * images that describe their colour with CICP/nclx numbers rather than an embedded profile (AVIF, HEIF):
 * the derived JPEG or PNG then carries a profile every browser understands. The layout follows ICC.1:2001
 * as the common v2 sRGB profiles do: colorants adapted to D50 with Bradford, the media white point as it
 * is, one shared 'curv' tag for the three channels. Deterministic: no date, no ID.
 */
#include "icc_profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *bytes;
    size_t length;
} buffer;

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void put16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static uint32_t s15(double v) { return (uint32_t)(int32_t)lround(v * 65536.0); }

/* 3×3 inverse; 0 when singular. */
static int invert(const double m[9], double out[9]) {
    double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
    if (fabs(det) < 1e-12) return 0;
    out[0] = (m[4] * m[8] - m[5] * m[7]) / det;
    out[1] = (m[2] * m[7] - m[1] * m[8]) / det;
    out[2] = (m[1] * m[5] - m[2] * m[4]) / det;
    out[3] = (m[5] * m[6] - m[3] * m[8]) / det;
    out[4] = (m[0] * m[8] - m[2] * m[6]) / det;
    out[5] = (m[2] * m[3] - m[0] * m[5]) / det;
    out[6] = (m[3] * m[7] - m[4] * m[6]) / det;
    out[7] = (m[1] * m[6] - m[0] * m[7]) / det;
    out[8] = (m[0] * m[4] - m[1] * m[3]) / det;
    return 1;
}

static void multiply(const double a[9], const double b[9], double out[9]) {
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) out[r * 3 + c] = a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c];
}

int wf_rgb_to_xyz(const double primaries[8], double out[9]) {
    double xyz[3][3];
    for (int i = 0; i < 3; i++) {
        double x = primaries[2 * i], y = primaries[2 * i + 1];
        if (y <= 0) return 0;
        xyz[i][0] = x / y;
        xyz[i][1] = 1;
        xyz[i][2] = (1 - x - y) / y;
    }
    double wx = primaries[6], wy = primaries[7];
    if (wy <= 0) return 0;
    double white[3] = {wx / wy, 1, (1 - wx - wy) / wy};
    double p[9] = {xyz[0][0], xyz[1][0], xyz[2][0], xyz[0][1], xyz[1][1], xyz[2][1], xyz[0][2], xyz[1][2], xyz[2][2]};
    double inverse[9];
    if (!invert(p, inverse)) return 0;
    double s[3];
    for (int r = 0; r < 3; r++) s[r] = inverse[r * 3] * white[0] + inverse[r * 3 + 1] * white[1] + inverse[r * 3 + 2] * white[2];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) out[r * 3 + c] = p[r * 3 + c] * s[c];
    return 1;
}

/* Bradford adaptation from `white` (XYZ, Y = 1) to D50. */
static void bradford_to_d50(const double white[3], double out[9]) {
    static const double b[9] = {0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296};
    static const double d50[3] = {0.9642, 1.0, 0.8249};
    double inverse[9];
    invert(b, inverse);
    double source[3], target[3];
    for (int r = 0; r < 3; r++) {
        source[r] = b[r * 3] * white[0] + b[r * 3 + 1] * white[1] + b[r * 3 + 2] * white[2];
        target[r] = b[r * 3] * d50[0] + b[r * 3 + 1] * d50[1] + b[r * 3 + 2] * d50[2];
    }
    double scale[9] = {target[0] / source[0], 0, 0, 0, target[1] / source[1], 0, 0, 0, target[2] / source[2]};
    double step[9];
    multiply(scale, b, step);
    multiply(inverse, step, out);
}

static void xyz_tag(uint8_t *p, double x, double y, double z) {
    memcpy(p, "XYZ ", 4);
    memset(p + 4, 0, 4);
    put32(p + 8, s15(x));
    put32(p + 12, s15(y));
    put32(p + 16, s15(z));
}

static double srgb_decode(double v) { return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4); }

/* The 'curv' tag: one gamma value, or a 1024-entry table for the sRGB curve. Returns its size. */
static size_t curve_tag(uint8_t *p, wf_icc_curve curve, double gamma) {
    memcpy(p, "curv", 4);
    memset(p + 4, 0, 4);
    if (curve == WF_ICC_CURVE_GAMMA) {
        put32(p + 8, 1);
        put16(p + 12, (uint16_t)lround(gamma * 256.0));
        return 14;
    }
    enum { ENTRIES = 1024 };
    put32(p + 8, ENTRIES);
    for (int i = 0; i < ENTRIES; i++)
        put16(p + 12 + 2 * i, (uint16_t)lround(srgb_decode((double)i / (ENTRIES - 1)) * 65535.0));
    return 12 + 2 * ENTRIES;
}

static size_t text_description_tag(uint8_t *p, const char *text) {
    size_t n = strlen(text) + 1;
    memcpy(p, "desc", 4);
    memset(p + 4, 0, 4);
    put32(p + 8, (uint32_t)n);
    memcpy(p + 12, text, n);
    memset(p + 12 + n, 0, 4 + 4 + 2 + 1 + 67); /* no Unicode, no ScriptCode */
    return 12 + n + 78;
}

static size_t text_tag(uint8_t *p, const char *text) {
    size_t n = strlen(text) + 1;
    memcpy(p, "text", 4);
    memset(p + 4, 0, 4);
    memcpy(p + 8, text, n);
    return 8 + n;
}

static size_t align4(size_t n) { return (n + 3) & ~(size_t)3; }

uint8_t *wf_icc_rgb_profile(const double primaries[8], wf_icc_curve curve, double gamma, const char *description,
                            size_t *length) {
    double to_xyz[9], adapt[9], adapted[9];
    if (!wf_rgb_to_xyz(primaries, to_xyz)) return NULL;
    double white[3] = {primaries[6] / primaries[7], 1, (1 - primaries[6] - primaries[7]) / primaries[7]};
    bradford_to_d50(white, adapt);
    multiply(adapt, to_xyz, adapted);

    enum { TAGS = 9, HEADER = 128 };
    uint8_t *p = calloc(1, 4096 + strlen(description) + 2048);
    if (!p) return NULL;
    size_t offset = HEADER + 4 + 12 * TAGS;
    struct { const char *signature; size_t at, size; } tags[TAGS];
    int count = 0;
    size_t size;

    size = text_description_tag(p + offset, description);
    tags[count++] = (typeof(tags[0])){"desc", offset, size};
    offset = align4(offset + size);
    size = text_tag(p + offset, "No copyright: made by Waterfall from the image's colour description");
    tags[count++] = (typeof(tags[0])){"cprt", offset, size};
    offset = align4(offset + size);
    xyz_tag(p + offset, white[0], white[1], white[2]);
    tags[count++] = (typeof(tags[0])){"wtpt", offset, 20};
    offset += 20;
    const char *colorants[3] = {"rXYZ", "gXYZ", "bXYZ"};
    for (int c = 0; c < 3; c++) {
        xyz_tag(p + offset, adapted[c], adapted[3 + c], adapted[6 + c]);
        tags[count++] = (typeof(tags[0])){colorants[c], offset, 20};
        offset += 20;
    }
    size = curve_tag(p + offset, curve, gamma);
    const char *curves[3] = {"rTRC", "gTRC", "bTRC"};
    for (int c = 0; c < 3; c++) tags[count++] = (typeof(tags[0])){curves[c], offset, size};
    offset = align4(offset + size);

    /* The header. */
    put32(p, (uint32_t)offset);
    put32(p + 8, 0x02100000);  /* version 2.1 */
    memcpy(p + 12, "mntr", 4);
    memcpy(p + 16, "RGB ", 4);
    memcpy(p + 20, "XYZ ", 4);
    memcpy(p + 36, "acsp", 4);
    put32(p + 68, s15(0.9642));  /* the PCS illuminant, D50 */
    put32(p + 72, s15(1.0));
    put32(p + 76, s15(0.8249));
    put32(p + HEADER, (uint32_t)count);
    for (int i = 0; i < count; i++) {
        uint8_t *entry = p + HEADER + 4 + 12 * i;
        memcpy(entry, tags[i].signature, 4);
        put32(entry + 4, (uint32_t)tags[i].at);
        put32(entry + 8, (uint32_t)tags[i].size);
    }
    *length = offset;
    return p;
}
