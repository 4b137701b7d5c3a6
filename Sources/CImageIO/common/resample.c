/*
 * Lanczos-3 resampling, separable and streaming. Source rows arrive one at a time (straight from the
 * decoder into a ring buffer as tall as the vertical filter), so memory is a few source rows plus the
 * output, whatever the source size. Each output row is filtered vertically first, where the inner loop
 * runs over a whole contiguous row and vectorises, and then horizontally on the already shorter row, four
 * channels at a time. Weights are computed once per output column and row, as Pillow does: the window is
 * cut at the image edge and the remaining weights renormalised. Colour is premultiplied by alpha while it is
 * filtered, so transparent pixels cannot bleed their (arbitrary) colour into the edges. Opaque images (gray
 * and RGB, nearly every photo) are filtered in fixed point instead, by the kernels in resample_kernels.c:
 * twice as fast, and the same bits on every machine.
 */
#include "cimageio.h"
#include "resample.h"
#include "resample_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef float v4f __attribute__((vector_size(16)));

static const double pi = 3.14159265358979323846;

/* Lanczos-3, sin(πx)·sin(πx/3)·3/(πx)², along a run of taps one `step` apart. The two sines are stepped by
 * rotation (angle addition): four sin/cos calls per run instead of two sines per tap, which were most of the
 * time spent making a resampler. The drift over a run of a few dozen taps is about 1e-14, far below the
 * float the weights are kept in. */
typedef struct {
    double step, sin1, cos1, sin3, cos3; /* the step, and the rotation by it of each sine's angle */
} lanczos_steps;

static lanczos_steps lanczos3_steps(double step) {
    double d = pi * step;
    return (lanczos_steps){step, sin(d), cos(d), sin(d / 3.0), cos(d / 3.0)};
}

/* out[k] = Lanczos-3 at x0 + k·step, for k < count. */
static void lanczos3_run(double x0, const lanczos_steps *steps, uint32_t count, double *out) {
    double a = pi * x0;
    double s1 = sin(a), c1 = cos(a), s3 = sin(a / 3.0), c3 = cos(a / 3.0);
    for (uint32_t k = 0; k < count; k++) {
        double x = x0 + (double)k * steps->step, ax = x < 0 ? -x : x, px = pi * x;
        out[k] = ax >= 3.0 ? 0.0 : ax < 1e-9 ? 1.0 : 3.0 * s1 * s3 / (px * px);
        double next1 = s1 * steps->cos1 + c1 * steps->sin1, next3 = s3 * steps->cos3 + c3 * steps->sin3;
        c1 = c1 * steps->cos1 - s1 * steps->sin1;
        c3 = c3 * steps->cos3 - s3 * steps->sin3;
        s1 = next1, s3 = next3;
    }
}

/* The taps of every output sample on one axis, placed on the source by `axis`. Returns 0, or -1 when out of
 * memory. */
static int make_taps(uint32_t in, uint32_t out, wf_axis axis, wf_taps **taps_out, float **weights_out,
                     uint32_t *widest) {
    double scale = axis.scale > 0 ? axis.scale : (double)in / (double)out;
    double filter_scale = scale > 1.0 ? scale : 1.0; /* widen the kernel when shrinking: it is a low-pass */
    double support = 3.0 * filter_scale;
    size_t per = (size_t)ceil(support) * 2 + 2;
    wf_taps *taps = malloc((size_t)out * sizeof *taps);
    float *weights = malloc((size_t)out * per * sizeof *weights);
    double *raw = malloc(per * sizeof *raw);
    if (!taps || !weights || !raw) {
        free(taps);
        free(weights);
        free(raw);
        return -1;
    }
    uint32_t offset = 0;
    *widest = 1;
    const lanczos_steps steps = lanczos3_steps(1.0 / filter_scale);
    for (uint32_t i = 0; i < out; i++) {
        double center = ((double)i + 0.5 + axis.shift) * scale;
        double low = center - support + 0.5, high = center + support + 0.5;
        uint32_t first = low <= 0 ? 0 : (uint32_t)low;
        uint32_t end = high >= (double)in ? in : (uint32_t)high;
        if (end <= first) { /* a sliver of an image: at least the nearest sample */
            first = first < in ? first : in - 1;
            end = first + 1;
        }
        uint32_t count = end - first;
        lanczos3_run(((double)first - center + 0.5) / filter_scale, &steps, count, raw);
        if (in == out && scale == 1.0 && axis.shift == 0) {
            /* Same size on this axis: every weight but the centre one is sin(πk) rounding noise. Keeping one
             * tap keeps the axis exact and cheap (and the window ends monotonic, which the ring relies on). */
            uint32_t keep = i - first;
            first = i;
            raw[0] = raw[keep];
            count = 1;
        }
        double sum = 0;
        for (uint32_t k = 0; k < count; k++) sum += raw[k];
        if (sum == 0) { /* cannot happen with Lanczos-3's window, but never divide by zero */
            raw[0] = 1, count = 1, sum = 1;
        }
        taps[i] = (wf_taps){.start = first, .count = count, .offset = offset};
        for (uint32_t k = 0; k < count; k++) weights[offset + k] = (float)(raw[k] / sum);
        offset += count;
        if (count > *widest) *widest = count;
    }
    free(raw);
    *taps_out = taps;
    *weights_out = weights;
    return 0;
}

