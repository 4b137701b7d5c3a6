/* A HEIF's item graph from its boxes (see heif_graph.h): items from `iinf`, edges from `iref`, one depth-first
 * walk that finds rings, depths and how many coded images the primary is made of. Linear in the boxes read:
 * items are looked up in a sorted list, edges kept per item, every item visited once. */
#include "heif_graph.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOURCC(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))
#define WINDOW (64u << 10)
/* libheif 1.15 refuses a box of more children than this (MAX_CHILDREN_PER_BOX): no need to walk further. */
#define LIBHEIF_MAX_CHILDREN 20000u
/* Where image counts stop growing (a grid of grids of 2,048 tiles each names 2,048^6 images). */
#define SATURATED (UINT64_C(1) << 40)

/* Reads served from one window of the file, refilled where a read leaves it, with as much of the region
 * being walked (`end`: a top-level box header, or a meta box) as fits: nothing past it is read. */
typedef struct {
    wf_stream *stream;
    uint64_t size;
    uint64_t end;
    uint64_t start;
    size_t length;
    uint8_t bytes[WINDOW];
} window;

typedef struct {
    uint32_t type;
    uint64_t payload, end; /* the payload's first byte, and the box's end */
} box;

typedef struct {
    uint32_t from, to; /* item ids; then indices into `ids` */
} edge;

typedef struct {
    window w;
    wf_heif_refusal *refusal;
    uint32_t ids[WF_HEIF_MAX_ITEMS + 1];
    size_t id_count;
    edge edges[WF_HEIF_MAX_REFERENCES + 1];
    size_t edge_count;
    uint32_t reference_count; /* every reference, followed or not */
    uint32_t primary;
    int has_primary;
    /* The walk: edges by item (first[i] .. first[i + 1]), and each item's state. */
    uint32_t first[WF_HEIF_MAX_ITEMS + 2];
    uint32_t targets[WF_HEIF_MAX_REFERENCES + 1];
    uint8_t colour[WF_HEIF_MAX_ITEMS + 1]; /* 0 unseen, 1 on the walk's path, 2 done */
    uint32_t depth[WF_HEIF_MAX_ITEMS + 1];
    uint64_t images[WF_HEIF_MAX_ITEMS + 1]; /* images a decode of the item decodes, itself included */
    uint32_t path[WF_HEIF_MAX_ITEMS + 1], next_edge[WF_HEIF_MAX_ITEMS + 1];
} graph;

static int refuse(graph *g, wf_status status, const char *format, ...) __attribute__((format(printf, 3, 4)));
static int refuse(graph *g, wf_status status, const char *format, ...) {
    g->refusal->status = status;
    va_list args;
    va_start(args, format);
    vsnprintf(g->refusal->message, sizeof g->refusal->message, format, args);
    va_end(args);
    return -1;
}

/* `length` (at most 16) bytes at `at`, or NULL past the end of the file or on a read error. */
static const uint8_t *bytes_at(window *w, uint64_t at, size_t length) {
    if (at > w->size || w->size - at < length) return NULL;
    if (at < w->start || at + length > w->start + w->length) {
        uint64_t wanted = w->end > at ? w->end - at : 0;
        if (wanted < length) wanted = length;
        if (wanted > WINDOW) wanted = WINDOW;
        w->start = at;
        w->length = wf_stream_read_at(w->stream, at, w->bytes, (size_t)wanted);
        if (w->length < length) return NULL;
    }
    return w->bytes + (at - w->start);
}

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* A 2- or 4-byte number at *at, below `end`; advances *at. */
static int number(window *w, uint64_t *at, uint64_t end, unsigned size, uint32_t *value) {
    if (*at > end || end - *at < size) return 0;
    const uint8_t *p = bytes_at(w, *at, size);
    if (!p) return 0;
    *value = size == 2 ? be16(p) : be32(p);
    *at += size;
    return 1;
}

