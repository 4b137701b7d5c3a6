/*
 * The GIF header, read by walking the blocks ourselves (giflib has no header-only read: DGifOpen stops after
 * the global colour table, DGifSlurp decodes everything).
 *
 * The size is the logical screen's, as browsers show it: frames may be smaller and offset, and whatever lies
 * outside the screen is clipped. (Where a first frame is larger than the screen readers part ways: Firefox
 * takes the frame's size, Pillow the union of both; such files are rare, and the screen is kept here.) Whether the file is animated needs a walk: a GIF has no frame count
 * anywhere, so every image descriptor is found by skipping the LZW data sub-block by sub-block. The walk
 * decodes nothing and stops past WF_MAX_FRAMES frames, so its work is bounded by the file's size and never by
 * what the file claims. It also sums the frames' stored sizes, so that an animated view's budget (animation.h)
 * is known before a frame is decoded (wf_gif_animation_budget). It does read about the whole of an animation (39,882 of photo-animated.gif's 40,840
 * bytes): a length byte comes every 256 bytes at most, so every 4 KiB page holds about sixteen of them and the
 * kernel would fetch every page whatever piece of it we asked for. A still is read whole for the same reason,
 * to know that no second frame follows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animation.h"
#include "gif_format.h"
#include "gif_support.h"
#include "readers.h"

typedef struct {
    wf_stream *stream;
    wf_header *out;
    uint32_t frames;       /* complete frames seen */
    uint64_t frame_pixels; /* their stored sizes, summed: what decoding them all costs (animation.h) */
    int transparent;       /* a transparent colour, or a first frame smaller than the screen */
    int interlaced;
    int disposal;          /* the next frame's, from its Graphic Control Extension */
    int restores;          /* a frame after the first has disposal 3 (restore what was under it) */
} walk;

static int read_bytes(walk *w, uint8_t *bytes, size_t length) { return wf_stream_read(w->stream, bytes, length) == length; }

/* Skips a run of sub-blocks up to its zero-length terminator; 0 at the terminator, -1 at the end of the file. */
static int skip_sub_blocks(walk *w, const uint8_t **first_block, uint8_t *first, size_t first_capacity) {
    for (int index = 0;; index++) {
        uint8_t length;
        if (!read_bytes(w, &length, 1)) return -1;
        if (length == 0) return 0;
        if (index == 0 && first_block && length <= first_capacity) {
            if (!read_bytes(w, first, length)) return -1;
            *first_block = first;
            continue;
        }
        /* The last byte is read, not skipped: a skip past the end of the file would go unnoticed. */
        if (length > 1) wf_stream_skip(w->stream, (uint64_t)length - 1);
        uint8_t last;
        if (!read_bytes(w, &last, 1)) return -1;
    }
}

/* An extension: only the Graphic Control Extension matters (its transparent-colour flag and disposal). */
static int extension(walk *w) {
    uint8_t label;
    if (!read_bytes(w, &label, 1)) return -1;
    const uint8_t *block = NULL;
    uint8_t first[255];
    if (skip_sub_blocks(w, &block, first, sizeof first) != 0) return -1;
    if (label == 0xF9 && block && (block[0] & 1)) w->transparent = 1;
    if (label == 0xF9 && block) w->disposal = (block[0] >> 2) & 7;
    return 0;
}

/* Whether a frame covers the whole screen: the first one must, or the still shows transparent pixels. */
static int covers_screen(const wf_header *out, const uint8_t *descriptor) {
    uint32_t left = descriptor[0] | descriptor[1] << 8, top = descriptor[2] | descriptor[3] << 8;
    uint32_t width = descriptor[4] | descriptor[5] << 8, height = descriptor[6] | descriptor[7] << 8;
    return left == 0 && top == 0 && width >= out->width && height >= out->height;
}

/* An image descriptor, its local colour table and its LZW data; 0 done, -1 truncated, -2 corrupt. */
static int image(walk *w) {
    uint8_t descriptor[9];
    if (!read_bytes(w, descriptor, sizeof descriptor)) return -1;
    uint8_t packed = descriptor[8];
    if (packed & 0x40) w->interlaced = 1;
    if (w->frames == 0 && !covers_screen(w->out, descriptor)) w->transparent = 1;
    if (packed & 0x80) wf_stream_skip(w->stream, 3u << ((packed & 7) + 1));
    uint8_t code_size;
    if (!read_bytes(w, &code_size, 1)) return -1;
    /* giflib refuses 12 and over (the clear code would be 4096, past the largest 12-bit code). */
    if (code_size > WF_GIF_MAX_CODE_SIZE) {
        wf_fail(w->out, WF_ERR_CORRUPT, "corrupt GIF: frame %u has an LZW code size of %u (at most %u)", w->frames + 1,
                code_size, WF_GIF_MAX_CODE_SIZE);
        return -2;
    }
    if (skip_sub_blocks(w, NULL, NULL, 0) != 0) return -1;
    /* (Restoring what was under the first frame is clearing it: gif_frames.c keeps no second canvas for it.) */
    if (w->frames > 0 && w->disposal == 3) w->restores = 1;
    w->disposal = 0;
    w->frames++;
    w->frame_pixels += (uint64_t)(descriptor[4] | descriptor[5] << 8) * (uint64_t)(descriptor[6] | descriptor[7] << 8);
    return 0;
}

