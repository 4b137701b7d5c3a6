/*
 * GIF frames composed onto the logical screen as browsers compose them: the canvas starts transparent (the
 * background colour is ignored, as every current browser ignores it), each frame is drawn at its offset and
 * clipped to the screen, its transparent colour leaves the canvas as it was, and its disposal method is
 * applied before the next frame: keep it (0, 1, and the undefined 4-7), clear its rectangle to transparent
 * (2) or restore what was under it (3). Interlaced frames come out of giflib in stored row order and are
 * put back in place here. giflib decodes one row at a time, so nothing is held but the canvas.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "animation.h"
#include "gif_format.h"
#include "gif_support.h"


typedef struct {
    uint32_t left, top, width, height; /* clipped to the screen; width or height 0 when wholly outside */
} rect;

typedef struct {
    wf_gif gif;
    uint32_t width, height;
    uint8_t *canvas;         /* RGBA, width × height */
    uint8_t *previous;       /* the canvas before a frame with disposal 3 (made when first needed) */
    GifPixelType *line;      /* one stored row of colour indices */
    size_t line_capacity;
    uint32_t shown;          /* frames handed out */
    uint64_t work;           /* pixels decoded and composed so far, against WF_MAX_FRAME_PIXELS */
    uint64_t max_memory;     /* the decoder memory limit, which `previous` must fit beside the canvas */
    int disposal;            /* of the frame last shown, applied before the next one */
    rect last;
    GraphicsControlBlock control; /* of the frame to come */
    uint8_t colours[256][4];      /* the frame being drawn's colour table as RGBA (fill_colours) */
    int pending;                  /* a frame's descriptor is read and its data not yet (wf_gif_plain_first) */
    int done;
} gif_frames;

/* ---- extensions: the Graphic Control Extension (delay, disposal, transparency) and the loop count ---- */

static void reset_control(gif_frames *f) {
    f->control = (GraphicsControlBlock){.DisposalMode = DISPOSAL_UNSPECIFIED, .TransparentColor = NO_TRANSPARENT_COLOR};
}

/* NETSCAPE2.0 (or ANIMEXTS1.0) holds how many more times to play; WebP's count is of plays, 0 = forever.
 * No loop extension means play once. The same adaptation as libwebp's gif2webp. */
static int32_t loop_count(const GifByteType *block, int found) {
    if (!found) return 1;
    int loops = block[2] | block[3] << 8;
    return loops == 0 ? 0 : loops + 1;
}

/* Reads one extension; 0 or -1 with `out` set. `*loops` is set when it is a loop extension. */
static int read_extension(gif_frames *f, int32_t *loops, wf_decode_outcome *out) {
    int code = 0;
    GifByteType *block = NULL;
    if (DGifGetExtension(f->gif.gif, &code, &block) == GIF_ERROR) goto fail;
    int application = code == APPLICATION_EXT_FUNC_CODE && block && block[0] == 11 &&
                      (memcmp(block + 1, "NETSCAPE2.0", 11) == 0 || memcmp(block + 1, "ANIMEXTS1.0", 11) == 0);
    if (code == GRAPHICS_EXT_FUNC_CODE && block && block[0] == 4) DGifExtensionToGCB(4, block + 1, &f->control);
    while (block) {
        if (DGifGetExtensionNext(f->gif.gif, &block) == GIF_ERROR) goto fail;
        if (application && block && block[0] >= 3 && block[1] == 1 && loops) *loops = loop_count(block, 1);
    }
    return 0;
fail:
    wf_gif_fail(&f->gif, f->gif.gif->Error, "an extension", out);
    return -1;
}

/* ---- one frame ---- */

static rect clip(const gif_frames *f, const GifImageDesc *d) {
    rect r = {0};
    uint32_t left = (uint32_t)d->Left, top = (uint32_t)d->Top;
    if (left >= f->width || top >= f->height) return r;
    r.left = left;
    r.top = top;
    r.width = (uint32_t)d->Width < f->width - left ? (uint32_t)d->Width : f->width - left;
    r.height = (uint32_t)d->Height < f->height - top ? (uint32_t)d->Height : f->height - top;
    return r;
}

/* The display row of the `index`th stored row of an interlaced frame: passes of rows 0, 8, …; 4, 12, …;
 * 2, 6, …; 1, 3, …. */
static uint32_t interlaced_row(uint32_t index, uint32_t height) {
    static const uint32_t start[] = {0, 4, 2, 1}, step[] = {8, 8, 4, 2};
    for (int pass = 0; pass < 4; pass++) {
        uint32_t rows = height > start[pass] ? (height - start[pass] + step[pass] - 1) / step[pass] : 0;
        if (index < rows) return start[pass] + index * step[pass];
        index -= rows;
    }
    return height; /* not reached */
}

