/*
 * Internal: the RIFF chunk walk every WebP path shares. It reads chunk headers (and, on request, the first
 * bytes of a payload) and seeks over everything else, so the header and metadata readers never touch image
 * data, and the decoders can count frames in a file already in memory before libwebp parses it.
 *
 * The walk stays inside the RIFF (8 + its declared size, and the file's size when known: a file shorter
 * than its RIFF says is truncated) and stops after WF_WEBP_MAX_CHUNKS chunks, so a file of a million tiny
 * chunks costs at most that many 8-byte reads.
 */
#ifndef WF_WEBP_SUPPORT_H
#define WF_WEBP_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "animation.h"
#include "stream.h"

/* Chunks walked at most: every frame of the largest animation Waterfall reads, and room for the rest. */
#define WF_WEBP_MAX_CHUNKS (WF_MAX_FRAMES + 1024u)

/* The whole file is read into memory to decode it (libwebp decodes from memory); larger files are refused. */
#define WF_WEBP_MAX_FILE_BYTES (256u << 20)

/* The VP8X flags (WebP container specification). */
enum { WF_WEBP_FLAG_ANIMATION = 0x02, WF_WEBP_FLAG_XMP = 0x04, WF_WEBP_FLAG_EXIF = 0x08, WF_WEBP_FLAG_ALPHA = 0x10,
       WF_WEBP_FLAG_ICC = 0x20 };

typedef enum {
    WF_WEBP_WALK_CHUNK = 1, /* a chunk: tag, size and offset are set */
    WF_WEBP_WALK_END = 0,   /* the RIFF ends here */
    WF_WEBP_WALK_TRUNCATED = -1,
    WF_WEBP_WALK_CORRUPT = -2,
    WF_WEBP_WALK_TOO_MANY = -3
} wf_webp_walk_status;

typedef struct {
    wf_stream *stream;
    uint64_t cursor;        /* what has been consumed from the stream */
    uint64_t next;          /* where the next chunk header starts */
    uint64_t riff_end;      /* 8 + the RIFF size */
    int64_t file_size;      /* -1 when unknown (a pipe) */
    uint32_t riff_size;
    uint32_t chunks;
    /* the current chunk */
    char tag[5];
    uint32_t size;
    uint64_t offset;        /* of its payload */
    char message[160];      /* why, after TRUNCATED, CORRUPT or TOO_MANY (without "truncated WebP: ") */
} wf_webp_walk;

/* Reads the 12-byte RIFF header. 0, or a negative status with `message` set. */
int wf_webp_walk_begin(wf_webp_walk *walk, wf_stream *stream);

/* The next chunk (its header read, its payload not). */
wf_webp_walk_status wf_webp_walk_next(wf_webp_walk *walk);

/* Copies the first `length` bytes of the current chunk's payload (length <= its size, and nothing may have
 * been read of it yet). 0, or WF_WEBP_WALK_TRUNCATED with `message` set. */
int wf_webp_walk_payload(wf_webp_walk *walk, uint8_t *destination, size_t length);

/* A chunk tag for messages: printable ASCII as is, anything else as \xNN. */
void wf_webp_describe_tag(const char *tag, char *text, size_t size);

/* What a whole file in memory holds, from the walk: the VP8X flags and canvas, frames (ANMF chunks), and where
 * the ICCP payload is. Bounded by WF_WEBP_MAX_CHUNKS; a negative status and `message` when the walk fails. */
typedef struct {
    uint32_t flags;
    uint32_t canvas_width, canvas_height;
    uint32_t frames;
    uint64_t frame_pixels; /* the ANMF frames' sizes, summed (animation.h's budget) */
    uint64_t frame_whole;  /* the most libwebp holds at full size to decode one frame: a lossless (VP8L) frame
                            * as 32-bit ARGB, a lossy one with alpha (ALPH) its alpha planes */
    const uint8_t *icc;
    size_t icc_length;
    const uint8_t *vp8l; /* a still's lossless bitstream (the VP8L chunk's payload), or NULL */
    size_t vp8l_length;
    char message[160];
} wf_webp_layout;

int wf_webp_layout_of(const uint8_t *bytes, size_t length, wf_webp_layout *layout);

/* The width libwebp's lossless decoder stores a row of `width` pixels in, from the first bytes of a VP8L
 * bitstream (`width` when they are fewer than 7): a palette of at most 16 colours (a colour-indexing transform,
 * which libwebp's encoder puts first) packs 2, 4 or 8 pixels into one 32-bit word. */
uint64_t wf_webp_lossless_row(const uint8_t *bitstream, size_t length, uint32_t width);

static inline uint32_t wf_le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static inline uint32_t wf_le24(const uint8_t *p) { return wf_le16(p) | (uint32_t)p[2] << 16; }
static inline uint32_t wf_le32(const uint8_t *p) { return wf_le24(p) | (uint32_t)p[3] << 24; }

#endif

/* ---- for the decoders (webp_decode.c, webp_frames.c) ---- */

/* The whole file in a new buffer (libwebp decodes from memory), at most WF_WEBP_MAX_FILE_BYTES; NULL with `out`
 * saying why. */
uint8_t *wf_webp_slurp(wf_stream *stream, size_t *length, wf_decode_outcome *out);

/* The layout of a file in memory as a decode failure (`out`); 0 when it was read. */
int wf_webp_layout_for_decode(const uint8_t *bytes, size_t length, wf_webp_layout *layout, wf_decode_outcome *out);

/* The ICCP chunk into `out->icc` when wanted and flagged, within the profile cap (icc_cap.h: a larger one is
 * left out with a warning). */
void wf_webp_take_icc(const wf_webp_layout *layout, const wf_decode_options *options, wf_decode_outcome *out);

/* Frames over `bytes` (a whole file), which the frames take over and free. `first_only`: only the first frame
 * will be asked for, so the whole animation's pixel budget (WF_MAX_FRAME_PIXELS) does not apply. */
int wf_webp_frames_from_memory(uint8_t *bytes, size_t length, int first_only, const wf_decode_options *options,
                               wf_frames *frames, wf_decode_outcome *out);
