/*
 * IPTC IIM (a JPEG's APP13 "Photoshop 3.0" 8BIM resource 0x0404) through libiptcdata, behind our own walk of
 * the stream. libiptcdata 1.0.5 takes an extended length of up to 32767 length bytes into an unsigned int
 * and checks it against the buffer with a sum that can wrap around; it also grows its list by one slot a
 * dataset. So the stream is walked first: at most 4096 datasets, extended lengths of at most 4 bytes, every
 * length checked in 64 bits, at most 256 KiB in all; a stream that fails is refused whole, with the reason.
 * libiptcdata's allocations are capped too.
 *
 * Read: 2:05 title, 2:120 description, 2:25 keywords, 2:80 by-line, 2:116 copyright, 2:55 + 2:60 date.
 * Text is UTF-8 when 1:90 says so (ESC % G), else UTF-8 when it is valid UTF-8, else Latin-1.
 * TIFF's tag 33723 (tiff/) and PNG's "Raw profile type iptc" (png/) hand their streams to wf_read_iim_memory.
 */
#include "memory_budget.h"
#include "metadata_readers.h"

#include <libiptcdata/iptc-data.h>
#include <libiptcdata/iptc-dataset.h>
#include <libiptcdata/iptc-jpeg.h>
#include <libiptcdata/iptc-mem.h>
#include <stdlib.h>
#include <string.h>

enum {
    DATASETS_MAX = 4096,
    MEMORY_MAX = 4 << 20,
    TEXT_MAX = 4096,
    ITEM_MAX = 256,
    KEYWORDS_MAX = 500,
    CREATORS_MAX = 32,
};

/* Why the stream is refused, or NULL: its datasets must cover it exactly (NUL padding after them allowed). */
static const char *precheck(const uint8_t *bytes, size_t length) {
    if (length > WF_IIM_STREAM_MAX) return "it is larger than 256 KiB";
    uint64_t at = 0;
    int count = 0;
    while (at < length) {
        if (bytes[at] == 0) { /* padding to the end, as Photoshop writes it */
            while (at < length && bytes[at] == 0) at++;
            return at == length ? NULL : "it has bytes between its datasets";
        }
        if (bytes[at] != 0x1C) return "it has bytes between its datasets";
        if (++count > DATASETS_MAX) return "it has more than 4096 datasets";
        if (length - at < 5) return "a dataset is cut short";
        uint64_t size = (uint64_t)bytes[at + 3] << 8 | bytes[at + 4];
        at += 5;
        if (size & 0x8000) { /* an extended length: the next `size & 0x7FFF` bytes hold it */
            uint64_t digits = size & 0x7FFF;
            if (digits == 0 || digits > 4) return "a dataset's extended length is over 4 bytes";
            if (length - at < digits) return "a dataset is cut short";
            size = 0;
            for (uint64_t i = 0; i < digits; i++) size = size << 8 | bytes[at + i];
            at += digits;
        }
        if (size > length - at) return "a dataset's length runs past the end";
        at += size;
    }
    return NULL;
}

/* libiptcdata's memory, counted in the parse's own budget (common/memory_budget.h); its hooks take IptcLong. */
static void *counted_alloc(IptcLong size) { return wf_counted_malloc(size); }
static void *counted_realloc(void *pointer, IptcLong size) { return wf_counted_realloc(pointer, size); }

/* ---- the datasets ---- */

typedef struct {
    wf_metadata_field *records;
    int utf8; /* 1:90 said UTF-8 */
    int keywords, creators, dropped_keywords;
    char date[16], time[16];
} reading;

static int is_utf8(const uint8_t *s, size_t n) {
    for (size_t i = 0; i < n;) {
        uint8_t c = s[i];
        size_t extra = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1 : (c & 0xF0) == 0xE0 ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : 4;
        if (extra == 4 || n - i <= extra) return 0;
        for (size_t k = 1; k <= extra; k++)
            if ((s[i + k] & 0xC0) != 0x80) return 0;
        i += extra + 1;
    }
    return 1;
}

/* The value as UTF-8 (at most `max` bytes, never a cut character) into `out`; its length. */
static size_t as_utf8(const reading *r, const uint8_t *s, size_t n, char *out, size_t max) {
    size_t length = 0;
    if (r->utf8 || is_utf8(s, n)) {
        length = n < max ? n : max;
        while (length < n && length > 0 && (s[length] & 0xC0) == 0x80) length--;
        memcpy(out, s, length);
        return length;
    }
    for (size_t i = 0; i < n && length + 2 <= max; i++) { /* Latin-1 */
        if (s[i] < 0x80) out[length++] = (char)s[i];
        else {
            out[length++] = (char)(0xC0 | s[i] >> 6);
            out[length++] = (char)(0x80 | (s[i] & 0x3F));
        }
    }
    return length;
}