static void apply_disposal(gif_frames *f) {
    rect r = f->last;
    if (f->disposal == DISPOSE_BACKGROUND) {
        for (uint32_t y = r.top; y < r.top + r.height; y++)
            memset(f->canvas + ((size_t)y * f->width + r.left) * 4, 0, (size_t)r.width * 4);
    } else if (f->disposal == DISPOSE_PREVIOUS && f->previous) {
        for (uint32_t y = r.top; y < r.top + r.height; y++) {
            size_t at = ((size_t)y * f->width + r.left) * 4;
            memcpy(f->canvas + at, f->previous + at, (size_t)r.width * 4);
        }
    }
    f->disposal = 0;
}

/* One stored row onto the canvas. Indices past the colour table leave the canvas as it was (the specification
 * is silent; Chromium's GIFImageReader did the same). */
static void draw_row(gif_frames *f, const GifImageDesc *d, uint32_t y) {
    uint32_t canvas_y = (uint32_t)d->Top + y;
    if (canvas_y >= f->height || (uint32_t)d->Left >= f->width) return;
    uint32_t count = (uint32_t)d->Width < f->width - (uint32_t)d->Left ? (uint32_t)d->Width : f->width - (uint32_t)d->Left;
    uint8_t *to = f->canvas + ((size_t)canvas_y * f->width + (uint32_t)d->Left) * 4;
    for (uint32_t x = 0; x < count; x++, to += 4) {
        const uint8_t *colour = f->colours[f->line[x]];
        if (colour[3]) memcpy(to, colour, 4); /* 0: transparent, or past the table: the canvas shows through */
    }
}

/* The frame's colours as RGBA, one per index: alpha 0 marks the transparent index and those past the table. */
static void fill_colours(gif_frames *f, const ColorMapObject *map) {
    memset(f->colours, 0, sizeof f->colours);
    for (int index = 0; index < map->ColorCount && index < 256; index++) {
        if (index == f->control.TransparentColor) continue;
        const GifColorType *c = &map->Colors[index];
        f->colours[index][0] = c->Red;
        f->colours[index][1] = c->Green;
        f->colours[index][2] = c->Blue;
        f->colours[index][3] = 255;
    }
}

/* Skips a frame's data undecoded (a frame with no pixels). */
static int skip_data(gif_frames *f) {
    int size;
    GifByteType *block;
    if (DGifGetCode(f->gif.gif, &size, &block) == GIF_ERROR) return -1;
    while (block)
        if (DGifGetCodeNext(f->gif.gif, &block) == GIF_ERROR) return -1;
    return 0;
}

/* Refuses what would cost too much before decoding it: frames, and pixels decoded plus composed. An animated
 * view is budgeted from the blocks before it opens (wf_gif_animation_budget); this is the backstop for
 * every other reader of the frames, frame by frame. */
static int within_budget(gif_frames *f, const GifImageDesc *d, wf_decode_outcome *out) {
    if (f->shown >= WF_MAX_FRAMES) {
        wf_outcome_fail(out, WF_DERIVE_ERR_TOO_LARGE, "GIF with more than %u frames", WF_MAX_FRAMES);
        return -1;
    }
    f->work += (uint64_t)d->Width * (uint64_t)d->Height + (uint64_t)f->width * f->height;
    if (f->work > WF_MAX_FRAME_PIXELS) {
        wf_outcome_fail(out, WF_DERIVE_ERR_TOO_LARGE, "GIF frames of over %llu pixels in all (frame %u is %d×%d)",
                        (unsigned long long)WF_MAX_FRAME_PIXELS, f->shown + 1, d->Width, d->Height);
        return -1;
    }
    return 0;
}

static int grow_line(gif_frames *f, size_t width, wf_decode_outcome *out) {
    if (width <= f->line_capacity) return 0;
    GifPixelType *line = realloc(f->line, width);
    if (!line) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        return -1;
    }
    f->line = line;
    f->line_capacity = width;
    return 0;
}

/* The frame's next stored row of colour indices into `line`; 0, or -1 with `out` set (naming `what`). */
static int read_line(gif_frames *f, GifPixelType *line, int width, const char *what, wf_decode_outcome *out) {
    if (DGifGetLine(f->gif.gif, line, width) != GIF_ERROR) return 0;
    wf_gif_fail(&f->gif, f->gif.gif->Error, what, out);
    return -1;
}

