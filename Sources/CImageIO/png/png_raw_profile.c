/*
 * IPTC and XMP in PNG as ImageMagick and exiftool write them: a tEXt, zTXt or iTXt chunk "Raw profile type
 * iptc" (ImageMagick's older "Raw profile type 8bim" too) or "Raw profile type xmp", whose text is a newline,
 * the profile's name, a newline, its length in decimal (padded with spaces), a newline, then its bytes as hex
 * digits in lines. IPTC's bytes are an IIM stream, or Photoshop's image resources (8BIM) with the IIM in
 * resource 0x0404, as in a JPEG's APP13; XMP's are the packet.
 *
 * Checked whole before a parser sees a byte: the declared length within the parser's limit (so nothing larger
 * is allocated), every digit hex, and exactly as many bytes as declared. A profile that fails is refused with
 * the reason; the photo is read on.
 */
#include "png_raw_profile.h"
#include "metadata_readers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const uint8_t ps3_header[14] = "Photoshop 3.0"; /* what wf_read_ps3_iptc expects before 8BIM resources */

/* The IIM limit, with room for 8BIM resource headers around it (as JPEG's APP13 has). */
#define PROFILE_MAX (WF_IIM_STREAM_MAX + 1024 - sizeof ps3_header)

wf_record_source wf_raw_profile_source(const char *keyword) {
    if (keyword == NULL) return 0;
    if (strcasecmp(keyword, "Raw profile type iptc") == 0 || strcasecmp(keyword, "Raw profile type 8bim") == 0)
        return WF_RECORD_IPTC;
    return strcasecmp(keyword, "Raw profile type xmp") == 0 ? WF_RECORD_XMP : 0;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int is_space(char c) { return c == '\n' || c == '\r' || c == ' ' || c == '\t'; }

/* The declared length after the name line; *at moves past it. -1 when there is none or it is too long. */
static int64_t declared_length(const char *text, size_t length, size_t *at) {
    size_t i = 0;
    while (i < length && is_space(text[i])) i++;
    while (i < length && text[i] != '\n') i++; /* the profile's name */
    while (i < length && is_space(text[i])) i++;
    int64_t declared = 0;
    int digits = 0;
    for (; i < length && text[i] >= '0' && text[i] <= '9'; i++) {
        if (++digits > 9) return -1;
        declared = declared * 10 + (text[i] - '0');
    }
    *at = i;
    return digits ? declared : -1;
}

/* The hex digits from `at` into `bytes` (room for exactly `declared`): NULL, or why they are refused. */
static const char *decode(const char *text, size_t length, size_t at, uint8_t *bytes, size_t declared, size_t *count) {
    size_t n = 0;
    int high = -1;
    for (; at < length; at++) {
        if (is_space(text[at])) continue;
        int value = hex_digit(text[at]);
        if (value < 0) return "its PNG raw profile has a character that is not a hex digit";
        if (high < 0) {
            high = value;
            continue;
        }
        if (n == declared) return "its PNG raw profile holds more bytes than it declares";
        bytes[n++] = (uint8_t)(high << 4 | value);
        high = -1;
    }
    *count = n;
    return high >= 0 || n < declared ? "its PNG raw profile holds fewer bytes than it declares" : NULL;
}

/* The profile's bytes after `prefix_length` bytes of room (malloc'd; *count of them), or NULL with the
 * reason said to `records` under `source`. */
static uint8_t *profile_bytes(const char *text, size_t length, size_t max, size_t prefix_length, wf_record_source source,
                              wf_metadata_field *records, size_t *count) {
    size_t at = 0;
    int64_t declared = declared_length(text, length, &at);
    if (declared < 0) {
        wf_records_say(records, source, WF_RECORD_REFUSED, "its PNG raw profile does not say its length");
        return NULL;
    }
    if ((uint64_t)declared > max) {
        wf_records_say(records, source, WF_RECORD_REFUSED, "its PNG raw profile declares %lld bytes, over %s",
                       (long long)declared, source == WF_RECORD_XMP ? "1 MiB" : "256 KiB");
        return NULL;
    }
    uint8_t *bytes = malloc(prefix_length + (size_t)declared + 1);
    if (!bytes) return NULL;
    const char *refusal = decode(text, length, at, bytes + prefix_length, (size_t)declared, count);
    if (refusal == NULL) return bytes;
    wf_records_say(records, source, WF_RECORD_REFUSED, "%s", refusal);
    free(bytes);
    return NULL;
}

void wf_read_raw_profile(const char *text, size_t length, wf_record_source source, wf_metadata_field *records) {
    size_t count = 0;
    if (source == WF_RECORD_XMP) {
        uint8_t *packet = profile_bytes(text, length, WF_XMP_EMBEDDED_MAX, 0, source, records, &count);
        if (packet) wf_read_xmp_memory(packet, count, WF_XMP_EMBEDDED_MAX, records);
        free(packet);
        return;
    }
    uint8_t *bytes = profile_bytes(text, length, PROFILE_MAX, sizeof ps3_header, source, records, &count);
    if (!bytes) return;
    memcpy(bytes, ps3_header, sizeof ps3_header);
    if (count >= 4 && memcmp(bytes + sizeof ps3_header, "8BIM", 4) == 0)
        wf_read_ps3_iptc(bytes, sizeof ps3_header + count, records);
    else if (count > 0) wf_read_iim_memory(bytes + sizeof ps3_header, count, records);
    free(bytes);
}
