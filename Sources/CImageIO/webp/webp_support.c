#include "webp_support.h"
#include "icc_cap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>

/* libwebp's own bound on a chunk's payload (MAX_CHUNK_PAYLOAD in its format_constants.h). */
static const uint32_t max_chunk_payload = ~0u - 8u - 1u;

int wf_webp_walk_begin(wf_webp_walk *walk, wf_stream *stream) {
    memset(walk, 0, sizeof *walk);
    walk->stream = stream;
    walk->file_size = wf_stream_size(stream);
    uint8_t header[12];
    size_t n = wf_stream_read(stream, header, sizeof header);
    walk->cursor = n;
    if (n < sizeof header) {
        snprintf(walk->message, sizeof walk->message, "the file ends after %zu bytes, inside the RIFF header", n);
        return WF_WEBP_WALK_TRUNCATED;
    }
    walk->riff_size = wf_le32(header + 4);
    walk->riff_end = 8 + (uint64_t)walk->riff_size;
    walk->next = sizeof header;
    /* "WEBP" and at least one chunk header. */
    if (walk->riff_size < 12 || walk->riff_size > max_chunk_payload) {
        snprintf(walk->message, sizeof walk->message, "the RIFF size (%u) is not one a WebP can have", walk->riff_size);
        return WF_WEBP_WALK_CORRUPT;
    }
    /* libwebp refuses to decode a file shorter than its RIFF says; saying so here costs nothing (one fstat). */
    if (walk->file_size >= 0 && walk->riff_end > (uint64_t)walk->file_size) {
        snprintf(walk->message, sizeof walk->message, "the file ends after %lld bytes, its RIFF header says %llu",
                 (long long)walk->file_size, (unsigned long long)walk->riff_end);
        return WF_WEBP_WALK_TRUNCATED;
    }
    return 0;
}

wf_webp_walk_status wf_webp_walk_next(wf_webp_walk *walk) {
    /* Fewer than 8 bytes left in the RIFF (a last chunk's missing padding byte, say): the end, as for libwebp. */
    if (walk->next + 8 > walk->riff_end) return WF_WEBP_WALK_END;
    if (walk->chunks >= WF_WEBP_MAX_CHUNKS) {
        snprintf(walk->message, sizeof walk->message, "more than %u chunks (Waterfall reads at most %u)",
                 WF_WEBP_MAX_CHUNKS, WF_WEBP_MAX_CHUNKS);
        return WF_WEBP_WALK_TOO_MANY;
    }
    wf_stream_skip(walk->stream, walk->next - walk->cursor);
    walk->cursor = walk->next;
    uint8_t header[8];
    size_t n = wf_stream_read(walk->stream, header, sizeof header);
    walk->cursor += n;
    if (n < sizeof header) {
        snprintf(walk->message, sizeof walk->message, "the file ends after %llu bytes, inside a chunk header",
                 (unsigned long long)walk->cursor);
        return WF_WEBP_WALK_TRUNCATED;
    }
    memcpy(walk->tag, header, 4);
    walk->tag[4] = '\0';
    walk->size = wf_le32(header + 4);
    walk->offset = walk->next + 8;
    walk->chunks++;
    if (walk->offset + walk->size > walk->riff_end) {
        char tag[24];
        wf_webp_describe_tag(walk->tag, tag, sizeof tag);
        snprintf(walk->message, sizeof walk->message, "the %s chunk at offset %llu (%u bytes) runs past the RIFF's end (%llu)",
                 tag, (unsigned long long)walk->next, walk->size, (unsigned long long)walk->riff_end);
        return WF_WEBP_WALK_CORRUPT;
    }
    walk->next = walk->offset + walk->size + (walk->size & 1); /* payloads are padded to an even size */
    return WF_WEBP_WALK_CHUNK;
}

