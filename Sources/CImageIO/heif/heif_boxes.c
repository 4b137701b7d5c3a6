/* A HEIF's display size from its boxes (see heif_boxes.h). Every field is bounds-checked; anything this
 * reader does not fully understand makes it decline, never guess. */
#include "heif_boxes.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "heif_support.h"

#define FOURCC(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))
#define META_LIMIT (1u << 20)   /* a phone's meta is a few KiB; larger ones go to libheif */
#define ITEM_LIMIT 4096
#define PROPERTY_LIMIT 4096
#define ASSOCIATION_LIMIT 64
#define ALPHA_CANDIDATES 8

typedef struct {
    const uint8_t *p;
    size_t n;
} span;

typedef struct {
    uint16_t index; /* 1-based into the properties; 0 for none */
    uint8_t essential;
} association;

typedef struct {
    uint32_t id;
    size_t count;
    association list[ASSOCIATION_LIMIT];
} item_properties;

typedef struct {
    uint32_t id, type;
    uint8_t hidden, protected_;
} item_info;

typedef struct {
    span hdlr, pitm, iinf, iref, ipco, iloc;
    span ipma[4];
    size_t ipma_count;
    size_t idat_size;
    uint32_t primary, primary_type, first_tile, first_tile_type;
    uint32_t alpha_ids[ALPHA_CANDIDATES];
    size_t alpha_count;
    size_t property_count;
    size_t associated_count;
    size_t item_count;
    item_properties of_primary, of_tile, of_alpha[ALPHA_CANDIDATES];
    /* Filled up to their counts, never read past them: left uninitialised (zeroing 100 KiB per file
     * would cost more than the parse). */
    span property[PROPERTY_LIMIT];
    uint32_t property_type[PROPERTY_LIMIT];
    uint32_t associated[ITEM_LIMIT]; /* every item ipma lists, sorted */
    item_info items[ITEM_LIMIT];      /* iinf's entries, in order */
} meta_boxes;

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* An unsigned big-endian number of `size` bytes (0, 1, 2, 4 or 8) at *at in s; 0 when it does not fit. */
static int number(span s, size_t *at, unsigned size, uint64_t *value) {
    if (size > 8 || (size & (size - 1))) return 0;
    if (*at > s.n || s.n - *at < size) return 0;
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++) v = v << 8 | s.p[*at + i];
    *at += size;
    *value = v;
    return 1;
}

/* The box at *at in `outer`: its type and payload; advances *at. 0 when it does not fit. */
static int next_box(span outer, size_t *at, uint32_t *type, span *payload) {
    if (*at > outer.n || outer.n - *at < 8) return 0;
    const uint8_t *p = outer.p + *at;
    uint64_t size = be32(p);
    size_t header = 8;
    if (size == 1) {
        if (outer.n - *at < 16) return 0;
        size = (uint64_t)be32(p + 8) << 32 | be32(p + 12);
        header = 16;
    } else if (size == 0) {
        size = outer.n - *at;
    }
    if (size < header || size > outer.n - *at) return 0;
    *type = be32(p + 4);
    *payload = (span){p + header, (size_t)size - header};
    *at += (size_t)size;
    return 1;
}

/* A full box's version and flags, and the span after them. */
static int full_box(span payload, unsigned *version, uint32_t *flags, span *rest) {
    if (payload.n < 4) return 0;
    *version = payload.p[0];
    *flags = be32(payload.p) & 0xFFFFFF;
    *rest = (span){payload.p + 4, payload.n - 4};
    return 1;
}

static int collect_children(meta_boxes *m, span meta) {
    unsigned version;
    uint32_t flags, type;
    span rest, child;
    if (!full_box(meta, &version, &flags, &rest) || version != 0) return 0;
    for (size_t at = 0; at < rest.n;) {
        if (!next_box(rest, &at, &type, &child)) return 0;
        if (type == FOURCC('h', 'd', 'l', 'r')) m->hdlr = child;
        else if (type == FOURCC('p', 'i', 't', 'm')) m->pitm = child;
        else if (type == FOURCC('i', 'i', 'n', 'f')) m->iinf = child;
        else if (type == FOURCC('i', 'r', 'e', 'f')) m->iref = child;
        else if (type == FOURCC('i', 'l', 'o', 'c')) m->iloc = child;
        else if (type == FOURCC('i', 'd', 'a', 't')) m->idat_size = child.n;
        else if (type == FOURCC('i', 'p', 'r', 'p')) {
            span inner;
            for (size_t in = 0; in < child.n;) {
                if (!next_box(child, &in, &type, &inner)) return 0;
                if (type == FOURCC('i', 'p', 'c', 'o')) m->ipco = inner;
                else if (type == FOURCC('i', 'p', 'm', 'a')) {
                    if (m->ipma_count == 4) return 0;
                    m->ipma[m->ipma_count++] = inner;
                }
            }
        }
    }
    /* A picture handler, and everything an image needs. */
    return m->hdlr.n >= 12 && be32(m->hdlr.p + 8) == FOURCC('p', 'i', 'c', 't') && m->pitm.p && m->iinf.p && m->ipco.p
           && m->ipma_count > 0 && m->iloc.p;
}