static void add_text(reading *r, wf_record_field field, const uint8_t *s, size_t n, size_t max) {
    char text[TEXT_MAX];
    size_t length = as_utf8(r, s, n, text, max < sizeof text ? max : sizeof text);
    if (length) wf_records_add(r->records, WF_RECORD_IPTC, field, text, length);
}

static void take_dataset(IptcDataSet *dataset, void *context) {
    reading *r = context;
    if (dataset->record != IPTC_RECORD_APP_2 || !dataset->data) return;
    const uint8_t *s = dataset->data;
    size_t n = dataset->size;
    switch (dataset->tag) {
    case IPTC_TAG_OBJECT_NAME: add_text(r, WF_RECORD_TITLE, s, n, TEXT_MAX); break;
    case IPTC_TAG_CAPTION: add_text(r, WF_RECORD_DESCRIPTION, s, n, TEXT_MAX); break;
    case IPTC_TAG_COPYRIGHT_NOTICE: add_text(r, WF_RECORD_RIGHTS, s, n, TEXT_MAX); break;
    case IPTC_TAG_KEYWORDS:
        if (r->keywords++ < KEYWORDS_MAX) add_text(r, WF_RECORD_KEYWORD, s, n, ITEM_MAX);
        else r->dropped_keywords++;
        break;
    case IPTC_TAG_BYLINE:
        if (r->creators++ < CREATORS_MAX) add_text(r, WF_RECORD_CREATOR, s, n, ITEM_MAX);
        break;
    case IPTC_TAG_DATE_CREATED:
        if (n == 8 && !r->date[0]) memcpy(r->date, s, 8);
        break;
    case IPTC_TAG_TIME_CREATED:
        if (n >= 6 && n < sizeof r->time && !r->time[0]) memcpy(r->time, s, n);
        break;
    default: break;
    }
}

/* libiptcdata either reads the whole stream or refuses it before any dataset is looked at. */
void wf_read_iim_memory(const uint8_t *bytes, size_t length, wf_metadata_field *records) {
    const char *refusal = precheck(bytes, length);
    if (refusal) {
        wf_records_say(records, WF_RECORD_IPTC, WF_RECORD_REFUSED, "%s", refusal);
        return;
    }
    wf_memory_budget budget;
    wf_memory_budget_enter(&budget, MEMORY_MAX, 1);
    IptcMem *memory = iptc_mem_new(counted_alloc, counted_realloc, wf_counted_free);
    IptcData *data = memory ? iptc_data_new_mem(memory) : NULL;
    if (memory) iptc_mem_unref(memory);
    if (!data) {
        wf_memory_budget_leave(&budget);
        return;
    }
    if (iptc_data_load(data, bytes, (unsigned int)length) < 0) {
        wf_records_say(records, WF_RECORD_IPTC, WF_RECORD_REFUSED, "libiptcdata cannot read it");
    } else {
        reading r = {.records = records, .utf8 = iptc_data_get_encoding(data) == IPTC_ENCODING_UTF8};
        iptc_data_foreach_dataset(data, take_dataset, &r);
        if (r.date[0]) {
            char when[32];
            int n = snprintf(when, sizeof when, "%.8s%s%.11s", r.date, r.time[0] ? " " : "", r.time);
            wf_records_add(records, WF_RECORD_IPTC, WF_RECORD_DATE, when, (size_t)n);
        }
        if (r.dropped_keywords)
            wf_records_say(records, WF_RECORD_IPTC, WF_RECORD_NOTE, "only the first %d of its %d IPTC keywords are used",
                           KEYWORDS_MAX, KEYWORDS_MAX + r.dropped_keywords);
    }
    iptc_data_unref(data);
    wf_memory_budget_leave(&budget);
}

/* The IIM stream inside an APP13 "Photoshop 3.0\0" image-resource block (its 8BIM resource 0x0404). */
void wf_read_ps3_iptc(const uint8_t *ps3, size_t length, wf_metadata_field *records) {
    unsigned int iim_length = 0;
    if (length > WF_IIM_STREAM_MAX + 1024) {
        wf_records_say(records, WF_RECORD_IPTC, WF_RECORD_REFUSED, "its APP13 segments are larger than 256 KiB");
        return;
    }
    int offset = iptc_jpeg_ps3_find_iptc(ps3, (unsigned int)length, &iim_length);
    if (offset <= 0 || iim_length == 0) return; /* none (an APP13 may hold only other resources) */
    if ((size_t)offset > length || iim_length > length - (size_t)offset) return;
    wf_read_iim_memory(ps3 + offset, iim_length, records);
}
