/*
 * XMP packets (embedded or sidecar) through expat, walked as RDF the way ISO 16684-1 §7 reads it: properties
 * of any number of rdf:Description (or typed) nodes, written as attributes or as elements; a property's
 * value plain text or an rdf:Alt/Bag/Seq of rdf:li items (x-default first for an Alt); structures and
 * qualifiers are passed over. Names are matched by namespace URI, never by prefix. Only an allow-list of
 * properties is read (title, description, keywords, rating, creator, rights, dates: never a location).
 *
 * Hostile packets are refused whole, with the reason as a WF_RECORD_REFUSED entry: a DOCTYPE (so no entity
 * is ever declared, let alone expanded or loaded: no external entity handler is set either), nesting past
 * 64, more than 16 MiB of expat's memory (a counting allocator), a packet over the caller's limit, and any
 * expat error (invalid UTF-8 among them).
 */
#include "memory_budget.h"
#include "metadata_readers.h"

#include <expat.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
    DEPTH_MAX = 64,
    MEMORY_MAX = 16 << 20,
    FEED = 64 * 1024,     /* expat copies each piece it is fed: pieces keep that copy small */
    TEXT_MAX = 4096,      /* a title, description, rights (bytes, cut on a character boundary) */
    ITEM_MAX = 256,       /* a keyword, a creator, a rating, a date */
    KEYWORDS_MAX = 500,
    CREATORS_MAX = 32,
};

#define NS_RDF "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
#define NS_XML "http://www.w3.org/XML/1998/namespace"
#define NS_DC "http://purl.org/dc/elements/1.1/"
#define NS_XMP "http://ns.adobe.com/xap/1.0/"
#define NS_EXIF "http://ns.adobe.com/exif/1.0/"
#define NS_PHOTOSHOP "http://ns.adobe.com/photoshop/1.0/"

typedef enum { P_TITLE, P_DESCRIPTION, P_SUBJECT, P_RATING, P_CREATOR, P_RIGHTS, P_DATE_ORIGINAL, P_DATE_CREATED,
               P_CREATE_DATE, P_COUNT, P_NONE = -1 } property;

static const struct {
    const char *name; /* "URI local", as expat gives it with ' ' as the separator */
    int list;         /* each item kept (Bag, Seq) rather than one value (Alt: x-default, else the first) */
    size_t max;
} properties[P_COUNT] = {
    [P_TITLE] = {NS_DC " title", 0, TEXT_MAX},
    [P_DESCRIPTION] = {NS_DC " description", 0, TEXT_MAX},
    [P_SUBJECT] = {NS_DC " subject", KEYWORDS_MAX, ITEM_MAX},
    [P_RATING] = {NS_XMP " Rating", 0, ITEM_MAX},
    [P_CREATOR] = {NS_DC " creator", CREATORS_MAX, ITEM_MAX},
    [P_RIGHTS] = {NS_DC " rights", 0, TEXT_MAX},
    [P_DATE_ORIGINAL] = {NS_EXIF " DateTimeOriginal", 0, ITEM_MAX},
    [P_DATE_CREATED] = {NS_PHOTOSHOP " DateCreated", 0, ITEM_MAX},
    [P_CREATE_DATE] = {NS_XMP " CreateDate", 0, ITEM_MAX},
};

typedef enum { F_OTHER, F_RDF, F_NODE, F_PROPERTY, F_ARRAY, F_ITEM, F_SKIP } frame;

typedef struct {
    char bytes[TEXT_MAX + 4]; /* room past the limit, so that a cut can look at the next byte */
    size_t length;
} text;