/* Decodes the frame whose descriptor giflib has just read onto the canvas; 0, or -1 with `out` set. */
static int decode_frame(gif_frames *f, wf_decode_outcome *out) {
    GifImageDesc *d = &f->gif.gif->Image;
    char what[48];
    snprintf(what, sizeof what, "frame %u", f->shown + 1);
    ColorMapObject *map = d->ColorMap ? d->ColorMap : f->gif.gif->SColorMap;
    if (!map) {
        wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt GIF: %s has no colour table", what);
        return -1;
    }
    if (within_budget(f, d, out) != 0 || grow_line(f, (size_t)d->Width, out) != 0) return -1;
    f->last = clip(f, d);
    f->disposal = f->control.DisposalMode;
    /* The canvas starts transparent: restoring what was under the first frame is clearing it, no copy. */
    if (f->disposal == DISPOSE_PREVIOUS && f->shown == 0) f->disposal = DISPOSE_BACKGROUND;
    if (f->disposal == DISPOSE_PREVIOUS) {
        /* A second canvas (an animated view's was budgeted from the blocks: this is the backstop). */
        if (!f->previous && wf_animation_canvas_fits("GIF", f->width, f->height, 2, 0, f->max_memory, out) != 0) return -1;
        if (!f->previous && !(f->previous = malloc((size_t)f->width * f->height * 4))) {
            wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
            return -1;
        }
        memcpy(f->previous, f->canvas, (size_t)f->width * f->height * 4);
    }
    uint32_t height = (uint32_t)d->Height;
    if (d->Width == 0 || height == 0) {
        if (skip_data(f) == 0) return 0;
        wf_gif_fail(&f->gif, f->gif.gif->Error, what, out);
        return -1;
    }
    fill_colours(f, map);
    for (uint32_t index = 0; index < height; index++) {
        if (read_line(f, f->line, d->Width, what, out) != 0) return -1;
        draw_row(f, d, d->Interlace ? interlaced_row(index, height) : index);
    }
    return 0;
}

/* 0 and a delay of 0 or 1 centisecond shown as 100 ms, as Chromium, Firefox and Safari show them. */
static int32_t duration_ms(const GraphicsControlBlock *control) {
    return control->DelayTime <= 1 ? 100 : control->DelayTime * 10;
}

/* ---- the wf_frames vtable ---- */

/* Reads the records up to the next frame's descriptor: 1 when one is read, 0 at the end (the trailer, or
 * the file cut after a frame, which ends the animation as browsers play it), -1 with `out` set. */
static int advance(gif_frames *f, wf_decode_outcome *out) {
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(f->gif.gif, &type) == GIF_ERROR) {
            if (f->gif.ended && f->shown > 0) return 0;
            wf_gif_fail(&f->gif, f->gif.gif->Error, f->shown ? "the blocks after a frame" : "the blocks before its first frame", out);
            return -1;
        }
        if (type == TERMINATE_RECORD_TYPE) return 0;
        if (type == EXTENSION_RECORD_TYPE) {
            if (read_extension(f, NULL, out) != 0) return -1;
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(f->gif.gif) == GIF_ERROR) {
            wf_gif_fail(&f->gif, f->gif.gif->Error, f->shown ? "a frame's descriptor" : "its first frame", out);
            return -1;
        }
        return 1;
    }
}

/* No frame is left: 0, or -1 when there never was one. */
static int finish(gif_frames *f, wf_decode_outcome *out) {
    f->done = 1;
    if (f->shown > 0) return 0;
    wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt GIF: no image in the file");
    return -1;
}

/* The canvas, made when a frame is first drawn on it (a plain first frame as a still never needs it). */
static int ensure_canvas(gif_frames *f, wf_decode_outcome *out) {
    if (f->canvas || (f->canvas = calloc((size_t)f->width * f->height, 4))) return 0;
    wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
    return -1;
}

static int next(void *state, const uint8_t **rgba, int32_t *duration, wf_decode_outcome *out) {
    gif_frames *f = state;
    if (f->done) return 0;
    apply_disposal(f);
    int found = f->pending ? 1 : advance(f, out);
    f->pending = 0;
    if (found <= 0) return found < 0 ? -1 : finish(f, out);
    if (ensure_canvas(f, out) != 0) return -1;
    if (decode_frame(f, out) != 0) {
        /* Cut inside a later frame: the animation ends at the last whole frame, as the header counts it. */
        if (f->gif.ended && f->shown > 0 && out->status == WF_DERIVE_ERR_TRUNCATED) {
            *out = (wf_decode_outcome){.status = WF_DERIVE_OK, .warnings = out->warnings + 1};
            return finish(f, out);
        }
        return -1;
    }
    f->shown++;
    *rgba = f->canvas;
    *duration = duration_ms(&f->control);
    reset_control(f);
    return 1;
}

