/* Animated WebP output: not yet (a stub until it lands). */
#include <stdio.h>

#include "derive.h"

void wf_write_animated_webp(const char *source, const wf_header *header, const wf_derive_request *request,
                            const char *output, wf_derive_result *out) {
    (void)source;
    (void)header;
    (void)request;
    (void)output;
    out->status = WF_DERIVE_ERR_UNSUPPORTED;
    snprintf(out->message, sizeof out->message, "animated WebP output is not made yet");
}