typedef struct {
    XML_Parser parser;
    wf_memory_budget memory;
    char refusal[160];
    int depth;
    uint8_t frames[DEPTH_MAX + 2];
    property current;     /* the property element open now, P_NONE when not one we read */
    int has_children;     /* the open property element holds elements: not plain text */
    int item_has_children;
    int item_is_default;  /* the open rdf:li says xml:lang="x-default" */
    text text;            /* character data of the open property element or item */
    int closed[P_COUNT];  /* given once already: a later one is ignored (the first wins) */
    int is_default[P_COUNT];
    text single[P_COUNT];
    uint8_t *items[P_COUNT]; /* list properties: entries of a length byte pair and the bytes */
    size_t items_length[P_COUNT];
    int item_count[P_COUNT];
    int dropped_keywords;
} walk;

/* expat's memory, counted in the parse's own budget (common/memory_budget.h). */
static const XML_Memory_Handling_Suite counted = {wf_counted_malloc, wf_counted_realloc, wf_counted_free};

/* ---- the walk ---- */

static void refuse(walk *w, const char *reason) {
    if (w->refusal[0] == '\0') snprintf(w->refusal, sizeof w->refusal, "%s", reason);
    XML_StopParser(w->parser, XML_FALSE);
}

static property lookup(const char *name) {
    for (int p = 0; p < P_COUNT; p++)
        if (strcmp(name, properties[p].name) == 0) return (property)p;
    return P_NONE;
}

static int is_rdf(const char *name, const char *local) {
    size_t n = sizeof NS_RDF - 1;
    return strncmp(name, NS_RDF, n) == 0 && name[n] == ' ' && strcmp(name + n + 1, local) == 0;
}

static const char *attribute(const XML_Char **attributes, const char *name) {
    for (int i = 0; attributes[i]; i += 2)
        if (strcmp(attributes[i], name) == 0) return attributes[i + 1];
    return NULL;
}

/* How many of `length` bytes to keep under `max` without cutting a UTF-8 sequence. */
static size_t fitting(const char *bytes, size_t length, size_t max) {
    if (length <= max) return length;
    size_t n = max;
    while (n > 0 && ((uint8_t)bytes[n] & 0xC0) == 0x80) n--;
    return n;
}

static void add_item(walk *w, property p, const char *value, size_t length) {
    if (length == 0) return;
    if (w->item_count[p] >= properties[p].list) {
        if (p == P_SUBJECT) w->dropped_keywords++;
        return;
    }
    if (!w->items[p] && !(w->items[p] = malloc((size_t)properties[p].list * (2 + ITEM_MAX)))) return;
    size_t n = fitting(value, length, ITEM_MAX);
    uint8_t *at = w->items[p] + w->items_length[p];
    at[0] = (uint8_t)(n >> 8);
    at[1] = (uint8_t)n;
    memcpy(at + 2, value, n);
    w->items_length[p] += 2 + n;
    w->item_count[p]++;
}

/* A value of property `p`: an item of a list, or the single value (an x-default one replaces a first one). */
static void take(walk *w, property p, const char *value, size_t length, int is_default) {
    if (p == P_NONE || w->closed[p] || length == 0) return;
    if (properties[p].list) {
        add_item(w, p, value, length);
        return;
    }
    if (w->single[p].length > 0 && (w->is_default[p] || !is_default)) return;
    size_t n = fitting(value, length, properties[p].max);
    memcpy(w->single[p].bytes, value, n);
    w->single[p].length = n;
    w->is_default[p] = is_default;
}

static int is_default_language(const XML_Char **attributes) {
    const char *lang = attribute(attributes, NS_XML " lang");
    return lang && strcasecmp(lang, "x-default") == 0;
}

/* A node's attributes that are properties (rdf:about, xml:lang and the like are not). */
static void node_attributes(walk *w, const XML_Char **attributes) {
    for (int i = 0; attributes[i]; i += 2) {
        property p = lookup(attributes[i]);
        if (p == P_NONE) continue;
        take(w, p, attributes[i + 1], strlen(attributes[i + 1]), 0);
        w->closed[p] = 1;
    }
}

