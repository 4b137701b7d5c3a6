/* WebP metadata: not read yet (a stub until its reader lands). */
#include "metadata_readers.h"

void wf_read_webp_metadata(wf_stream *stream, wf_metadata *out) {
    (void)stream;
    (void)out;
}