static int read_primary(meta_boxes *m) {
    unsigned version;
    uint32_t flags;
    span rest;
    if (!full_box(m->pitm, &version, &flags, &rest)) return 0;
    uint64_t id;
    size_t at = 0;
    if (!number(rest, &at, version == 0 ? 2 : 4, &id)) return 0;
    m->primary = (uint32_t)id;
    return 1;
}

/* Every infe of iinf (versions 2 and 3, the ones HEIF allows), into m->items. */
static int read_item_infos(meta_boxes *m) {
    unsigned version, infe_version;
    uint32_t flags, infe_flags, type;
    span rest, infe, fields;
    if (!full_box(m->iinf, &version, &flags, &rest)) return 0;
    size_t at = version == 0 ? 2 : 4;
    if (rest.n < at) return 0;
    while (at < rest.n) {
        if (!next_box(rest, &at, &type, &infe)) return 0;
        if (type != FOURCC('i', 'n', 'f', 'e')) continue;
        if (m->item_count == ITEM_LIMIT || !full_box(infe, &infe_version, &infe_flags, &fields) || infe_version < 2) return 0;
        size_t f = 0;
        uint64_t id, protection;
        if (!number(fields, &f, infe_version == 2 ? 2 : 4, &id) || !number(fields, &f, 2, &protection) || fields.n - f < 4)
            return 0;
        m->items[m->item_count++] = (item_info){(uint32_t)id, be32(fields.p + f), infe_flags & 1, protection != 0};
    }
    return 1;
}

static const item_info *item_with_id(const meta_boxes *m, uint32_t id) {
    for (size_t k = 0; k < m->item_count; k++)
        if (m->items[k].id == id) return &m->items[k];
    return NULL;
}

/* The primary's type: listed once, neither hidden nor protected. */
static int read_items(meta_boxes *m) {
    if (!read_item_infos(m)) return 0;
    const item_info *primary = NULL;
    for (size_t k = 0; k < m->item_count; k++) {
        if (m->items[k].id != m->primary) continue;
        if (primary) return 0;
        primary = &m->items[k];
    }
    if (!primary || primary->hidden || primary->protected_) return 0;
    m->primary_type = primary->type;
    return 1;
}

/* auxl images of the primary (alpha candidates) and a grid's first tile (its bit depth is the grid's). */
static int read_references(meta_boxes *m) {
    if (!m->iref.p) return m->primary_type != FOURCC('g', 'r', 'i', 'd');
    unsigned version;
    uint32_t flags, type;
    span rest, reference;
    if (!full_box(m->iref, &version, &flags, &rest)) return 0;
    unsigned id_size = version == 0 ? 2 : 4;
    for (size_t at = 0; at < rest.n;) {
        if (!next_box(rest, &at, &type, &reference)) return 0;
        size_t r = 0;
        uint64_t from, count, to;
        if (!number(reference, &r, id_size, &from) || !number(reference, &r, 2, &count)) return 0;
        for (uint64_t k = 0; k < count; k++) {
            if (!number(reference, &r, id_size, &to)) return 0;
            if (type == FOURCC('a', 'u', 'x', 'l') && to == m->primary && m->alpha_count < ALPHA_CANDIDATES)
                m->alpha_ids[m->alpha_count++] = (uint32_t)from;
            if (type == FOURCC('d', 'i', 'm', 'g') && from == m->primary && k == 0 && !m->first_tile)
                m->first_tile = (uint32_t)to;
        }
    }
    if (m->primary_type != FOURCC('g', 'r', 'i', 'd')) return 1;
    const item_info *tile = m->first_tile ? item_with_id(m, m->first_tile) : NULL;
    if (!tile) return 0;
    m->first_tile_type = tile->type;
    return 1;
}

