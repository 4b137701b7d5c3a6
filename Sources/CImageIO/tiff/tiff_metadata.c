/*
 * A TIFF's EXIF facts, XMP and IPTC. A TIFF file is the same structure as the TIFF block inside a JPEG's Exif
 * APP1, so its IFD0 and Exif IFD could go to the EXIF parser as they are, but IFD0 may lie anywhere in a file
 * of any size (libtiff writes it after the image data). So the two IFDs are copied, with their values, into a
 * small TIFF structure in the file's byte order (at most 65,527 bytes, what a JPEG's Exif holds), and the
 * parser reads that as it reads a JPEG's: the same facts, the same rules.
 *
 * Bounded: IFD0's descriptive tags only (description, make, model, orientation, software, date, artist,
 * rating, copyright, the Exif pointer) and the Exif IFD's entries but its Interoperability pointer; no
 * value over 32 KiB; at most 1,024 entries an IFD; no other IFD (no chain, no GPS, no SubIFDs). Own code,
 * not libtiff: nothing is decoded or allocated beyond these bytes. A BigTIFF gives no facts.
 *
 * IFD0's XMP (tag 700) and IPTC IIM (tag 33723) go to the parsers JPEG's APP1 and APP13 go to, under the
 * same limits, checked against the tag's declared size before a byte of the value is read. Without tag
 * 33723, the IIM is taken from Photoshop's image resources (tag 34377, resource 0x0404), as from an APP13.
 */
#include "metadata_readers.h"
#include "tiff_format.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_OUTPUT = 65527, MAX_VALUE = 32768, MAX_ENTRIES = 1024, EXIF_POINTER = 0x8769, INTEROP_POINTER = 0xA005,
       XMP_TAG = 700, IPTC_TAG = 33723, PHOTOSHOP_TAG = 34377 };
enum { TYPE_BYTE = 1, TYPE_LONG = 4, TYPE_UNDEFINED = 7 };

typedef struct {
    wf_stream *stream;
    int big_endian;
    uint8_t bytes[MAX_OUTPUT];
    size_t length;
} copier;

static uint32_t get(const copier *c, const uint8_t *p, int size) {
    uint32_t v = 0;
    for (int i = 0; i < size; i++) v |= (uint32_t)p[c->big_endian ? i : size - 1 - i] << (8 * (size - 1 - i));
    return v;
}

static void put(const copier *c, uint8_t *p, uint32_t v, int size) {
    for (int i = 0; i < size; i++) p[c->big_endian ? size - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint32_t type_size(uint32_t type) {
    static const uint8_t sizes[] = {0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4};
    return type < sizeof sizes ? sizes[type] : 0;
}

static int ifd0_keeps(uint32_t tag) {
    static const uint16_t kept[] = {0x010E, 0x010F, 0x0110, 0x0112, 0x0131, 0x0132, 0x013B, 0x4746, 0x4749, 0x8298,
                                    EXIF_POINTER};
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        if (kept[i] == tag) return 1;
    return 0;
}

static int exif_keeps(uint32_t tag) { return tag != INTEROP_POINTER && tag != EXIF_POINTER && tag != 0x8825; }

/* The value's length when the entry is kept: inline (4 bytes or fewer), or within MAX_VALUE. */
static int64_t value_length(const copier *c, const uint8_t *entry) {
    uint64_t length = (uint64_t)get(c, entry + 4, 4) * type_size(get(c, entry + 2, 2));
    return length == 0 || length > MAX_VALUE ? -1 : (int64_t)length;
}

/* The IFD at `at` in the file: its entries (at most MAX_ENTRIES of them, 12 bytes each), or NULL. */
static uint8_t *read_table(const copier *c, uint32_t at, uint32_t *count) {
    uint8_t count_bytes[2];
    if (at < 8 || wf_stream_read_at(c->stream, at, count_bytes, 2) != 2) return NULL;
    *count = get(c, count_bytes, 2);
    if (*count > MAX_ENTRIES) *count = MAX_ENTRIES;
    uint8_t *table = malloc((size_t)*count * 12 + 1);
    if (table && wf_stream_read_at(c->stream, (uint64_t)at + 2, table, (size_t)*count * 12) != (size_t)*count * 12) {
        free(table);
        return NULL;
    }
    return table;
}

/* Copies an IFD's entries (those `keeps` accepts, with their values) to the end of the output, as an IFD
 * with no next; its offset in the output, or 0 when none could be kept or they did not fit.
 * The Exif pointer's value is left as the file has it, at *pointer_slot in the output. */
static uint32_t copy_ifd(copier *c, const uint8_t *table, uint32_t count, int (*keeps)(uint32_t), size_t *pointer_slot) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++) kept += keeps(get(c, table + i * 12, 2)) && value_length(c, table + i * 12) >= 0;
    size_t ifd = (c->length + 1) & ~(size_t)1, values = ifd + 2 + (size_t)kept * 12 + 4;
    if (kept == 0 || values > MAX_OUTPUT) return 0;
    uint8_t *out = c->bytes + ifd + 2;
    uint32_t written = 0;
    for (uint32_t i = 0; i < count && written < kept; i++) {
        const uint8_t *entry = table + i * 12;
        int64_t length = value_length(c, entry);
        if (!keeps(get(c, entry, 2)) || length < 0) continue;
        memcpy(out, entry, 12);
        if (get(c, entry, 2) == EXIF_POINTER && length == 4) *pointer_slot = (size_t)(out + 8 - c->bytes);
        if (length > 4) {
            size_t place = (values + 1) & ~(size_t)1;
            if (place + (size_t)length > MAX_OUTPUT ||
                wf_stream_read_at(c->stream, get(c, entry + 8, 4), c->bytes + place, (size_t)length) != (size_t)length)
                continue; /* left out: the count below says how many were written */
            put(c, out + 8, (uint32_t)place, 4);
            values = place + (size_t)length;
        }
        out += 12;
        written++;
    }
    put(c, c->bytes + ifd, written, 2);
    memset(c->bytes + ifd + 2 + (size_t)written * 12, 0, 4); /* no next IFD */
    c->length = values;
    return written ? (uint32_t)ifd : 0;
}