int wf_gif_plain_first(wf_frames *frames, wf_pixel_sink *sink, wf_decode_outcome *out) {
    gif_frames *f = frames->state;
    int found = advance(f, out);
    if (found <= 0) {
        if (found == 0) finish(f, out);
        return 1;
    }
    const GifImageDesc *d = &f->gif.gif->Image;
    const ColorMapObject *map = d->ColorMap ? d->ColorMap : f->gif.gif->SColorMap;
    if (d->Left != 0 || d->Top != 0 || (uint32_t)d->Width != f->width || (uint32_t)d->Height != f->height ||
        f->control.TransparentColor != NO_TRANSPARENT_COLOR || !map) {
        f->pending = 1; /* `next` composes it */
        return 0;
    }
    if (within_budget(f, d, out) != 0 || grow_line(f, f->width, out) != 0) return 1;
    /* An index past a short colour table shows the (transparent) canvas: such a frame goes as RGBA. */
    const int channels = map->ColorCount >= 256 ? 3 : 4;
    char message[200] = "";
    wf_derive_status status = sink->begin(sink->self, f->width, f->height, channels, message, sizeof message);
    if (status != WF_DERIVE_OK) {
        wf_outcome_fail(out, status, "%s", message);
        return 1;
    }
    fill_colours(f, map);
    /* Interlaced rows come in four passes: their indices are kept (a byte a pixel) until the last pass. */
    GifPixelType *indices = d->Interlace ? malloc((size_t)f->width * f->height) : NULL;
    if (d->Interlace && !indices) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        return 1;
    }
    for (uint32_t index = 0; index < f->height && indices; index++) {
        GifPixelType *line = indices + (size_t)interlaced_row(index, f->height) * f->width;
        if (read_line(f, line, (int)f->width, "frame 1", out) != 0) {
            free(indices);
            return 1;
        }
    }
    for (uint32_t y = 0; y < f->height; y++) {
        const GifPixelType *line = indices ? indices + (size_t)y * f->width : f->line;
        if (!indices && read_line(f, f->line, (int)f->width, "frame 1", out) != 0) return 1;
        uint8_t *row = sink->row(sink->self);
        if (channels == 3)
            for (uint32_t x = 0; x < f->width; x++) memcpy(row + 3 * (size_t)x, f->colours[line[x]], 3);
        else
            for (uint32_t x = 0; x < f->width; x++) memcpy(row + 4 * (size_t)x, f->colours[line[x]], 4);
        sink->commit(sink->self);
    }
    free(indices);
    f->shown = 1;
    return 1;
}

static void close_frames(void *state) {
    gif_frames *f = state;
    if (!f) return;
    wf_gif_close(&f->gif);
    free(f->canvas);
    free(f->previous);
    free(f->line);
    free(f);
}

/* Reads the extensions before the first frame, for the loop count (it comes first in practice: browsers
 * read it from there too). The first image descriptor is left for `next`. */
static int read_preamble(gif_frames *f, int32_t *loops, wf_decode_outcome *out) {
    wf_stream *stream = f->gif.stream;
    for (;;) {
        const uint8_t *bytes;
        if (wf_stream_peek(stream, &bytes) == 0 || bytes[0] != 0x21) return 0;
        GifRecordType type;
        if (DGifGetRecordType(f->gif.gif, &type) == GIF_ERROR) {
            wf_gif_fail(&f->gif, f->gif.gif->Error, "the blocks before its first frame", out);
            return -1;
        }
        if (read_extension(f, loops, out) != 0) return -1;
    }
}

int wf_gif_frames_open(wf_stream *stream, const wf_decode_options *options, wf_frames *frames, wf_decode_outcome *out) {
    memset(frames, 0, sizeof *frames);
    gif_frames *f = calloc(1, sizeof *f);
    if (!f) {
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        return -1;
    }
    reset_control(f);
    if (wf_gif_open(&f->gif, stream, out) != 0) {
        close_frames(f);
        return -1;
    }
    f->max_memory = options ? options->max_memory : 0;
    f->width = (uint32_t)f->gif.gif->SWidth;
    f->height = (uint32_t)f->gif.gif->SHeight;
    int refused = 1;
    if (f->width == 0 || f->height == 0) {
        wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt GIF: a logical screen of %u×%u", f->width, f->height);
    } else if (wf_animation_canvas_fits("GIF", f->width, f->height, 1, 0, f->max_memory, out) == 0) {
        refused = 0; /* the canvas is made when a frame is first composed */
    }
    int32_t loops = 1;
    if (refused || read_preamble(f, &loops, out) != 0) {
        close_frames(f);
        return -1;
    }
    *frames = (wf_frames){.state = f, .width = f->width, .height = f->height, .loop_count = loops,
                          .next = next, .close = close_frames};
    return 0;
}
