/* Internal: IPTC and XMP in a PNG text chunk as ImageMagick and exiftool write them (png_raw_profile.c). */
#ifndef WF_PNG_RAW_PROFILE_H
#define WF_PNG_RAW_PROFILE_H

#include <stddef.h>

#include "cimageio.h"

/* What a text chunk's keyword holds: WF_RECORD_IPTC for "Raw profile type iptc" or "... 8bim",
 * WF_RECORD_XMP for "Raw profile type xmp", 0 for any other. */
wf_record_source wf_raw_profile_source(const char *keyword);

/* The text of such a chunk, checked whole, then parsed into `records` as `source` (the IIM, or the XMP
 * packet); a profile that is refused gives one WF_RECORD_REFUSED entry. */
void wf_read_raw_profile(const char *text, size_t length, wf_record_source source, wf_metadata_field *records);

#endif
