/* WebP: not read yet (a stub until its reader lands). */
#include "readers.h"

void wf_read_webp_header(wf_stream *stream, wf_header *out) {
    (void)stream;
    out->status = WF_ERR_UNSUPPORTED;
}
