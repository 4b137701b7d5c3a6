/* For the sanitizer driver and the fuzzer: the pixels of the formats whose decoders are Waterfall's own (BMP)
 * or sit on a library in a way nothing else fuzzes (TIFF through libtiff's RGBA route), decoded from bytes in memory
 * through the format table, so that the codecs, the band loop and the conversions run under ASan and UBSan
 * on hostile input. Small pixel and memory limits keep each input quick. Returns 1 when an image was
 * decoded, 0 when none was (refused, or not such a format). */
#ifndef WF_DECODE_CHECK_H
#define WF_DECODE_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "formats.h"

typedef struct {
    uint8_t *row;
    size_t row_bytes;
    uint32_t rows;
} check_sink;

static wf_derive_status check_begin(void *self, uint32_t width, uint32_t height, int channels, char *message, size_t size) {
    (void)message, (void)size, (void)height;
    check_sink *s = self;
    if (channels < 1 || channels > 4) __builtin_trap();
    s->row_bytes = (size_t)width * (size_t)channels;
    s->row = malloc(s->row_bytes);
    return s->row ? WF_DERIVE_OK : WF_DERIVE_ERR_LIMIT;
}

static uint8_t *check_row(void *self) { return ((check_sink *)self)->row; }

static void check_commit(void *self) {
    check_sink *s = self;
    volatile uint8_t last = s->row[s->row_bytes - 1]; /* ASan checks the row the decoder filled */
    (void)last;
    s->rows++;
}

static inline int exercise_decode(const unsigned char *bytes, size_t length) {
    wf_format format = wf_sniff(bytes, length);
    if (format != WF_FORMAT_TIFF && format != WF_FORMAT_BMP) return 0;
    wf_header header;
    wf_read_header_memory(bytes, length, &header);
    if (header.status != WF_OK || (uint64_t)header.width * header.height > (1u << 22)) return 0;
    wf_stream *stream = malloc(sizeof *stream);
    if (!stream) return 0;
    wf_stream_init_memory(stream, bytes, length);
    check_sink sink = {0};
    wf_pixel_sink callbacks = {.begin = check_begin, .row = check_row, .commit = check_commit, .self = &sink};
    wf_decode_options options = {.scale_denom = 1, .max_memory = 64u << 20, .want_icc = 1};
    wf_decode_outcome out = {.status = WF_DERIVE_OK};
    wf_format_entry_of(format)->decode(stream, &options, &callbacks, &out);
    int decoded = out.status == WF_DERIVE_OK;
    if (decoded && sink.rows != header.height) __builtin_trap(); /* every stored row, once */
    if (!decoded && (out.message[0] == '\0' || strchr(out.message, '\n'))) __builtin_trap();
    free(out.icc);
    free(sink.row);
    free(stream);
    return decoded;
}

#endif