int wf_webp_walk_payload(wf_webp_walk *walk, uint8_t *destination, size_t length) {
    size_t n = wf_stream_read(walk->stream, destination, length);
    walk->cursor += n;
    if (n < length) {
        char tag[24];
        wf_webp_describe_tag(walk->tag, tag, sizeof tag);
        snprintf(walk->message, sizeof walk->message, "the file ends after %llu bytes, inside the %s chunk",
                 (unsigned long long)walk->cursor, tag);
        return WF_WEBP_WALK_TRUNCATED;
    }
    return 0;
}

void wf_webp_describe_tag(const char *tag, char *text, size_t size) {
    size_t used = 0;
    text[0] = '\0';
    for (int i = 0; i < 4 && used + 5 < size; i++) {
        unsigned char c = (unsigned char)tag[i];
        int n = c >= 0x20 && c < 0x7F ? snprintf(text + used, size - used, "%c", c)
                                      : snprintf(text + used, size - used, "\\x%02X", c);
        used += (size_t)n;
    }
    while (used > 0 && text[used - 1] == ' ') text[--used] = '\0'; /* "VP8 " reads as VP8 */
}

uint64_t wf_webp_lossless_row(const uint8_t *bitstream, size_t length, uint32_t width) {
    /* The 5-byte header, then: a transform follows (1 bit), its type (2 bits: 3 is colour indexing), the
     * colours less one (8 bits). */
    if (!bitstream || length < 7) return width;
    uint32_t bits = (uint32_t)bitstream[5] | (uint32_t)bitstream[6] << 8;
    if (!(bits & 1) || ((bits >> 1) & 3) != 3) return width;
    uint32_t colours = ((bits >> 3) & 0xFF) + 1;
    uint32_t shift = colours <= 2 ? 3 : colours <= 4 ? 2 : colours <= 16 ? 1 : 0;
    return ((uint64_t)width + (1u << shift) - 1) >> shift;
}

/* ---- a whole file in memory ---- */

static int layout_fail(wf_webp_layout *layout, const wf_webp_walk *walk, int status) {
    snprintf(layout->message, sizeof layout->message, "%s", walk->message);
    return status;
}

int wf_webp_layout_of(const uint8_t *bytes, size_t length, wf_webp_layout *layout) {
    memset(layout, 0, sizeof *layout);
    wf_stream stream;
    wf_stream_init_memory(&stream, bytes, length);
    wf_webp_walk walk;
    int status = wf_webp_walk_begin(&walk, &stream);
    if (status != 0) return layout_fail(layout, &walk, status);
    status = wf_webp_walk_next(&walk);
    if (status != WF_WEBP_WALK_CHUNK) {
        if (status == WF_WEBP_WALK_END) snprintf(walk.message, sizeof walk.message, "no chunk after the RIFF header");
        return layout_fail(layout, &walk, status == WF_WEBP_WALK_END ? WF_WEBP_WALK_CORRUPT : status);
    }
    if (memcmp(walk.tag, "VP8X", 4) != 0) {
        /* A simple file: one image, its size in the bitstream. */
        int width = 0, height = 0;
        if (!WebPGetInfo(bytes, length, &width, &height)) {
            snprintf(layout->message, sizeof layout->message, "invalid bitstream header");
            return WF_WEBP_WALK_CORRUPT;
        }
        layout->canvas_width = (uint32_t)width;
        layout->canvas_height = (uint32_t)height;
        layout->frames = 1;
        if (memcmp(walk.tag, "VP8L", 4) == 0) {
            layout->vp8l = bytes + walk.offset;
            layout->vp8l_length = walk.size;
        }
        return 0;
    }
    uint8_t vp8x[10];
    if (walk.size < sizeof vp8x) {
        snprintf(layout->message, sizeof layout->message, "the VP8X chunk is %u bytes, not 10", walk.size);
        return WF_WEBP_WALK_CORRUPT;
    }
    if ((status = wf_webp_walk_payload(&walk, vp8x, sizeof vp8x)) != 0) return layout_fail(layout, &walk, status);
    layout->flags = vp8x[0];
    layout->canvas_width = wf_le24(vp8x + 4) + 1;
    layout->canvas_height = wf_le24(vp8x + 7) + 1;
    while ((status = wf_webp_walk_next(&walk)) == WF_WEBP_WALK_CHUNK) {
        if (memcmp(walk.tag, "ANMF", 4) == 0) {
            layout->frames++;
            /* x, y, width - 1, height - 1 (24 bits each), duration, flags; then the frame's first chunk: its
             * header, and the start of its bitstream */
            uint8_t frame[31];
            size_t got = walk.size >= sizeof frame ? sizeof frame : walk.size >= 20 ? 20 : 12;
            if (walk.size >= 12 && wf_webp_walk_payload(&walk, frame, got) == 0) {
                uint32_t width = wf_le24(frame + 6) + 1, height = wf_le24(frame + 9) + 1;
                layout->frame_pixels += (uint64_t)width * height;
                uint64_t whole = 0;
                if (got >= 20 && memcmp(frame + 16, "VP8L", 4) == 0)
                    whole = wf_webp_lossless_row(got == sizeof frame ? frame + 24 : NULL, 7, width) * height * 4;
                else if (got >= 20 && memcmp(frame + 16, "ALPH", 4) == 0)
                    whole = (uint64_t)width * height * 2;
                if (whole > layout->frame_whole) layout->frame_whole = whole;
            }
        } else if (memcmp(walk.tag, "ICCP", 4) == 0 && layout->icc == NULL) {
            layout->icc = bytes + walk.offset; /* inside `bytes`: the walk checked the RIFF fits the buffer */
            layout->icc_length = walk.size;
        } else if (memcmp(walk.tag, "VP8L", 4) == 0 && layout->vp8l == NULL) {
            layout->vp8l = bytes + walk.offset;
            layout->vp8l_length = walk.size;
        }
    }
    if (status != WF_WEBP_WALK_END) return layout_fail(layout, &walk, status);
    if (!(layout->flags & WF_WEBP_FLAG_ANIMATION)) layout->frames = 1;
    return 0;
}

