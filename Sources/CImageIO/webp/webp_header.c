/*
 * WebP header reading: the canvas size, alpha, and for an animation its frame count, from the chunks that
 * hold them and nothing else. libwebp's WebPGetFeatures reads the first chunk (VP8, VP8L or VP8X) from the
 * file's first bytes; a still VP8X file's image chunk is found by walking chunk headers and checked the same
 * way against the canvas (libwebp refuses to decode a mismatch); an animation's ANMF chunks are counted by
 * their headers, every payload skipped by seeking.
 *
 * EXIF orientation is not applied to WebP: Chromium 156 and Firefox 153 ESR both show a WebP whose EXIF chunk
 * says Orientation 6 as stored (naturalWidth × naturalHeight unchanged, lossy and lossless, with or without
 * an "Exif\0\0" prefix), while they turn the same tag in a JPEG. So the orientation is always 1 and the EXIF
 * chunk is not even looked for here; Tests/Browser/test_webp_orientation.py pins this down for Chromium.
 */
#include <stdio.h>
#include <string.h>
#include <webp/decode.h>

#include "readers.h"
#include "webp_format.h"
#include "webp_support.h"

/* Enough of a bitstream's start for WebPGetFeatures (VP8 needs 10 bytes, VP8L 5). */
enum { BITSTREAM_PREFIX = 32, ANMF_HEADER = 16 };

static void fail_walk(wf_header *out, const wf_webp_walk *walk, int status) {
    if (status == WF_WEBP_WALK_TRUNCATED) wf_fail(out, WF_ERR_TRUNCATED, "truncated WebP: %s", walk->message);
    else if (status == WF_WEBP_WALK_TOO_MANY) wf_fail(out, WF_ERR_UNSUPPORTED, "unsupported WebP: %s", walk->message);
    else wf_fail(out, WF_ERR_CORRUPT, "corrupt WebP: %s", walk->message);
}

/* The next chunk, or a failure reported (an END where a chunk was needed is reported as `missing`). */
static int next_chunk(wf_webp_walk *walk, wf_header *out, const char *missing) {
    int status = wf_webp_walk_next(walk);
    if (status == WF_WEBP_WALK_CHUNK) return 1;
    if (status == WF_WEBP_WALK_END) wf_fail(out, WF_ERR_CORRUPT, "corrupt WebP: %s", missing);
    else fail_walk(out, walk, status);
    return 0;
}

/*
 * WebPGetFeatures on `prefix` (a RIFF header, or nothing) followed by the current chunk's header and the first
 * bytes of its payload: what libwebp itself makes of the chunk. 1 on success; else the failure is reported.
 */
static int chunk_features(wf_webp_walk *walk, const uint8_t *prefix, size_t prefix_length,
                          WebPBitstreamFeatures *features, wf_header *out) {
    uint8_t bytes[12 + 8 + BITSTREAM_PREFIX];
    if (prefix_length > 0) memcpy(bytes, prefix, prefix_length); /* memcpy from NULL is undefined, even of 0 bytes */
    memcpy(bytes + prefix_length, walk->tag, 4);
    for (int i = 0; i < 4; i++) bytes[prefix_length + 4 + i] = (uint8_t)(walk->size >> (8 * i));
    size_t payload = walk->size < BITSTREAM_PREFIX ? walk->size : BITSTREAM_PREFIX;
    int status = wf_webp_walk_payload(walk, bytes + prefix_length + 8, payload);
    if (status != 0) {
        fail_walk(out, walk, status);
        return 0;
    }
    VP8StatusCode code = WebPGetFeatures(bytes, prefix_length + 8 + payload, features);
    if (code == VP8_STATUS_OK) return 1;
    char tag[24];
    wf_webp_describe_tag(walk->tag, tag, sizeof tag);
    if (code == VP8_STATUS_NOT_ENOUGH_DATA) /* the whole payload was there: it is too short to be a header */
        wf_fail(out, WF_ERR_CORRUPT, "corrupt WebP: the %s chunk (%u bytes) is too short for its header", tag, walk->size);
    else
        wf_fail(out, WF_ERR_CORRUPT, "corrupt WebP: invalid %s chunk header", tag);
    return 0;
}

static int is_tag(const wf_webp_walk *walk, const char *tag) { return memcmp(walk->tag, tag, 4) == 0; }

/* A still VP8X file: the first image chunk's bitstream must have the canvas's size; ALPH before it is alpha. */
static void read_still(wf_webp_walk *walk, wf_header *out) {
    static const char missing[] = "no image chunk (VP8 or VP8L) after VP8X";
    while (next_chunk(walk, out, missing)) {
        if (is_tag(walk, "ALPH")) out->alpha = 1;
        if (!is_tag(walk, "VP8 ") && !is_tag(walk, "VP8L")) continue;
        WebPBitstreamFeatures image;
        if (!chunk_features(walk, NULL, 0, &image, out)) return;
        if ((uint32_t)image.width != out->width || (uint32_t)image.height != out->height) {
            wf_fail(out, WF_ERR_CORRUPT, "corrupt WebP: the image is %d×%d, its VP8X canvas %u×%u", image.width,
                    image.height, out->width, out->height);
            return;
        }
        out->status = WF_OK;
        return;
    }
}

