/*
 * GIF decoding for tiles: the first frame composed onto the logical screen (gif_frames.c), so a frame smaller
 * than the screen, or offset, or with transparent pixels, becomes a still of the screen's size with the rest
 * transparent, as a browser paints it before the animation moves on: RGBA, whose alpha derive.c drops when
 * it turns out all opaque. A first frame that is the whole picture goes to the sink as RGB rows instead.
 */
#include <string.h>

#include "animation.h"
#include "decode.h"
#include "gif_format.h"
#include "gif_support.h"

void wf_decode_gif(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out) {
    wf_frames frames;
    if (wf_gif_frames_open(stream, options, &frames, out) != 0) return;
    if (wf_gif_plain_first(&frames, sink, out)) {
        frames.close(frames.state);
        return;
    }
    const uint8_t *rgba = NULL;
    int32_t duration = 0;
    int got = frames.next(frames.state, &rgba, &duration, out);
    if (got == 1) {
        char message[200] = "";
        wf_derive_status status = sink->begin(sink->self, frames.width, frames.height, 4, message, sizeof message);
        if (status != WF_DERIVE_OK) {
            wf_outcome_fail(out, status, "%s", message);
        } else {
            size_t row = (size_t)frames.width * 4;
            for (uint32_t y = 0; y < frames.height; y++) {
                memcpy(sink->row(sink->self), rgba + y * row, row);
                sink->commit(sink->self);
            }
        }
    }
    frames.close(frames.state);
}
