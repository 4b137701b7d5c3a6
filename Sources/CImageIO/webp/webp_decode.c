/* WebP decoding: not yet (a stub until its decoder lands). */
#include "derive.h"

void wf_decode_webp(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink, wf_decode_outcome *out) {
    (void)stream;
    (void)options;
    (void)sink;
    wf_outcome_fail(out, WF_DERIVE_ERR_UNSUPPORTED, "WebP is not decoded yet");
}