static frame open_property(walk *w, const XML_Char *name, const XML_Char **attributes) {
    w->current = lookup(name);
    /* rdf:parseType="Resource" and rdf:resource make a structure or a URI, never text we read. */
    if (attribute(attributes, NS_RDF " parseType") || attribute(attributes, NS_RDF " resource")) w->current = P_NONE;
    w->has_children = 0;
    w->item_is_default = is_default_language(attributes);
    w->text.length = 0;
    return F_PROPERTY;
}

static frame child_frame(walk *w, frame parent, const XML_Char *name, const XML_Char **attributes) {
    switch (parent) {
    case F_OTHER:
        return is_rdf(name, "RDF") ? F_RDF : F_OTHER;
    case F_RDF:
        node_attributes(w, attributes);
        return F_NODE;
    case F_NODE:
        return open_property(w, name, attributes);
    case F_PROPERTY:
        w->has_children = 1;
        return is_rdf(name, "Alt") || is_rdf(name, "Bag") || is_rdf(name, "Seq") ? F_ARRAY : F_SKIP;
    case F_ARRAY:
        if (!is_rdf(name, "li")) return F_SKIP;
        w->item_is_default = is_default_language(attributes);
        w->item_has_children = 0;
        w->text.length = 0;
        return F_ITEM;
    default:
        w->item_has_children = 1; /* an item holding a structure */
        return F_SKIP;
    }
}

static void XMLCALL on_start(void *data, const XML_Char *name, const XML_Char **attributes) {
    walk *w = data;
    if (w->depth >= DEPTH_MAX) {
        refuse(w, "it is nested more than 64 elements deep");
        return;
    }
    frame parent = (frame)w->frames[w->depth];
    w->frames[++w->depth] = (uint8_t)child_frame(w, parent, name, attributes);
}

static void XMLCALL on_end(void *data, const XML_Char *name) {
    (void)name;
    walk *w = data;
    frame f = (frame)w->frames[w->depth];
    if (f == F_ITEM && !w->item_has_children) take(w, w->current, w->text.bytes, w->text.length, w->item_is_default);
    if (f == F_PROPERTY && w->current != P_NONE) {
        if (!w->has_children) take(w, w->current, w->text.bytes, w->text.length, w->item_is_default);
        w->closed[w->current] = 1;
        w->current = P_NONE;
    }
    if (w->depth > 0) w->depth--;
}

static void XMLCALL on_text(void *data, const XML_Char *bytes, int length) {
    walk *w = data;
    frame f = (frame)w->frames[w->depth];
    if ((f != F_PROPERTY && f != F_ITEM) || w->current == P_NONE || length <= 0) return;
    size_t room = sizeof w->text.bytes - w->text.length;
    size_t n = (size_t)length < room ? (size_t)length : room;
    memcpy(w->text.bytes + w->text.length, bytes, n);
    w->text.length += n;
}

static void XMLCALL on_doctype(void *data, const XML_Char *name, const XML_Char *system, const XML_Char *public_id,
                               int has_internal_subset) {
    (void)name, (void)system, (void)public_id, (void)has_internal_subset;
    refuse(data, "a DOCTYPE (entity declarations are refused)");
}

/* ---- the parse and its records ---- */

static void emit(const walk *w, wf_metadata_field *records) {
    static const struct {
        property p;
        wf_record_field field;
    } order[] = {{P_TITLE, WF_RECORD_TITLE},     {P_DESCRIPTION, WF_RECORD_DESCRIPTION}, {P_SUBJECT, WF_RECORD_KEYWORD},
                 {P_RATING, WF_RECORD_RATING},   {P_CREATOR, WF_RECORD_CREATOR},         {P_RIGHTS, WF_RECORD_RIGHTS}};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        property p = order[i].p;
        if (!properties[p].list) {
            if (w->single[p].length) wf_records_add(records, WF_RECORD_XMP, order[i].field, w->single[p].bytes, w->single[p].length);
            continue;
        }
        for (size_t at = 0; at < w->items_length[p];) {
            size_t n = (size_t)w->items[p][at] << 8 | w->items[p][at + 1];
            wf_records_add(records, WF_RECORD_XMP, order[i].field, w->items[p] + at + 2, n);
            at += 2 + n;
        }
    }
    /* The date taken: the first of these that is given. */
    static const property dates[] = {P_DATE_ORIGINAL, P_DATE_CREATED, P_CREATE_DATE};
    for (size_t i = 0; i < sizeof dates / sizeof dates[0]; i++) {
        if (!w->single[dates[i]].length) continue;
        wf_records_add(records, WF_RECORD_XMP, WF_RECORD_DATE, w->single[dates[i]].bytes, w->single[dates[i]].length);
        break;
    }
    if (w->dropped_keywords)
        wf_records_say(records, WF_RECORD_XMP, WF_RECORD_NOTE, "only the first %d of its %d XMP keywords are used",
                       KEYWORDS_MAX, KEYWORDS_MAX + w->dropped_keywords);
}