/* The box at `at`, inside [at, end): 0 when its header does not fit or it runs past `end` (libheif stops
 * reading there; so does every walk here). A length of 0 runs to `end`. */
static int box_at(window *w, uint64_t at, uint64_t end, box *b) {
    if (at > end || end - at < 8) return 0;
    const uint8_t *p = bytes_at(w, at, 8);
    if (!p) return 0;
    uint64_t length = be32(p);
    unsigned header = 8;
    b->type = be32(p + 4);
    if (length == 1) {
        if (end - at < 16 || !(p = bytes_at(w, at + 8, 8))) return 0;
        length = (uint64_t)be32(p) << 32 | be32(p + 4);
        header = 16;
    } else if (length == 0) {
        length = end - at;
    }
    if (length < header || length > end - at) return 0;
    b->payload = at + header;
    b->end = at + length;
    return 1;
}

/* The child box at `at` inside a box whose payload ends at `end`: 1 and `b`, 0 at the end, -1 when it is
 * damaged (a size under its header, 0, past its parent, or a few stray bytes). libheif refuses some such
 * children and misreads others (a child smaller than its header is parsed as if it ran on for ever), so
 * where the item graph lives they are refused outright. */
static int child_at(graph *g, uint64_t at, uint64_t end, box *b) {
    if (at == end) return 0;
    if (end - at >= 8) {
        const uint8_t *p = bytes_at(&g->w, at, 4);
        if (p && be32(p) != 0 && box_at(&g->w, at, end, b)) return 1;
    }
    return -1;
}

/* A damaged box where the item graph lives, unless the bytes could not be read at all (that is an I/O error
 * for the reader to report, not damage). */
static int refuse_damaged(graph *g, uint32_t parent) {
    if (g->w.stream->read_errno != 0) return 0;
    char name[5] = {(char)(parent >> 24), (char)(parent >> 16), (char)(parent >> 8), (char)parent, '\0'};
    for (int i = 0; i < 4; i++)
        if (name[i] < 0x20 || name[i] > 0x7E) name[i] = '?';
    return refuse(g, WF_ERR_CORRUPT, "a damaged box inside its '%s' box", name);
}

/* A full box's version; its fields start 4 bytes into the payload. */
static int version_of(window *w, const box *b, unsigned *version) {
    if (b->end - b->payload < 4) return 0;
    const uint8_t *p = bytes_at(w, b->payload, 1);
    if (!p) return 0;
    *version = p[0];
    return 1;
}

static int read_primary(graph *g, const box *pitm) {
    unsigned version;
    uint64_t at = pitm->payload + 4;
    g->has_primary = version_of(&g->w, pitm, &version) && number(&g->w, &at, pitm->end, version == 0 ? 2 : 4, &g->primary);
    return 0;
}

/* Every infe's item id (libheif lists items by their infe boxes, whatever iinf's count says, unless it is 0). */
static int read_items(graph *g, const box *iinf) {
    unsigned version;
    uint32_t count;
    uint64_t at = iinf->payload + 4;
    if (!version_of(&g->w, iinf, &version) || !number(&g->w, &at, iinf->end, version == 0 ? 2 : 4, &count) || count == 0)
        return 0;
    box infe;
    int found;
    for (uint32_t children = 0; children < LIBHEIF_MAX_CHILDREN && (found = child_at(g, at, iinf->end, &infe)) != 0; children++) {
        if (found < 0) return refuse_damaged(g, FOURCC('i', 'i', 'n', 'f'));
        at = infe.end;
        if (infe.type != FOURCC('i', 'n', 'f', 'e')) continue;
        unsigned infe_version;
        uint32_t id;
        uint64_t field = infe.payload + 4;
        /* 16-bit ids up to version 2, 32-bit from 3 on (libheif reads any version past 3 as 3) */
        if (!version_of(&g->w, &infe, &infe_version) || !number(&g->w, &field, infe.end, infe_version >= 3 ? 4 : 2, &id))
            continue;
        if (g->id_count == WF_HEIF_MAX_ITEMS)
            return refuse(g, WF_ERR_UNSUPPORTED, "more than %u items (Waterfall reads at most %u)", WF_HEIF_MAX_ITEMS,
                          WF_HEIF_MAX_ITEMS);
        g->ids[g->id_count++] = id;
    }
    return 0;
}

