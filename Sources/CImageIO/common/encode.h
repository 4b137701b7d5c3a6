/* Internal: what an encoder of derived stills is given and what it says, the same for every format, so
 * derive.c calls each through the format table (formats.h). */
#ifndef WF_ENCODE_H
#define WF_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "cimageio.h"
#include "raster.h"

/* A still to write: `image` upright (planar only in a set written as JPEG, whose encoder takes the planes
 * as they are), the request's quality and AVIF speed, and the colour profile to carry. */
typedef struct {
    const wf_raster *image;
    int quality;
    int speed;
    const uint8_t *icc;
    size_t icc_length;
} wf_still;

/* What an encoder says besides its status: the warnings it adds, whether the profile went in (1 on the way
 * in when there is one; an encoder that drops it says 0), and why, when it failed. */
typedef struct {
    int warnings;
    int icc_kept;
    char message[200];
} wf_encode_note;

#endif