/* A NUL-terminated packet (some writers count the terminator): the NULs are not XML. UTF-16 ends in NULs. */
static size_t without_trailing_nuls(const uint8_t *bytes, size_t length) {
    if (length >= 2 && (bytes[0] == 0 || bytes[1] == 0 || (bytes[0] == 0xFF && bytes[1] == 0xFE)
                        || (bytes[0] == 0xFE && bytes[1] == 0xFF))) return length;
    while (length > 0 && bytes[length - 1] == 0) length--;
    return length;
}

static void parse(walk *w, const uint8_t *bytes, size_t length) {
    XML_SetUserData(w->parser, w);
    XML_SetElementHandler(w->parser, on_start, on_end);
    XML_SetCharacterDataHandler(w->parser, on_text);
    XML_SetStartDoctypeDeclHandler(w->parser, on_doctype);
    /* Never XML_SetExternalEntityRefHandler: nothing outside the packet is ever read. */
    size_t at = 0;
    do {
        size_t n = length - at < FEED ? length - at : FEED;
        int last = at + n == length;
        if (XML_Parse(w->parser, (const char *)bytes + at, (int)n, last) != XML_STATUS_OK) {
            if (w->refusal[0] != '\0') return;
            if (w->memory.refused) {
                refuse(w, "it needs more than 16 MiB of memory to read");
                return;
            }
            snprintf(w->refusal, sizeof w->refusal, "it is not well-formed XML (line %lu, column %lu: %s)",
                     (unsigned long)XML_GetCurrentLineNumber(w->parser),
                     (unsigned long)XML_GetCurrentColumnNumber(w->parser) + 1,
                     XML_ErrorString(XML_GetErrorCode(w->parser)));
            return;
        }
        at += n;
    } while (at < length);
}

void wf_read_xmp_memory(const uint8_t *bytes, size_t length, size_t max_length, wf_metadata_field *records) {
    length = without_trailing_nuls(bytes, length);
    if (length > max_length) {
        wf_records_say(records, WF_RECORD_XMP, WF_RECORD_REFUSED, "it is larger than %zu MiB (%zu bytes)",
                       max_length >> 20, length);
        return;
    }
    if (length == 0) {
        wf_records_say(records, WF_RECORD_XMP, WF_RECORD_REFUSED, "it is empty");
        return;
    }
    walk *w = calloc(1, sizeof *w);
    if (!w) return;
    w->current = P_NONE;
    wf_memory_budget_enter(&w->memory, MEMORY_MAX, 0);
    w->parser = XML_ParserCreate_MM(NULL, &counted, " ");
    if (!w->parser) {
        wf_records_say(records, WF_RECORD_XMP, WF_RECORD_REFUSED, "out of memory");
    } else {
        parse(w, bytes, length);
        if (w->refusal[0] != '\0') wf_records_add(records, WF_RECORD_XMP, WF_RECORD_REFUSED, w->refusal, strlen(w->refusal));
        else emit(w, records);
        XML_ParserFree(w->parser);
    }
    wf_memory_budget_leave(&w->memory);
    for (int p = 0; p < P_COUNT; p++) free(w->items[p]);
    free(w);
}
