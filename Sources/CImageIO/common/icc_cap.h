/* Internal: the one limit on colour profiles carried into derived images, and the warning when one is left
 * out. */
#ifndef WF_ICC_CAP_H
#define WF_ICC_CAP_H

#include <stdint.h>

#include "decode.h"

/* A profile larger than this is left out of derived images, and no decoder buffers more. A camera's or a
 * display's profile is 0.5-4 KB (sRGB 3 KB, Display P3 0.5 KB), an RGB profile built on lookup tables (a
 * scanner's) tens to a few hundred KB; the multi-megabyte ones are CMYK press profiles, which describe ink,
 * not the RGB a derived image holds (a CMYK JPEG's profile is dropped anyway). Past 1 MiB a profile would
 * outweigh the images it rides on: a photo has six of them, a 500-pixel tile weighs about 50 KB. */
#define WF_ICC_MAX_LENGTH (1u << 20)

/* Whether a decoder may keep a profile of `length` bytes (0: its size is unknown, only that it is over the
 * limit): 1 within WF_ICC_MAX_LENGTH; else 0, and `out` notes the profile left out: a warning, and the
 * one-line reason in `out->message` (unused while the decode succeeds), which wf_derive hands on to its
 * results, and the build prints with the file's name. Every decoder asks before it copies a profile. */
int wf_icc_fits(uint64_t length, wf_decode_outcome *out);

#endif
