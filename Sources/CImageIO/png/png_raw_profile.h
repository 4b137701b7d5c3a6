/* Internal: IPTC in a PNG text chunk as ImageMagick and exiftool write it (png_raw_profile.c). */
#ifndef WF_PNG_RAW_PROFILE_H
#define WF_PNG_RAW_PROFILE_H

#include <stddef.h>

#include "cimageio.h"

/* Whether a text chunk's keyword is one that holds IPTC: "Raw profile type iptc" or "... 8bim". */
int wf_is_raw_iptc_profile(const char *keyword);

/* The text of such a chunk, checked whole, then its IIM parsed into `records` (WF_RECORD_IPTC entries); a
 * profile that is refused gives one WF_RECORD_REFUSED entry. */
void wf_read_raw_iptc_profile(const char *text, size_t length, wf_metadata_field *records);

#endif
