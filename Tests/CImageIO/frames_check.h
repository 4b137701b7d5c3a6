/* For the sanitizer driver and the fuzzer: every frame of a GIF or an AVIF sequence read from bytes in memory,
 * so that disposal, clipping, libavif's track reader and the rest run under ASan and UBSan on hostile input
 * (wf_derive only ever reads the first frame). Small memory and frame limits keep each input quick. Returns the frames read, or -1. */
#ifndef WF_FRAMES_CHECK_H
#define WF_FRAMES_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "animation.h"
#include "formats.h"

static inline long exercise_frames(const unsigned char *bytes, size_t length, long max_frames) {
    wf_format format = wf_sniff(bytes, length);
    if (format != WF_FORMAT_GIF && format != WF_FORMAT_AVIF) return 0;
    wf_stream *stream = malloc(sizeof *stream);
    if (!stream) return -1;
    wf_stream_init_memory(stream, bytes, length);
    wf_decode_options options = {.scale_denom = 1, .max_memory = 16u << 20};
    wf_decode_outcome out = {.status = WF_DERIVE_OK};
    wf_frames frames;
    long count = -1;
    if (wf_format_entry_of(format)->open_frames(stream, &options, &frames, &out) == 0) {
        const uint8_t *rgba;
        int32_t duration;
        count = 0;
        while (count < max_frames && frames.next(frames.state, &rgba, &duration, &out) == 1) {
            if (duration <= 0) __builtin_trap();
            volatile uint8_t last = rgba[(size_t)frames.width * frames.height * 4 - 1]; /* ASan checks the canvas */
            (void)last;
            count++;
        }
        frames.close(frames.state);
    }
    if (out.status != WF_DERIVE_OK && (out.message[0] == '\0' || strchr(out.message, '\n'))) __builtin_trap();
    free(stream);
    return count;
}

#endif
