/* Internal: ICC profiles made from colour descriptions (CICP / nclx numbers). */
#ifndef WF_ICC_PROFILE_H
#define WF_ICC_PROFILE_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    WF_ICC_CURVE_SRGB,  /* IEC 61966-2-1 */
    WF_ICC_CURVE_GAMMA  /* a pure power law, `gamma` */
} wf_icc_curve;

/* The RGB → XYZ matrix (row-major, Y of white = 1) of `primaries`: red x, y, green x, y, blue x, y, white
 * x, y. 0 when they describe no triangle. */
int wf_rgb_to_xyz(const double primaries[8], double out[9]);

/* A malloc'd ICC v2 RGB display profile for `primaries` with the given curve, and its `length`; NULL when
 * the primaries make no sense or memory runs out. */
uint8_t *wf_icc_rgb_profile(const double primaries[8], wf_icc_curve curve, double gamma, const char *description,
                            size_t *length);

#endif