/* The blocks after the screen: counts frames until the trailer, the end of the file or the frame limit. */
static void walk_blocks(walk *w) {
    for (;;) {
        uint8_t introducer;
        if (!read_bytes(w, &introducer, 1)) break; /* no trailer: browsers show what is there */
        if (introducer == 0x3B) break;
        int status;
        if (introducer == 0x2C && w->frames == WF_MAX_FRAMES) {
            /* As the WebP reader words it: the walk stops here, whatever follows. */
            wf_fail(w->out, WF_ERR_UNSUPPORTED, "unsupported GIF: more than %u frames (Waterfall reads at most %u)",
                    WF_MAX_FRAMES, WF_MAX_FRAMES);
            return;
        }
        if (introducer == 0x21) status = extension(w);
        else if (introducer == 0x2C) status = image(w);
        else {
            if (w->frames == 0) wf_fail(w->out, WF_ERR_CORRUPT, "corrupt GIF: unknown block 0x%02X before its first frame", introducer);
            else wf_fail(w->out, WF_ERR_CORRUPT, "corrupt GIF: unknown block 0x%02X after frame %u", introducer, w->frames);
            return;
        }
        if (status == -2) return;
        if (status == -1) {
            /* Cut inside a later frame: the frames before it are whole, and browsers play them. */
            if (w->frames > 0) {
                w->out->warnings++;
                break;
            }
            wf_fail(w->out, WF_ERR_TRUNCATED, "truncated GIF: the file ends inside %s",
                    introducer == 0x2C ? "its first frame" : "an extension before its first frame");
            return;
        }
    }
    if (w->frames == 0) {
        wf_fail(w->out, WF_ERR_CORRUPT, "corrupt GIF: no image in the file");
        return;
    }
    w->out->status = WF_OK;
}

int wf_sniff_gif(const uint8_t *bytes, size_t length) {
    return WF_STARTS_WITH(bytes, length, "GIF87a") || WF_STARTS_WITH(bytes, length, "GIF89a");
}

void wf_read_gif_header(wf_stream *stream, wf_header *out) { wf_gif_survey(stream, out, NULL, NULL); }

int wf_gif_animation_budget(wf_stream *stream, const wf_decode_options *options, wf_decode_outcome *out) {
    /* A stream of its own over the same source, from its start: `stream` stays where it is. */
    wf_stream *own = malloc(sizeof *own);
    if (!own) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        return -1;
    }
    if (stream->fd >= 0) wf_stream_init_fd(own, stream->fd);
    else wf_stream_init_memory(own, stream->memory, stream->memory_length);
    wf_header header = {.orientation = 1, .frames = 1};
    uint64_t frame_pixels = 0;
    int restores = 0;
    wf_gif_survey(own, &header, &frame_pixels, &restores);
    free(own);
    if (header.status != WF_OK) {
        /* What the header refuses (more than WF_MAX_FRAMES frames, damage before the first frame). */
        wf_outcome_fail(out, header.status == WF_ERR_UNSUPPORTED ? WF_DERIVE_ERR_TOO_LARGE
                             : header.status == WF_ERR_TRUNCATED ? WF_DERIVE_ERR_TRUNCATED : WF_DERIVE_ERR_CORRUPT,
                        "%s", header.message);
        return -1;
    }
    if (wf_animation_within_budget("GIF", header.width, header.height, header.frames, frame_pixels, out) != 0) return -1;
    return wf_animation_canvas_fits("GIF", header.width, header.height, restores ? 2 : 1, 0, options ? options->max_memory : 0,
                                    out);
}

void wf_gif_survey(wf_stream *stream, wf_header *out, uint64_t *frame_pixels, int *restores) {
    walk w = {.stream = stream, .out = out};
    uint8_t screen[13];
    size_t got = wf_stream_read(stream, screen, sizeof screen);
    if (got < sizeof screen) {
        wf_fail(out, WF_ERR_TRUNCATED, "truncated GIF: the file ends inside its logical screen descriptor");
        return;
    }
    out->width = (uint32_t)screen[6] | (uint32_t)screen[7] << 8;
    out->height = (uint32_t)screen[8] | (uint32_t)screen[9] << 8;
    /* Browsers fall back to the first frame's size here; a screen of no size is refused instead, like an image
     * of no size in any other format. */
    if (out->width == 0 || out->height == 0) {
        wf_fail(out, WF_ERR_CORRUPT, "corrupt GIF: a logical screen of %u×%u", out->width, out->height);
        return;
    }
    if (screen[10] & 0x80) {
        size_t table = 3u << ((screen[10] & 7) + 1);
        /* Read, not skipped: the table is small and a cut inside it must be seen. */
        uint8_t colours[768];
        if (wf_stream_read(stream, colours, table) < table) {
            wf_fail(out, WF_ERR_TRUNCATED, "truncated GIF: the file ends inside its global colour table");
            return;
        }
    }
    walk_blocks(&w);
    if (out->status != WF_OK) return;
    if (frame_pixels) *frame_pixels = w.frame_pixels;
    if (restores) *restores = w.restores;
    out->frames = w.frames;
    out->animated = w.frames > 1;
    out->alpha = w.transparent;
    out->components = w.transparent ? 4 : 3;
    out->progressive = w.interlaced;
    out->bit_depth = 8;
    out->orientation = 1;
}
