/* The profile cap (icc_cap.h). Left out rather than replaced by an sRGB profile: browsers show an image
 * without a profile as sRGB, so the pixels look the same either way, and no bytes are added to every image
 * for it. */
#include "icc_cap.h"

#include <stdio.h>

int wf_icc_fits(uint64_t length, wf_decode_outcome *out) {
    if (length != 0 && length <= WF_ICC_MAX_LENGTH) return 1;
    out->warnings++;
    char size[48] = "";
    if (length != 0) snprintf(size, sizeof size, "%.1f MiB ", (double)length / (1u << 20));
    snprintf(out->message, sizeof out->message,
             "its %sICC colour profile is over the %u MiB limit: left out of its images, which show as sRGB", size,
             WF_ICC_MAX_LENGTH >> 20);
    return 0;
}