/* Q14 weights summing to exactly one, so a flat area stays flat: the rounding's remainder goes to the
 * largest weight. */
static void quantise(const float *weights, uint32_t count, int16_t *out) {
    int32_t sum = 0;
    uint32_t largest = 0;
    for (uint32_t k = 0; k < count; k++) {
        out[k] = (int16_t)lrintf(weights[k] * (float)(1 << WF_Q_WEIGHT_BITS));
        sum += out[k];
        if (weights[k] > weights[largest]) largest = k;
    }
    out[largest] = (int16_t)(out[largest] + ((1 << WF_Q_WEIGHT_BITS) - sum));
}

/* The fixed-point weights and buffers; 0, or -1 when out of memory. */
static int init_fixed(wf_resampler *r, uint32_t widest_x) {
    size_t row = (size_t)r->in_width * (size_t)r->channels;
    r->kernels = wf_kernels_fastest();
    r->x_stride = (widest_x + WF_Q_TAP_BLOCK - 1) / WF_Q_TAP_BLOCK * WF_Q_TAP_BLOCK;
    size_t y_total = r->y_taps[r->out_height - 1].offset + r->y_taps[r->out_height - 1].count;
    r->y_fixed = malloc(y_total * sizeof *r->y_fixed);
    r->x_fixed = calloc((size_t)r->out_width * r->x_stride, sizeof *r->x_fixed);
    r->x_starts = malloc((size_t)r->out_width * sizeof *r->x_starts);
    r->rows = malloc((size_t)r->slots * sizeof *r->rows);
    r->ring_bytes = malloc(r->slots * row);
    /* Each plane is readable a whole stride past its last start. A gray column is its own plane. */
    r->plane_length = (size_t)r->in_width + r->x_stride;
    r->column_fixed = calloc(r->channels == 1 ? r->plane_length : row, sizeof *r->column_fixed);
    if (r->channels == 3) r->planes = calloc(r->plane_length * 3, sizeof *r->planes);
    if (!r->y_fixed || !r->x_fixed || !r->x_starts || !r->rows || !r->ring_bytes || !r->column_fixed ||
        (r->channels == 3 && !r->planes))
        return -1;
    for (uint32_t y = 0; y < r->out_height; y++) {
        const wf_taps *t = &r->y_taps[y];
        quantise(r->y_weights + t->offset, t->count, r->y_fixed + t->offset);
    }
    for (uint32_t x = 0; x < r->out_width; x++) {
        const wf_taps *t = &r->x_taps[x];
        quantise(r->x_weights + t->offset, t->count, r->x_fixed + (size_t)x * r->x_stride);
        r->x_starts[x] = t->start;
    }
    return 0;
}

/* The premultiplied float ring and rows of an image with alpha; 0, or -1 when out of memory. */
static int init_floats(wf_resampler *r) {
    size_t row = (size_t)r->in_width * (size_t)r->channels;
    r->ring_floats = malloc(r->slots * row * sizeof(float));
    r->staging = malloc(row);
    /* Four floats of padding: the horizontal pass loads four channels at a time. */
    r->column = calloc(row + 4, sizeof(float));
    r->line = calloc((size_t)r->out_width * (size_t)r->channels + 4, sizeof(float));
    return r->ring_floats && r->staging && r->column && r->line ? 0 : -1;
}

void wf_resampler_free(wf_resampler *r) {
    free(r->y_fixed);
    free(r->x_fixed);
    free(r->x_starts);
    free(r->rows);
    free(r->column_fixed);
    free(r->planes);
    free(r->x_taps);
    free(r->y_taps);
    free(r->x_weights);
    free(r->y_weights);
    free(r->ring_bytes);
    free(r->ring_floats);
    free(r->staging);
    free(r->column);
    free(r->line);
    free(r->output);
    memset(r, 0, sizeof *r);
}

int wf_resampler_init(wf_resampler *r, uint32_t in_width, uint32_t in_height, uint32_t out_width,
                      uint32_t out_height, int channels) {
    return wf_resampler_init_mapped(r, in_width, in_height, out_width, out_height, channels, (wf_axis){0, 0},
                                    (wf_axis){0, 0});
}