/* One ANMF chunk: its frame must lie inside the canvas, as libwebp's demuxer requires. */
static int check_frame(wf_webp_walk *walk, wf_header *out) {
    uint8_t frame[ANMF_HEADER];
    if (walk->size < ANMF_HEADER) {
        wf_fail(out, WF_ERR_CORRUPT, "corrupt WebP: ANMF chunk %u is %u bytes, too short for its header", out->frames + 1,
                walk->size);
        return 0;
    }
    int status = wf_webp_walk_payload(walk, frame, sizeof frame);
    if (status != 0) {
        fail_walk(out, walk, status);
        return 0;
    }
    uint64_t x = 2 * (uint64_t)wf_le24(frame), y = 2 * (uint64_t)wf_le24(frame + 3);
    uint64_t width = wf_le24(frame + 6) + 1ull, height = wf_le24(frame + 9) + 1ull;
    if (x + width > out->width || y + height > out->height) {
        wf_fail(out, WF_ERR_CORRUPT, "corrupt WebP: frame %u (%llu×%llu at %llu,%llu) lies outside the %u×%u canvas",
                out->frames + 1, (unsigned long long)width, (unsigned long long)height, (unsigned long long)x,
                (unsigned long long)y, out->width, out->height);
        return 0;
    }
    return 1;
}

/* An animation: ANIM, then the frames, counted by their chunk headers up to WF_MAX_FRAMES. */
static void read_animation(wf_webp_walk *walk, wf_header *out) {
    int saw_anim = 0, status;
    out->frames = 0;
    while ((status = wf_webp_walk_next(walk)) == WF_WEBP_WALK_CHUNK) {
        if (is_tag(walk, "ANIM")) saw_anim = 1;
        if (!is_tag(walk, "ANMF")) continue;
        if (!saw_anim) {
            wf_fail(out, WF_ERR_CORRUPT, "corrupt WebP: an ANMF chunk before the ANIM chunk");
            return;
        }
        if (out->frames == WF_MAX_FRAMES) {
            wf_fail(out, WF_ERR_UNSUPPORTED, "unsupported WebP: more than %u frames (Waterfall reads at most %u)",
                    WF_MAX_FRAMES, WF_MAX_FRAMES);
            return;
        }
        if (!check_frame(walk, out)) return;
        out->frames++;
    }
    if (status != WF_WEBP_WALK_END) {
        fail_walk(out, walk, status);
        return;
    }
    if (out->frames == 0) {
        wf_fail(out, WF_ERR_CORRUPT, "corrupt WebP: an animation without frames (no ANMF chunk)");
        return;
    }
    out->animated = out->frames > 1;
    out->status = WF_OK;
}

int wf_sniff_webp(const uint8_t *bytes, size_t length) {
    return WF_STARTS_WITH(bytes, length, "RIFF") && length >= 12 && memcmp(bytes + 8, "WEBP", 4) == 0;
}

void wf_read_webp_header(wf_stream *stream, wf_header *out) {
    wf_webp_walk walk;
    int status = wf_webp_walk_begin(&walk, stream);
    if (status != 0) {
        fail_walk(out, &walk, status);
        return;
    }
    if (!next_chunk(&walk, out, "no chunk after the RIFF header")) return;
    int simple = is_tag(&walk, "VP8 ") || is_tag(&walk, "VP8L");
    if (!simple && !is_tag(&walk, "VP8X")) {
        char tag[24];
        wf_webp_describe_tag(walk.tag, tag, sizeof tag);
        wf_fail(out, WF_ERR_CORRUPT, "corrupt WebP: the first chunk is '%s', not VP8, VP8L or VP8X", tag);
        return;
    }
    uint8_t riff[12] = {'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'E', 'B', 'P'};
    for (int i = 0; i < 4; i++) riff[4 + i] = (uint8_t)(walk.riff_size >> (8 * i));
    WebPBitstreamFeatures features;
    if (!chunk_features(&walk, riff, sizeof riff, &features, out)) return;

    out->width = (uint32_t)features.width;
    out->height = (uint32_t)features.height;
    out->alpha = features.has_alpha != 0;
    out->bit_depth = 8;
    out->orientation = 1; /* see the top of this file */
    if (simple) out->status = WF_OK;
    else if (features.has_animation) read_animation(&walk, out);
    else read_still(&walk, out);
    out->components = out->alpha ? 4 : 3;
}
