/*
 * A decoded image on its way to the encoders: interleaved samples (gray, RGB, with or without alpha) or a
 * JPEG's own YCbCr planes, Y at full size and Cb, Cr at half size on each axis (4:2:0, as the encoder stores
 * them). Planes skip the chroma upsampling and RGB conversion of the decode and the conversion and chroma
 * downsampling of the encode, and the resampler filters half the samples. A chroma sample covers two output
 * pixels on each axis, so a chroma plane is filtered at the image's own scale (width over width), which its
 * rounded-up size only approximates when a side is odd. A side of odd length has a last chroma sample that
 * covers one real pixel; where the turn still to come mirrors that side, the sample would land on the other
 * end with its two pixels the wrong way round, so that plane is filtered half a sample back (wf_chroma_axes).
 */
#include "cimageio.h"
#include "orient.h"
#include "raster.h"
#include "resample.h"

#include <stdlib.h>
#include <string.h>

static uint32_t half(uint32_t n) { return (n + 1) / 2; }

void wf_raster_free(wf_raster *r) {
    free(r->pixels);
    for (int p = 0; p < 3; p++) free(r->planes[p].pixels);
    memset(r, 0, sizeof *r);
}

void wf_raster_chroma_size(uint32_t width, uint32_t height, uint32_t *chroma_width, uint32_t *chroma_height) {
    *chroma_width = half(width);
    *chroma_height = half(height);
}

void wf_chroma_axes(uint32_t width, uint32_t height, uint32_t step_x, uint32_t step_y, uint32_t out_width,
                    uint32_t out_height, int orientation, wf_axis *x, wf_axis *y) {
    int mirrors_x = orientation == 2 || orientation == 3 || orientation == 7 || orientation == 8;
    int mirrors_y = orientation == 3 || orientation == 4 || orientation == 6 || orientation == 7;
    *x = (wf_axis){2.0 * width / ((double)out_width * step_x), mirrors_x && out_width % 2 ? -0.5 : 0};
    *y = (wf_axis){2.0 * height / ((double)out_height * step_y), mirrors_y && out_height % 2 ? -0.5 : 0};
}

int wf_raster_resample(const wf_raster *in, uint32_t width, uint32_t height, wf_raster *out) {
    memset(out, 0, sizeof *out);
    out->width = width;
    out->height = height;
    out->channels = in->channels;
    out->planar = in->planar;
    out->orientation = in->orientation;
    if (!in->planar) {
        out->pixels = wf_resample_image(in->pixels, in->width, in->height, in->channels, width, height, 0);
        return out->pixels ? 0 : -1;
    }
    wf_axis luma = {0, 0}, chroma_x, chroma_y;
    wf_chroma_axes(in->width, in->height, 2, 2, width, height, in->orientation, &chroma_x, &chroma_y);
    for (int p = 0; p < 3; p++) {
        const wf_plane *source = &in->planes[p];
        wf_plane *plane = &out->planes[p];
        plane->width = p == 0 ? width : half(width);
        plane->height = p == 0 ? height : half(height);
        plane->pixels = wf_resample_image_mapped(source->pixels, source->width, source->height, 1, plane->width,
                                                 plane->height, p == 0 ? luma : chroma_x, p == 0 ? luma : chroma_y, 0);
        if (!plane->pixels) {
            wf_raster_free(out);
            return -1;
        }
    }
    return 0;
}

/* A turned copy, or `pixels` itself when upright: as wf_orient. */
static int orient_plane(wf_plane *plane, int orientation, int channels, uint8_t **turned) {
    uint32_t width = plane->width, height = plane->height;
    *turned = wf_orient(plane->pixels, &width, &height, channels, orientation);
    if (!*turned) return -1;
    plane->width = width;
    plane->height = height;
    return 0;
}

int wf_raster_orient(const wf_raster *in, wf_raster *out) {
    int orientation = in->orientation;
    *out = *in;
    out->orientation = 1;
    if (orientation < 2 || orientation > 8) return 0;
    if (!in->planar) {
        wf_plane whole = {in->pixels, in->width, in->height};
        if (orient_plane(&whole, orientation, in->channels, &out->pixels) != 0) return -1;
        out->width = whole.width;
        out->height = whole.height;
        return 0;
    }
    for (int p = 0; p < 3; p++) {
        if (orient_plane(&out->planes[p], orientation, 1, &out->planes[p].pixels) != 0) {
            for (int q = 0; q < p; q++) free(out->planes[q].pixels);
            return -1;
        }
    }
    out->width = out->planes[0].width;
    out->height = out->planes[0].height;
    return 0;
}

void wf_raster_release_turned(const wf_raster *original, wf_raster *turned) {
    if (turned->pixels != original->pixels) free(turned->pixels);
    for (int p = 0; p < 3; p++)
        if (turned->planes[p].pixels != original->planes[p].pixels) free(turned->planes[p].pixels);
    memset(turned, 0, sizeof *turned);
}

