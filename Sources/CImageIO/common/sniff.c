#include "formats.h"
#include "readers.h"

#include <string.h>

#define HAS(prefix) WF_STARTS_WITH(bytes, length, prefix)

/* MPEG-TS packets are 188 bytes, each starting with the sync byte 0x47; BDAV (.m2ts, .mts) puts a 4-byte
 * time code before each. Three sync bytes in a row make it one. */
static int transport_stream(const uint8_t *bytes, size_t length) {
    for (size_t start = 0; start <= 4; start += 4) {
        size_t step = start ? 192 : 188;
        if (length >= start + 2 * step + 1 && bytes[start] == 0x47 && bytes[start + step] == 0x47 && bytes[start + 2 * step] == 0x47)
            return 1;
    }
    return 0;
}

/* An old QuickTime movie starts with another box than ftyp. */
static int quicktime_box(const uint8_t *bytes, size_t length) {
    if (length < 8) return 0;
    static const char *types[] = {"moov", "mdat", "wide", "free", "skip", "pnot"};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (memcmp(bytes + 4, types[i], 4) == 0) return 1;
    return 0;
}

wf_format wf_sniff(const uint8_t *bytes, size_t length) {
    wf_format read = wf_sniff_read_format(bytes, length);
    if (read != WF_FORMAT_UNKNOWN) return read;
    /* The rest are only named, in messages. A PNG signature the PNG row refused has Apple's CgBI chunk
     * before IHDR; an ISO base media file of a brand neither HEIF nor AVIF is a movie (isom, mp41, mp42,
     * avc1, M4V, "qt  " (QuickTime), 3gp4, ...). */
    if (HAS("\x89PNG\r\n\x1A\n")) return WF_FORMAT_PNG_CGBI;
    if (length >= 12 && memcmp(bytes + 4, "ftyp", 4) == 0) return WF_FORMAT_VIDEO_ISO;
    if (HAS("\xFF\x0A") || HAS("\0\0\0\x0CJXL \r\n\x87\n")) return WF_FORMAT_JPEG_XL;
    if (HAS("\0\0\0\x0CjP  \r\n\x87\n") || HAS("\xFF\x4F\xFF\x51")) return WF_FORMAT_JPEG_2000;
    if (HAS("\0\0\1\0")) return WF_FORMAT_ICO;
    if (HAS("8BPS")) return WF_FORMAT_PSD;
    if (HAS("%PDF")) return WF_FORMAT_PDF;
    if (HAS("<svg") || HAS("<?xml")) return WF_FORMAT_SVG;
    if (HAS("qoif")) return WF_FORMAT_QOI;
    if (HAS("\x1A\x45\xDF\xA3")) return WF_FORMAT_VIDEO_MATROSKA;
    if (HAS("RIFF") && length >= 12 && memcmp(bytes + 8, "AVI ", 4) == 0) return WF_FORMAT_VIDEO_AVI;
    if (quicktime_box(bytes, length)) return WF_FORMAT_VIDEO_ISO;
    if (HAS("OggS")) return WF_FORMAT_VIDEO_OGG;
    if (HAS("\0\0\1\xBA")) return WF_FORMAT_VIDEO_MPEG_PS;
    if (HAS("\x30\x26\xB2\x75\x8E\x66\xCF\x11")) return WF_FORMAT_VIDEO_ASF;
    if (HAS("FLV\x01")) return WF_FORMAT_VIDEO_FLV;
    if (transport_stream(bytes, length)) return WF_FORMAT_VIDEO_MPEG_TS;
    return WF_FORMAT_UNKNOWN;
}