static int read_properties(meta_boxes *m) {
    uint32_t type;
    span payload;
    for (size_t at = 0; at < m->ipco.n;) {
        if (m->property_count == PROPERTY_LIMIT || !next_box(m->ipco, &at, &type, &payload)) return 0;
        /* libheif refuses any image over its side limit while it parses: so does this reader, by declining. */
        if (type == FOURCC('i', 's', 'p', 'e')) {
            if (payload.n < 12) return 0;
            uint32_t w = be32(payload.p + 4), h = be32(payload.p + 8);
            if (w == 0 || h == 0 || w > WF_HEIF_MAX_SIDE || h > WF_HEIF_MAX_SIDE) return 0;
        }
        m->property[m->property_count] = payload;
        m->property_type[m->property_count++] = type;
    }
    return 1;
}

static item_properties *wanted(meta_boxes *m, uint32_t id) {
    if (id == m->primary) return &m->of_primary;
    if (m->first_tile && id == m->first_tile) return &m->of_tile;
    for (size_t k = 0; k < m->alpha_count; k++)
        if (id == m->alpha_ids[k]) return &m->of_alpha[k];
    return NULL;
}

static int read_associations(meta_boxes *m) {
    for (size_t k = 0; k < m->alpha_count; k++) m->of_alpha[k].id = m->alpha_ids[k];
    for (size_t box = 0; box < m->ipma_count; box++) {
        unsigned version;
        uint32_t flags;
        span rest;
        size_t at = 0;
        uint64_t entries, id, count, value;
        if (!full_box(m->ipma[box], &version, &flags, &rest) || !number(rest, &at, 4, &entries)) return 0;
        for (uint64_t e = 0; e < entries; e++) {
            if (!number(rest, &at, version < 1 ? 2 : 4, &id) || !number(rest, &at, 1, &count)) return 0;
            item_properties *target = wanted(m, (uint32_t)id);
            if (target && target->count) return 0; /* associated twice: unusual, libheif decides */
            if (m->associated_count == ITEM_LIMIT) return 0;
            m->associated[m->associated_count++] = (uint32_t)id;
            for (uint64_t a = 0; a < count; a++) {
                if (!number(rest, &at, flags & 1 ? 2 : 1, &value)) return 0;
                unsigned bits = flags & 1 ? 15 : 7;
                association link = {(uint16_t)(value & ((1u << bits) - 1)), (uint8_t)(value >> bits)};
                if (link.index > m->property_count) return 0;
                if (target) {
                    if (target->count == ASSOCIATION_LIMIT) return 0;
                    target->list[target->count++] = link;
                }
            }
        }
    }
    return 1;
}