static void copy_exif(copier *c, const uint8_t *ifd0, uint32_t ifd0_count, uint32_t ifd0_offset) {
    size_t slot = 0, unused = 0;
    if (copy_ifd(c, ifd0, ifd0_count, ifd0_keeps, &slot) != 8 || !slot) return;
    uint32_t exif = get(c, c->bytes + slot, 4), count = 0, copied = 0;
    uint8_t *table = exif != ifd0_offset ? read_table(c, exif, &count) : NULL;
    if (table) copied = copy_ifd(c, table, count, exif_keeps, &unused);
    free(table);
    put(c, c->bytes + slot, copied, 4);
}

static const uint8_t ps3_header[14] = "Photoshop 3.0"; /* what wf_read_ps3_iptc expects before 8BIM resources */

/* One XMP, IIM or Photoshop tag's value, parsed: its type must be bytes (or, for IIM, LONG, as libtiff's
 * RichTIFFIPTC stores it: its bytes are taken as the file holds them), its declared size within the parser's
 * limit (Photoshop's resources: the IIM's, with room for resource headers, as an APP13 has). */
static void take_packet(const copier *c, const uint8_t *entry, uint32_t tag, wf_metadata *out) {
    uint8_t source = tag == XMP_TAG ? WF_RECORD_XMP : WF_RECORD_IPTC;
    uint32_t type = get(c, entry + 2, 2);
    uint64_t length = (uint64_t)get(c, entry + 4, 4) * type_size(type);
    uint64_t max = tag == XMP_TAG ? WF_XMP_EMBEDDED_MAX : tag == IPTC_TAG ? WF_IIM_STREAM_MAX
                 : WF_IIM_STREAM_MAX + 1024 - sizeof ps3_header;
    size_t prefix = tag == PHOTOSHOP_TAG ? sizeof ps3_header : 0;
    if (type != TYPE_BYTE && type != TYPE_UNDEFINED && (tag != IPTC_TAG || type != TYPE_LONG)) {
        wf_records_say(&out->records, source, WF_RECORD_REFUSED, "its TIFF tag %u is of type %u, not bytes", tag, type);
        return;
    }
    if (length > max) {
        wf_records_say(&out->records, source, WF_RECORD_REFUSED, "%s larger than %s (%llu bytes)",
                       tag == PHOTOSHOP_TAG ? "its Photoshop resources (TIFF tag 34377) are" : "it is",
                       tag == XMP_TAG ? "1 MiB" : "256 KiB", (unsigned long long)length);
        return;
    }
    uint8_t *bytes = malloc(prefix + (length ? (size_t)length : 1));
    if (!bytes) return;
    memcpy(bytes, ps3_header, prefix);
    if (length <= 4) memcpy(bytes + prefix, entry + 8, (size_t)length);
    else if (wf_stream_read_at(c->stream, get(c, entry + 8, 4), bytes + prefix, (size_t)length) != (size_t)length) {
        wf_records_say(&out->records, source, WF_RECORD_REFUSED, "its %llu bytes run past the end of the file",
                       (unsigned long long)length);
        free(bytes);
        return;
    }
    if (tag == XMP_TAG) wf_metadata_take_xmp(out, bytes, (size_t)length);
    else if (tag == IPTC_TAG) wf_read_iim_memory(bytes, (size_t)length, &out->records);
    else wf_read_ps3_iptc(bytes, prefix + (size_t)length, &out->records);
    free(bytes);
}

/* IFD0's first XMP tag, and its first IPTC tag or, without one, its first Photoshop tag. */
static void take_packets(const copier *c, const uint8_t *table, uint32_t count, wf_metadata *out) {
    const uint8_t *xmp = NULL, *iptc = NULL, *photoshop = NULL;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t tag = get(c, table + i * 12, 2);
        const uint8_t **slot = tag == XMP_TAG ? &xmp : tag == IPTC_TAG ? &iptc : tag == PHOTOSHOP_TAG ? &photoshop : NULL;
        if (slot && !*slot) *slot = table + i * 12;
    }
    if (xmp) take_packet(c, xmp, XMP_TAG, out);
    if (iptc) take_packet(c, iptc, IPTC_TAG, out);
    else if (photoshop) take_packet(c, photoshop, PHOTOSHOP_TAG, out);
}

void wf_read_tiff_metadata(wf_stream *stream, wf_metadata *out) {
    copier *c = calloc(1, sizeof *c);
    uint8_t header[8];
    if (!c) {
        wf_metadata_fail(out, WF_ERR_IO, "out of memory");
        return;
    }
    c->stream = stream;
    if (wf_stream_read_at(stream, 0, header, 8) == 8 && (header[2] == 42 || header[3] == 42)) {
        c->big_endian = header[0] == 'M';
        memcpy(c->bytes, header, 4);
        put(c, c->bytes + 4, 8, 4);
        c->length = 8;
        uint32_t ifd0 = get(c, header + 4, 4), count = 0;
        uint8_t *table = read_table(c, ifd0, &count);
        if (table) {
            copy_exif(c, table, count, ifd0);
            take_packets(c, table, count, out);
        }
        free(table);
        if (c->length > 8) wf_metadata_keep(&out->exif, c->bytes, c->length);
    }
    free(c);
}