static int count_reference(graph *g) {
    if (++g->reference_count <= WF_HEIF_MAX_REFERENCES) return 0;
    return refuse(g, WF_ERR_UNSUPPORTED, "more than %u item references (Waterfall reads at most %u)",
                  WF_HEIF_MAX_REFERENCES, WF_HEIF_MAX_REFERENCES);
}

/* Every reference counts against the limit; `dimg` (a derived image → its inputs) and `auxl` (an auxiliary
 * image → its master, kept as master → auxiliary: decoding the master decodes its alpha) are the edges a
 * decode follows; the others (thumbnails, metadata) are only counted. Read as libheif 1.15 reads them (its
 * Box_iref::parse): one after the other, each a box header (a 64-bit size and a uuid's 16 bytes included)
 * and then its fields, whatever size the header declares, until the iref box ends. */
static int read_references(graph *g, const box *iref) {
    unsigned version;
    if (!version_of(&g->w, iref, &version)) return 0;
    unsigned size = version == 0 ? 2 : 4;
    for (uint64_t at = iref->payload + 4; at < iref->end;) {
        uint32_t length, type, high, low, from, count, to;
        if (!number(&g->w, &at, iref->end, 4, &length) || !number(&g->w, &at, iref->end, 4, &type)) return 0;
        if (length == 1 && (!number(&g->w, &at, iref->end, 4, &high) || !number(&g->w, &at, iref->end, 4, &low))) return 0;
        if (type == FOURCC('u', 'u', 'i', 'd')) {
            if (iref->end - at < 16) return 0;
            at += 16;
        }
        if (!number(&g->w, &at, iref->end, size, &from) || !number(&g->w, &at, iref->end, 2, &count)) return 0;
        int dimg = type == FOURCC('d', 'i', 'm', 'g'), auxl = type == FOURCC('a', 'u', 'x', 'l');
        for (uint32_t k = 0; k < count; k++) {
            if (!number(&g->w, &at, iref->end, size, &to)) return 0;
            if (count_reference(g) != 0) return -1;
            if (dimg) g->edges[g->edge_count++] = (edge){from, to};
            else if (auxl) g->edges[g->edge_count++] = (edge){to, from};
        }
    }
    return 0;
}

/* The property associations: libheif looks each item up in every ipma entry. */
static int read_associations(graph *g, const box *iprp) {
    box child;
    uint64_t entries = 0;
    uint32_t children = 0;
    int found;
    for (uint64_t at = iprp->payload; (found = child_at(g, at, iprp->end, &child)) != 0; at = child.end) {
        if (found < 0) return refuse_damaged(g, FOURCC('i', 'p', 'r', 'p'));
        if (++children > WF_HEIF_MAX_BOXES)
            return refuse(g, WF_ERR_UNSUPPORTED, "more than %u boxes in its 'iprp' box", WF_HEIF_MAX_BOXES);
        if (child.type != FOURCC('i', 'p', 'm', 'a')) continue;
        uint64_t field = child.payload + 4;
        uint32_t count;
        if (!number(&g->w, &field, child.end, 4, &count)) continue;
        entries += count;
        if (entries > WF_HEIF_MAX_ITEMS)
            return refuse(g, WF_ERR_UNSUPPORTED, "properties for %llu items (Waterfall reads at most %u items)",
                          (unsigned long long)entries, WF_HEIF_MAX_ITEMS);
    }
    return 0;
}