/* ---- for the decoders ---- */

uint8_t *wf_webp_slurp(wf_stream *stream, size_t *length, wf_decode_outcome *out) {
    uint8_t *bytes = wf_stream_slurp(stream, WF_WEBP_MAX_FILE_BYTES, length);
    if (bytes) return bytes;
    if (stream->read_errno != 0) wf_outcome_fail(out, WF_DERIVE_ERR_READ, "cannot read the file");
    else if (*length > WF_WEBP_MAX_FILE_BYTES)
        wf_outcome_fail(out, WF_DERIVE_ERR_TOO_LARGE, "the file is %zu bytes, over the %u-byte limit for a WebP", *length,
                        WF_WEBP_MAX_FILE_BYTES);
    else wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory for a %zu-byte file", *length);
    return NULL;
}

int wf_webp_layout_for_decode(const uint8_t *bytes, size_t length, wf_webp_layout *layout, wf_decode_outcome *out) {
    int status = wf_webp_layout_of(bytes, length, layout);
    if (status == 0) return 0;
    if (status == WF_WEBP_WALK_TRUNCATED) wf_outcome_fail(out, WF_DERIVE_ERR_TRUNCATED, "truncated WebP: %s", layout->message);
    else if (status == WF_WEBP_WALK_TOO_MANY) wf_outcome_fail(out, WF_DERIVE_ERR_TOO_LARGE, "WebP with %s", layout->message);
    else wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt WebP: %s", layout->message);
    return -1;
}

void wf_webp_take_icc(const wf_webp_layout *layout, const wf_decode_options *options, wf_decode_outcome *out) {
    /* As browsers do: the profile counts only when VP8X says there is one. */
    if (!options->want_icc || !(layout->flags & WF_WEBP_FLAG_ICC) || layout->icc == NULL || layout->icc_length == 0) return;
    if (!wf_icc_fits(layout->icc_length, out)) return;
    out->icc = malloc(layout->icc_length);
    if (!out->icc) {
        out->warnings++;
        return;
    }
    memcpy(out->icc, layout->icc, layout->icc_length);
    out->icc_length = layout->icc_length;
}
