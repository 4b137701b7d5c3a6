/* WebP frames: not yet (a stub until its decoder lands). */
#include "animation.h"

int wf_webp_frames_open(wf_stream *stream, const wf_decode_options *options, wf_frames *frames, wf_decode_outcome *out) {
    (void)stream;
    (void)options;
    (void)frames;
    wf_outcome_fail(out, WF_DERIVE_ERR_UNSUPPORTED, "WebP frames are not decoded yet");
    return -1;
}