static int compare_ids(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The index of item `id`, or -1 for an id no infe lists (libheif ignores or refuses such references). */
static long index_of(const graph *g, uint32_t id) {
    const uint32_t *found = bsearch(&id, g->ids, g->id_count, sizeof id, compare_ids);
    return found ? (long)(found - g->ids) : -1;
}

/* Items sorted and unique, edges between known items turned into per-item lists. */
static void index_edges(graph *g) {
    qsort(g->ids, g->id_count, sizeof *g->ids, compare_ids);
    size_t unique = 0;
    for (size_t k = 0; k < g->id_count; k++)
        if (unique == 0 || g->ids[unique - 1] != g->ids[k]) g->ids[unique++] = g->ids[k];
    g->id_count = unique;
    size_t kept = 0;
    for (size_t k = 0; k < g->edge_count; k++) {
        long from = index_of(g, g->edges[k].from), to = index_of(g, g->edges[k].to);
        if (from >= 0 && to >= 0) g->edges[kept++] = (edge){(uint32_t)from, (uint32_t)to};
    }
    g->edge_count = kept;
    memset(g->first, 0, (g->id_count + 2) * sizeof *g->first);
    for (size_t k = 0; k < kept; k++) g->first[g->edges[k].from + 2]++;
    for (size_t i = 2; i < g->id_count + 2; i++) g->first[i] += g->first[i - 1];
    for (size_t k = 0; k < kept; k++) g->targets[g->first[g->edges[k].from + 1]++] = g->edges[k].to;
}

/* The ring the walk just closed: the path from `to` up to its end, as "items 1 → 2 → 1". */
static int refuse_ring(graph *g, size_t length, uint32_t to) {
    size_t start = length;
    while (start > 0 && g->path[start - 1] != to) start--;
    start = start > 0 ? start - 1 : 0;
    char text[120] = "";
    size_t used = 0;
    for (size_t k = start; k < length && used < sizeof text; k++) {
        if (k - start == 6) {
            used += (size_t)snprintf(text + used, sizeof text - used, " → …");
            break;
        }
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%u", k == start ? "" : " → ", g->ids[g->path[k]]);
    }
    if (used < sizeof text) snprintf(text + used, sizeof text - used, " → %u", g->ids[to]);
    return refuse(g, WF_ERR_CORRUPT, "its image items refer to each other in a ring (items %s)", text);
}

/* Depth-first from `root`, without recursion: rings, each item's depth and coded images. */
static int walk_from(graph *g, uint32_t root) {
    size_t length = 0;
    g->path[length] = root;
    g->next_edge[length++] = g->first[root];
    g->colour[root] = 1;
    while (length > 0) {
        uint32_t item = g->path[length - 1];
        uint32_t edge_at = g->next_edge[length - 1];
        if (edge_at < g->first[item + 1]) {
            g->next_edge[length - 1]++;
            uint32_t to = g->targets[edge_at];
            if (g->colour[to] == 1) return refuse_ring(g, length, to);
            if (g->colour[to] == 0) {
                g->colour[to] = 1;
                g->path[length] = to;
                g->next_edge[length++] = g->first[to];
            }
            continue;
        }
        /* Every edge followed: the item is done. Its images are itself and, per use, its inputs' and its
         * auxiliary images'. */
        uint32_t depth = 0;
        uint64_t images = 1;
        for (uint32_t k = g->first[item]; k < g->first[item + 1]; k++) {
            uint32_t to = g->targets[k];
            if (g->depth[to] + 1 > depth) depth = g->depth[to] + 1;
            images += g->images[to];
            if (images > SATURATED) images = SATURATED; /* a count for the message, never a cost */
        }
        g->depth[item] = depth;
        g->images[item] = images;
        if (depth > WF_HEIF_MAX_DEPTH)
            return refuse(g, WF_ERR_UNSUPPORTED, "image items derived from each other %u deep (Waterfall reads at most %u)",
                          depth, WF_HEIF_MAX_DEPTH);
        g->colour[item] = 2;
        length--;
    }
    return 0;
}

static int check_items(graph *g) {
    index_edges(g);
    memset(g->colour, 0, g->id_count);
    for (uint32_t item = 0; item < g->id_count; item++)
        if (g->colour[item] == 0 && walk_from(g, item) != 0) return -1;
    long primary = g->has_primary ? index_of(g, g->primary) : -1;
    if (primary < 0 || g->images[primary] <= WF_HEIF_MAX_DECODED_IMAGES) return 0;
    if (g->images[primary] == SATURATED)
        return refuse(g, WF_ERR_UNSUPPORTED, "its picture is made of more than %u images (Waterfall decodes at most %u)",
                      WF_HEIF_MAX_DECODED_IMAGES, WF_HEIF_MAX_DECODED_IMAGES);
    return refuse(g, WF_ERR_UNSUPPORTED, "its picture is made of %llu images (Waterfall decodes at most %u)",
                  (unsigned long long)g->images[primary], WF_HEIF_MAX_DECODED_IMAGES);
}

/* One meta box: libheif takes the first pitm, iinf, iref and iprp of it. */
static int check_meta(graph *g, const box *meta) {
    box child, pitm = {0}, iinf = {0}, iref = {0}, iprp = {0};
    uint32_t children = 0;
    g->w.end = meta->end; /* a few KiB: read whole, as the box reader does (heif_boxes.c) */
    int found;
    if (meta->end - meta->payload < 4) return 0; /* no room for its version: libheif refuses it */
    for (uint64_t at = meta->payload + 4; (found = child_at(g, at, meta->end, &child)) != 0; at = child.end) {
        if (found < 0) return refuse_damaged(g, FOURCC('m', 'e', 't', 'a'));
        if (++children > WF_HEIF_MAX_BOXES)
            return refuse(g, WF_ERR_UNSUPPORTED, "more than %u boxes in its 'meta' box", WF_HEIF_MAX_BOXES);
        box *slot = child.type == FOURCC('p', 'i', 't', 'm') ? &pitm : child.type == FOURCC('i', 'i', 'n', 'f') ? &iinf
                  : child.type == FOURCC('i', 'r', 'e', 'f') ? &iref : child.type == FOURCC('i', 'p', 'r', 'p') ? &iprp : NULL;
        if (slot && !slot->type) *slot = child;
    }
    g->id_count = g->edge_count = 0;
    g->reference_count = 0;
    g->has_primary = 0;
    if (pitm.type && read_primary(g, &pitm) != 0) return -1;
    if (iinf.type && read_items(g, &iinf) != 0) return -1;
    if (iref.type && read_references(g, &iref) != 0) return -1;
    if (iprp.type && read_associations(g, &iprp) != 0) return -1;
    return check_items(g);
}

int wf_heif_check_graph(wf_stream *stream, int64_t size, wf_heif_refusal *refusal) {
    refusal->status = WF_OK;
    refusal->message[0] = '\0';
    if (size < 16) return 0;
    graph *g = malloc(sizeof *g);
    if (!g) return 0; /* libheif would not get far either */
    /* Field by field: a compound literal would zero the 64 KiB window too, a third of a header's time. */
    g->w.stream = stream;
    g->w.size = (uint64_t)size;
    g->w.end = g->w.start = 0;
    g->w.length = 0;
    g->refusal = refusal;
    /* libheif reads every top-level box and keeps the last meta; each one is checked. */
    int status = 0;
    box top;
    uint32_t boxes = 0;
    for (uint64_t at = 0; status == 0 && (g->w.end = at + 16, box_at(&g->w, at, (uint64_t)size, &top)); at = top.end) {
        if (++boxes > WF_HEIF_MAX_BOXES)
            status = refuse(g, WF_ERR_UNSUPPORTED, "more than %u top-level boxes", WF_HEIF_MAX_BOXES);
        else if (top.type == FOURCC('m', 'e', 't', 'a'))
            status = check_meta(g, &top);
    }
    free(g);
    return status;
}