/* Whether an axis maps each output sample onto the source sample of the same number. */
static int same_grid(uint32_t in, uint32_t out, wf_axis axis) {
    return in == out && (axis.scale == 0 || axis.scale == 1.0) && axis.shift == 0;
}

int wf_resampler_init_mapped(wf_resampler *r, uint32_t in_width, uint32_t in_height, uint32_t out_width,
                             uint32_t out_height, int channels, wf_axis x, wf_axis y) {
    memset(r, 0, sizeof *r);
    r->in_width = in_width;
    r->in_height = in_height;
    r->out_width = out_width;
    r->out_height = out_height;
    r->channels = channels;
    r->alpha = channels == 2 || channels == 4;
    r->identity = same_grid(in_width, out_width, x) && same_grid(in_height, out_height, y);
    r->output = malloc((size_t)out_width * out_height * (size_t)channels);
    if (!r->output) goto fail;
    if (r->identity) return 0;

    uint32_t widest_x;
    if (make_taps(in_width, out_width, x, &r->x_taps, &r->x_weights, &widest_x) != 0) goto fail;
    if (make_taps(in_height, out_height, y, &r->y_taps, &r->y_weights, &r->slots) != 0) goto fail;
    if ((r->alpha ? init_floats(r) : init_fixed(r, widest_x)) != 0) goto fail;
    return 0;
fail:
    wf_resampler_free(r);
    return -1;
}

uint8_t *wf_resampler_row(wf_resampler *r) {
    size_t row = (size_t)r->in_width * (size_t)r->channels;
    uint32_t index = r->rows_in < r->in_height ? r->rows_in : r->in_height - 1; /* extra rows are ignored */
    if (r->identity) return r->output + (size_t)index * row;
    if (r->alpha) return r->staging;
    return r->ring_bytes + (size_t)(index % r->slots) * row;
}

/* ---- the two passes ---- */

/* The hot loops are built twice on x86-64 Linux, for AVX2 (eight floats a step) and for the baseline, and
 * the loader picks one for the machine: the same binary runs everywhere and uses what it finds. */
#if defined(__x86_64__) && defined(__linux__) && defined(__clang__)
#define WF_HOT __attribute__((target_clones("avx2", "default")))
#else
#define WF_HOT
#endif

/* One output row of an opaque image: vertically into the Q6 column, split by channel, then each channel
 * horizontally into its place in the row. */
static void filter_fixed(wf_resampler *r, const wf_taps *t, uint8_t *out) {
    const int c = r->channels;
    size_t n = (size_t)r->in_width * (size_t)c;
    for (uint32_t k = 0; k < t->count; k++) r->rows[k] = r->ring_bytes + (size_t)((t->start + k) % r->slots) * n;
    wf_kernel_vertical(r->kernels, r->rows, r->y_fixed + t->offset, t->count, n, r->column_fixed);
    int16_t *planes[3] = {r->column_fixed};
    if (c == 3) {
        for (int channel = 0; channel < c; channel++) planes[channel] = r->planes + (size_t)channel * r->plane_length;
        wf_kernel_split(r->kernels, r->column_fixed, r->in_width, planes);
    }
    wf_kernel_horizontal(r->kernels, (const int16_t *const *)planes, r->x_starts, r->x_fixed, r->x_stride,
                         r->out_width, out, c);
}

WF_HOT static void vertical_floats(const wf_resampler *r, const wf_taps *t, const float *w, float *restrict column) {
    size_t n = (size_t)r->in_width * (size_t)r->channels;
#define RING_ROW(k) (r->ring_floats + (size_t)((t->start + (k)) % r->slots) * n)
    const float *restrict s0 = RING_ROW(0);
    float w0 = w[0];
    for (size_t i = 0; i < n; i++) column[i] = w0 * s0[i];
    for (uint32_t k = 1; k < t->count; k++) {
        const float *restrict a = RING_ROW(k);
        float wa = w[k];
        for (size_t i = 0; i < n; i++) column[i] += wa * a[i];
    }
#undef RING_ROW
}

WF_HOT static void horizontal(const wf_resampler *r, const float *restrict column, float *restrict line) {
    const int c = r->channels;
    /* Gray+alpha or RGBA: one vector per pixel; with two channels the lanes past them hold the next
     * pixel's samples and are ignored (the next store overwrites them; the buffers carry padding). */
    for (uint32_t x = 0; x < r->out_width; x++) {
        const wf_taps *t = &r->x_taps[x];
        const float *w = r->x_weights + t->offset, *s = column + (size_t)t->start * (size_t)c;
        v4f sum = {0, 0, 0, 0};
        for (uint32_t k = 0; k < t->count; k++) {
            v4f v;
            memcpy(&v, s + (size_t)k * (size_t)c, sizeof v);
            sum += (v4f){w[k], w[k], w[k], w[k]} * v;
        }
        memcpy(line + (size_t)x * (size_t)c, &sum, sizeof sum);
    }
}