static inline uint32_t clamp_sample(int32_t v) { return (uint32_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

/* Which of `cells` equal spans of `length` samples each sample falls in, for every sample; NULL when out of
 * memory. */
static uint32_t *cell_map(uint32_t length, uint32_t cells) {
    uint32_t *map = malloc((size_t)length * sizeof *map);
    for (uint32_t i = 0; map && i < length; i++) map[i] = (uint32_t)((uint64_t)i * cells / length);
    return map;
}

/* The colours as shown, summed per cell: each pixel made RGB by JFIF's equations (16-bit fixed point, each
 * chroma sample spread over the pixels it covers) and clipped, as a decoder clips it, before it is counted.
 * Walked by chroma sample, so each sample's terms are worked out once for its pixels. */
static void planes_sums(const wf_raster *r, const uint32_t *column_cell, const uint32_t *row_cell, uint32_t columns,
                        uint64_t *sums, uint64_t *weights) {
    enum { CR_R = 91881, CB_G = 22554, CR_G = 46802, CB_B = 116130, HALF = 1 << 15 };
    const wf_plane *luma = &r->planes[0], *cb = &r->planes[1], *cr = &r->planes[2];
    const uint32_t width = luma->width;
    for (uint32_t y = 0; y < luma->height; y++) {
        const uint8_t *l = luma->pixels + (size_t)y * width;
        const uint8_t *b = cb->pixels + (size_t)(y / 2) * cb->width, *c = cr->pixels + (size_t)(y / 2) * cr->width;
        size_t row = (size_t)row_cell[y] * columns;
        for (uint32_t x = 0; x < width; x += 2) {
            int32_t u = (int32_t)b[x / 2] - 128, w = (int32_t)c[x / 2] - 128;
            int32_t red = (CR_R * w + HALF) >> 16, green = -((CB_G * u + CR_G * w - HALF) >> 16),
                    blue = (CB_B * u + HALF) >> 16;
            for (uint32_t k = x; k < x + 2 && k < width; k++) {
                size_t cell = row + column_cell[k];
                sums[3 * cell] += clamp_sample(l[k] + red);
                sums[3 * cell + 1] += clamp_sample(l[k] + green);
                sums[3 * cell + 2] += clamp_sample(l[k] + blue);
                weights[cell]++;
            }
        }
    }
}

/* Interleaved pixels summed per cell, each weighted by its alpha (so a cut-out's transparent border does not
 * grey it). Gray is spread to R, G and B. */
static void pixels_sums(const wf_raster *r, const uint32_t *column_cell, const uint32_t *row_cell, uint32_t columns,
                        uint64_t *sums, uint64_t *weights) {
    const int channels = r->channels;
    int colour = channels >= 3 ? 3 : 1, alpha = channels == 2 || channels == 4;
    const uint8_t *pixels = r->pixels;
    for (uint32_t y = 0; y < r->height; y++) {
        size_t row = (size_t)row_cell[y] * columns;
        for (uint32_t x = 0; x < r->width; x++, pixels += channels) {
            size_t cell = row + column_cell[x];
            uint64_t a = alpha ? pixels[channels - 1] : 255;
            for (int k = 0; k < 3; k++) sums[3 * cell + k] += a * pixels[colour == 3 ? k : 0];
            weights[cell] += a;
        }
    }
}

int wf_raster_grid(const wf_raster *r, uint32_t columns, uint32_t rows, uint8_t *rgb) {
    uint32_t width = r->planar ? r->planes[0].width : r->width, height = r->planar ? r->planes[0].height : r->height;
    if (columns == 0 || rows == 0 || columns > width || rows > height) return -1;
    size_t cells = (size_t)columns * rows;
    uint32_t *column_cell = cell_map(width, columns), *row_cell = cell_map(height, rows);
    uint64_t *sums = calloc(cells * 3, sizeof *sums), *weights = calloc(cells, sizeof *weights);
    int answer = -1;
    if (column_cell && row_cell && sums && weights) {
        (r->planar ? planes_sums : pixels_sums)(r, column_cell, row_cell, columns, sums, weights);
        answer = 1;
        for (size_t cell = 0; cell < cells; cell++) {
            if (weights[cell] == 0) { answer = 0; continue; }
            for (int k = 0; k < 3; k++) rgb[3 * cell + k] = (uint8_t)((sums[3 * cell + k] + weights[cell] / 2) / weights[cell]);
        }
    }
    free(column_cell);
    free(row_cell);
    free(sums);
    free(weights);
    return answer;
}

int wf_raster_average(const wf_raster *r, uint8_t rgb[3]) { return wf_raster_grid(r, 1, 1, rgb) == 1; }