static int compare_ids(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* libheif refuses a file in which an item other than metadata has no properties. */
static int every_image_has_properties(meta_boxes *m) {
    size_t sorted = 1; /* encoders list items in order: then no sort is needed */
    while (sorted < m->associated_count && m->associated[sorted - 1] <= m->associated[sorted]) sorted++;
    if (sorted < m->associated_count) qsort(m->associated, m->associated_count, sizeof *m->associated, compare_ids);
    for (size_t k = 0; k < m->item_count; k++) {
        uint32_t type = m->items[k].type, id = m->items[k].id;
        if (type == FOURCC('E', 'x', 'i', 'f') || type == FOURCC('m', 'i', 'm', 'e') || type == FOURCC('u', 'r', 'i', ' '))
            continue;
        if (!bsearch(&id, m->associated, m->associated_count, sizeof id, compare_ids)) return 0;
    }
    return 1;
}

static const span *property_of(const meta_boxes *m, const item_properties *item, uint32_t type) {
    for (size_t k = 0; k < item->count; k++) {
        uint16_t index = item->list[k].index;
        if (index && m->property_type[index - 1] == type) return &m->property[index - 1];
    }
    return NULL;
}

static int bit_depth(const meta_boxes *m, const item_properties *item, uint32_t type, int *depth) {
    if (type == FOURCC('h', 'v', 'c', '1')) {
        const span *hvcc = property_of(m, item, FOURCC('h', 'v', 'c', 'C'));
        if (!hvcc || hvcc->n < 23) return 0;
        *depth = (hvcc->p[17] & 7) + 8;
        return 1;
    }
    if (type == FOURCC('a', 'v', '0', '1')) {
        const span *av1c = property_of(m, item, FOURCC('a', 'v', '1', 'C'));
        if (!av1c || av1c->n < 4) return 0;
        int high = av1c->p[2] >> 6 & 1, twelve = av1c->p[2] >> 5 & 1;
        *depth = high ? (twelve ? 12 : 10) : 8;
        return 1;
    }
    return 0;
}

/* 1 when `item` is an alpha image of the primary, 0 when it is another auxiliary image, -1 when unsure
 * (an alpha image of another size than the primary: libheif's rules decide). */
static int is_alpha(const meta_boxes *m, const item_properties *item) {
    static const char *const urns[] = {"urn:mpeg:hevc:2015:auxid:1", "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"};
    const span *auxc = property_of(m, item, FOURCC('a', 'u', 'x', 'C'));
    if (!auxc || auxc->n < 5) return 0;
    const char *urn = (const char *)auxc->p + 4;
    size_t length = strnlen(urn, auxc->n - 4);
    int alpha = 0;
    for (size_t k = 0; k < sizeof urns / sizeof *urns; k++)
        if (length == strlen(urns[k]) && memcmp(urn, urns[k], length) == 0) alpha = 1;
    if (!alpha) return 0;
    const span *own = property_of(m, item, FOURCC('i', 's', 'p', 'e'));
    const span *primary = property_of(m, &m->of_primary, FOURCC('i', 's', 'p', 'e'));
    if (!own || !primary || memcmp(own->p + 4, primary->p + 4, 8) != 0) return -1;
    return 1;
}

/* ispe, then the transformative properties in their listed order; any essential property this reader
 * does not know makes it decline. */
static int display_size(const meta_boxes *m, uint32_t *width, uint32_t *height) {
    const item_properties *item = &m->of_primary;
    const span *ispe = property_of(m, item, FOURCC('i', 's', 'p', 'e'));
    if (!ispe) return 0;
    uint32_t w = be32(ispe->p + 4), h = be32(ispe->p + 8);
    for (size_t k = 0; k < item->count; k++) {
        if (!item->list[k].index) continue;
        uint32_t type = m->property_type[item->list[k].index - 1];
        const span *p = &m->property[item->list[k].index - 1];
        if (type == FOURCC('i', 'r', 'o', 't')) {
            if (p->n < 1) return 0;
            if (p->p[0] & 1) { uint32_t t = w; w = h; h = t; }
        } else if (type == FOURCC('c', 'l', 'a', 'p')) {
            /* Whole pixels inside the image only: then every reader agrees on the crop. */
            if (p->n < 32) return 0;
            uint32_t cw = be32(p->p), cwd = be32(p->p + 4), ch = be32(p->p + 8), chd = be32(p->p + 12);
            int32_t ho = (int32_t)be32(p->p + 16), vo = (int32_t)be32(p->p + 24);
            uint32_t hod = be32(p->p + 20), vod = be32(p->p + 28);
            if (cwd != 1 || chd != 1 || hod != 1 || vod != 1 || cw == 0 || ch == 0 || cw > w || ch > h) return 0;
            if ((w - cw) % 2 || (h - ch) % 2) return 0;
            int64_t left = (int64_t)(w - cw) / 2 + ho, top = (int64_t)(h - ch) / 2 + vo;
            if (left < 0 || top < 0 || left + cw > w || top + ch > h) return 0;
            w = cw;
            h = ch;
        } else if (item->list[k].essential && type != FOURCC('i', 'm', 'i', 'r') && type != FOURCC('i', 's', 'p', 'e')
                   && type != FOURCC('h', 'v', 'c', 'C') && type != FOURCC('a', 'v', '1', 'C')
                   && type != FOURCC('c', 'o', 'l', 'r') && type != FOURCC('p', 'i', 'x', 'i')) {
            return 0;
        }
    }
    *width = w;
    *height = h;
    return 1;
}

/* Every item's data lies inside the file (libheif checks this while it opens a file, and a cut file
 * is refused there). */
static int extents_inside(const meta_boxes *m, int64_t file_size) {
    unsigned version;
    uint32_t flags;
    span rest;
    if (!full_box(m->iloc, &version, &flags, &rest) || version > 2 || rest.n < 2) return 0;
    unsigned offset_size = rest.p[0] >> 4, length_size = rest.p[0] & 15, base_size = rest.p[1] >> 4;
    unsigned index_size = version >= 1 ? rest.p[1] & 15 : 0;
    size_t at = 2;
    uint64_t items, id, method = 0, reference, base, extents, index, offset, length;
    if (!number(rest, &at, version < 2 ? 2 : 4, &items)) return 0;
    for (uint64_t i = 0; i < items; i++) {
        if (!number(rest, &at, version < 2 ? 2 : 4, &id)) return 0;
        if (version >= 1 && !number(rest, &at, 2, &method)) return 0;
        if (!number(rest, &at, 2, &reference) || !number(rest, &at, base_size, &base)
            || !number(rest, &at, 2, &extents)) return 0;
        method &= 15;
        if (reference != 0 || method > 1) return 0;
        uint64_t limit = method == 0 ? (uint64_t)file_size : m->idat_size;
        for (uint64_t e = 0; e < extents; e++) {
            if (!number(rest, &at, index_size, &index) || !number(rest, &at, offset_size, &offset)
                || !number(rest, &at, length_size, &length)) return 0;
            if (base > limit || offset > limit - base || length > limit - base - offset) return 0;
        }
    }
    return 1;
}

/* Whether an item lists the property index 0 ("none"): libheif stops looking up an item's properties at
 * it (a fuzzed file with av1C after a 0 reads as 8-bit there), so such files are libheif's to decide. */
static int lists_none(const item_properties *item) {
    for (size_t k = 0; k < item->count; k++)
        if (item->list[k].index == 0) return 1;
    return 0;
}

static int answer(meta_boxes *m, span meta, int64_t file_size, wf_heif_facts *facts) {
    if (!collect_children(m, meta) || !read_primary(m) || !read_items(m) || !read_references(m)
        || !read_properties(m) || !read_associations(m) || !every_image_has_properties(m)
        || !extents_inside(m, file_size)) return 0;
    int grid = m->primary_type == FOURCC('g', 'r', 'i', 'd');
    if (lists_none(&m->of_primary) || (grid && lists_none(&m->of_tile))) return 0;
    for (size_t k = 0; k < m->alpha_count; k++)
        if (lists_none(&m->of_alpha[k])) return 0;
    if (!grid && m->primary_type != FOURCC('h', 'v', 'c', '1') && m->primary_type != FOURCC('a', 'v', '0', '1')) return 0;
    if (!display_size(m, &facts->width, &facts->height)) return 0;
    if (!bit_depth(m, grid ? &m->of_tile : &m->of_primary, grid ? m->first_tile_type : m->primary_type, &facts->bit_depth))
        return 0;
    facts->alpha = 0;
    for (size_t k = 0; k < m->alpha_count; k++) {
        const item_info *item = item_with_id(m, m->alpha_ids[k]);
        if (!item || item->type != m->primary_type) return 0; /* an odd alpha image: libheif decides */
        int alpha = is_alpha(m, &m->of_alpha[k]);
        if (alpha < 0) return 0;
        facts->alpha |= alpha;
    }
    return 1;
}

/* A brand libheif opens, in ftyp's payload (major, minor, then the compatible brands it checks). */
static int known_brand(const uint8_t *payload, size_t length) {
    for (size_t at = 8; at + 4 <= length; at += 4) {
        uint32_t brand = be32(payload + at);
        if (brand == FOURCC('h', 'e', 'i', 'c') || brand == FOURCC('h', 'e', 'i', 'x') || brand == FOURCC('m', 'i', 'f', '1')
            || brand == FOURCC('a', 'v', 'i', 'f')) return 1;
    }
    return 0;
}

int wf_heif_quick_facts(wf_stream *stream, int64_t size, wf_heif_facts *facts) {
    if (size < 16) return 0;
    uint8_t *meta = NULL;
    size_t meta_length = 0;
    int64_t at = 0;
    /* Every top-level box must end inside the file (libheif refuses a cut one); ftyp comes first. */
    for (int count = 0; at < size; count++) {
        uint32_t type;
        uint64_t length;
        unsigned header_size;
        if (count == 64 || size - at < 8 || !wf_heif_box_header(stream, at, &type, &length, &header_size)) goto decline;
        if (length == 0) length = (uint64_t)(size - at);
        if (length < header_size || length > (uint64_t)(size - at)) goto decline;
        if (count == 0) {
            uint8_t ftyp[256];
            if (type != FOURCC('f', 't', 'y', 'p') || length > sizeof ftyp || length < 16
                || wf_stream_read_at(stream, 0, ftyp, (size_t)length) != length || !known_brand(ftyp + header_size, (size_t)length - header_size))
                goto decline;
        } else if (type == FOURCC('m', 'e', 't', 'a')) {
            if (meta || length > META_LIMIT || !(meta = malloc((size_t)length))) goto decline;
            meta_length = (size_t)length - header_size;
            if (wf_stream_read_at(stream, (uint64_t)at + header_size, meta, meta_length) != meta_length) goto decline;
        }
        at += (int64_t)length;
    }
    if (!meta) goto decline;
    meta_boxes *m = malloc(sizeof *m);
    if (m) memset(m, 0, offsetof(meta_boxes, property));
    int ok = m && answer(m, (span){meta, meta_length}, size, facts);
    free(m);
    free(meta);
    return ok;
decline:
    free(meta);
    return 0;
}