static inline uint8_t to_byte(float v) {
    v = v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v;
    return (uint8_t)(v + 0.5f);
}

/* Unpremultiplied bytes of a filtered row with alpha. */
static void store(const wf_resampler *r, const float *line, uint8_t *restrict out) {
    const int c = r->channels;
    size_t n = (size_t)r->out_width * (size_t)c;
    for (size_t i = 0; i < n; i += (size_t)c) {
        uint8_t alpha = to_byte(line[i + (size_t)c - 1]);
        out[i + (size_t)c - 1] = alpha;
        float unpremultiply = alpha ? 255.0f / (float)alpha : 0.0f;
        for (int k = 0; k < c - 1; k++) out[i + (size_t)k] = to_byte(line[i + (size_t)k] * unpremultiply);
    }
}

static void premultiply(const wf_resampler *r, const uint8_t *restrict in, float *restrict out) {
    const int c = r->channels;
    size_t n = (size_t)r->in_width * (size_t)c;
    for (size_t i = 0; i < n; i += (size_t)c) {
        float alpha = (float)in[i + (size_t)c - 1];
        float scale = alpha * (1.0f / 255.0f);
        for (int k = 0; k < c - 1; k++) out[i + (size_t)k] = (float)in[i + (size_t)k] * scale;
        out[i + (size_t)c - 1] = alpha;
    }
}

void wf_resampler_commit(wf_resampler *r) {
    if (r->rows_in >= r->in_height) return;
    if (r->identity) {
        r->rows_in++;
        r->rows_out = r->rows_in;
        return;
    }
    size_t row = (size_t)r->in_width * (size_t)r->channels;
    if (r->alpha) premultiply(r, r->staging, r->ring_floats + (size_t)(r->rows_in % r->slots) * row);
    r->rows_in++;
    /* Every output row whose window is now complete. The windows' ends never decrease, so when a row is
     * emitted its whole window is still in the ring. */
    while (r->rows_out < r->out_height) {
        const wf_taps *t = &r->y_taps[r->rows_out];
        if (t->start + t->count > r->rows_in) break;
        uint8_t *out = r->output + (size_t)r->rows_out * r->out_width * (size_t)r->channels;
        if (!r->alpha) {
            filter_fixed(r, t, out);
        } else {
            vertical_floats(r, t, r->y_weights + t->offset, r->column);
            horizontal(r, r->column, r->line);
            store(r, r->line, out);
        }
        r->rows_out++;
    }
}

void wf_resampler_feed_image(wf_resampler *r, const uint8_t *image) {
    size_t row = (size_t)r->in_width * (size_t)r->channels;
    if (r->identity || r->alpha || r->rows_in != 0) { /* a copy is the output, or premultiplied from staging */
        for (uint32_t y = r->rows_in; y < r->in_height; y++) {
            memcpy(wf_resampler_row(r), image + (size_t)y * row, row);
            wf_resampler_commit(r);
        }
        return;
    }
    /* The image is a ring with a slot per row, which the vertical pass only reads. */
    uint8_t *ring = r->ring_bytes;
    uint32_t slots = r->slots;
    r->ring_bytes = (uint8_t *)image;
    r->slots = r->in_height;
    while (r->rows_in < r->in_height) wf_resampler_commit(r);
    r->ring_bytes = ring;
    r->slots = slots;
}

uint8_t *wf_resampler_take_output(wf_resampler *r) {
    if (r->rows_out < r->out_height) return NULL;
    uint8_t *output = r->output;
    r->output = NULL;
    return output;
}

uint8_t *wf_resample_image(const uint8_t *image, uint32_t width, uint32_t height, int channels, uint32_t out_width,
                           uint32_t out_height, int portable) {
    return wf_resample_image_mapped(image, width, height, channels, out_width, out_height, (wf_axis){0, 0},
                                    (wf_axis){0, 0}, portable);
}

uint8_t *wf_resample_image_mapped(const uint8_t *image, uint32_t width, uint32_t height, int channels,
                                  uint32_t out_width, uint32_t out_height, wf_axis x, wf_axis y, int portable) {
    wf_resampler r;
    if (wf_resampler_init_mapped(&r, width, height, out_width, out_height, channels, x, y) != 0) return NULL;
    if (portable) r.kernels = WF_KERNELS_PORTABLE;
    wf_resampler_feed_image(&r, image);
    uint8_t *output = wf_resampler_take_output(&r);
    wf_resampler_free(&r);
    return output;
}
