/* libheif over wf_stream: positions are read with pread (or from memory), so parsing the boxes costs
 * only the bytes of the boxes, never the image data. */
#include "heif_support.h"
#include "source_file.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_once_t initialised = PTHREAD_ONCE_INIT;

/* libheif wants one heif_init before use (it loads its decoders); it is reference counted and never
 * undone here: the process ends first. */
static void initialise(void) { heif_init(NULL); }

static int64_t get_position(void *self) { return ((wf_heif *)self)->position; }

/* Whether a read is image data a header-only open answers with zeros (see wf_heif_open). */
static int skipped(const wf_heif *heif, int64_t start, size_t size) {
    if (!heif->header_only) return 0;
    return size > WF_HEIF_HEADER_READ || (start >= heif->mdat_start && start + (int64_t)size <= heif->mdat_end);
}

/* `size` bytes at `start`: small reads from the block (refilled when they leave it), others directly. */
static int read_at(wf_heif *heif, int64_t start, uint8_t *data, size_t size) {
    if (size > WF_HEIF_BLOCK / 2) return wf_stream_read_at(heif->stream, (uint64_t)start, data, size) == size ? 0 : -1;
    if (start < heif->block_start || start + (int64_t)size > heif->block_start + (int64_t)heif->block_length) {
        heif->block_start = start;
        heif->block_length = wf_stream_read_at(heif->stream, (uint64_t)start, heif->block, WF_HEIF_BLOCK);
        if (heif->block_length < size) return -1;
    }
    memcpy(data, heif->block + (start - heif->block_start), size);
    return 0;
}

static int read_bytes(void *data, size_t size, void *self) {
    wf_heif *heif = self;
    if (size == 0) return 0; /* libheif asks for nothing, into no buffer */
    if (heif->position < 0 || (uint64_t)heif->position + size > (uint64_t)heif->size) return -1;
    if (skipped(heif, heif->position, size)) {
        memset(data, 0, size);
    } else if (read_at(heif, heif->position, data, size) != 0) {
        return -1;
    }
    heif->position += (int64_t)size;
    return 0;
}

static int seek(int64_t position, void *self) {
    wf_heif *heif = self;
    if (position < 0 || position > heif->size) return -1;
    heif->position = position;
    return 0;
}

static enum heif_reader_grow_status wait_for_file_size(int64_t target, void *self) {
    return target <= ((wf_heif *)self)->size ? heif_reader_grow_status_size_reached : heif_reader_grow_status_size_beyond_eof;
}

static const struct heif_reader reader = {
    .reader_api_version = 1,
    .get_position = get_position,
    .read = read_bytes,
    .seek = seek,
    .wait_for_file_size = wait_for_file_size,
};

/* The payload of the first top-level `mdat` box, found by hopping over the boxes before it. */
static void find_mdat(wf_heif *heif) {
    heif->mdat_start = heif->mdat_end = -1;
    int64_t at = 0;
    for (int boxes = 0; boxes < 64 && at + 8 <= heif->size; boxes++) {
        uint32_t type;
        uint64_t length;
        unsigned header_size;
        if (!wf_heif_box_header(heif->stream, at, &type, &length, &header_size)) return;
        int64_t payload = at + header_size;
        if (length == 0) length = (uint64_t)(heif->size - at);
        if (length < header_size || length > (uint64_t)(heif->size - at)) return;
        if (type == 0x6D646174u) { /* mdat */
            heif->mdat_start = payload;
            heif->mdat_end = at + (int64_t)length;
            return;
        }
        at += (int64_t)length;
    }
}

int wf_heif_open(wf_heif *heif, wf_stream *stream, int header_only, struct heif_error *error) {
    pthread_once(&initialised, initialise);
    memset(heif, 0, sizeof *heif);
    heif->stream = stream;
    heif->header_only = header_only;
    heif->size = wf_stream_size(stream);
    heif->mdat_start = heif->mdat_end = -1;
    if (heif->size < 0) {
        *error = (struct heif_error){heif_error_Input_does_not_exist, heif_suberror_Unspecified, "not a regular file"};
        return -1;
    }
    /* Rings and absurd item graphs crash, hang or stall libheif 1.15: they never reach it. */
    if (wf_heif_check_graph(stream, heif->size, &heif->refusal) != 0) {
        *error = (struct heif_error){heif->refusal.status == WF_ERR_CORRUPT ? heif_error_Invalid_input : heif_error_Unsupported_feature,
                                     heif_suberror_Unspecified, heif->refusal.message};
        return -1;
    }
    if (header_only) find_mdat(heif);
    heif->context = heif_context_alloc();
    if (!heif->context) {
        *error = (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
        return -1;
    }
    heif_context_set_maximum_image_size_limit(heif->context, WF_HEIF_MAX_SIDE);
    *error = heif_context_read_from_reader(heif->context, &reader, heif, NULL);
    if (error->code != heif_error_Ok) return -1;
    *error = heif_context_get_primary_image_handle(heif->context, &heif->primary);
    return error->code == heif_error_Ok ? 0 : -1;
}

void wf_heif_close(wf_heif *heif) {
    if (heif->primary) heif_image_handle_release(heif->primary);
    if (heif->context) heif_context_free(heif->context);
    heif->primary = NULL;
    heif->context = NULL;
}

/* Whether the file ends inside one of its top-level boxes (libheif then often reports a box as missing
 * rather than cut short); fills `kind` with the box's type. */
static int ends_inside_a_box(wf_stream *stream, int64_t size, char kind[5]) {
    uint64_t at = 0;
    for (int boxes = 0; boxes < 10000 && at + 8 <= (uint64_t)size; boxes++) {
        uint32_t type;
        uint64_t length;
        unsigned header_size;
        if (!wf_heif_box_header(stream, (int64_t)at, &type, &length, &header_size)) return 0;
        if (length == 0) return 0; /* to the end of the file */
        if (length < 8) return 0;
        if (length > (uint64_t)size - at) {
            for (int i = 0; i < 4; i++) {
                uint8_t byte = (uint8_t)(type >> (24 - 8 * i));
                kind[i] = byte >= 0x20 && byte < 0x7F ? (char)byte : '?';
            }
            kind[4] = '\0';
            return 1;
        }
        at += length;
    }
    /* A file shorter than one box header is cut short too. */
    if (at < 8 && (uint64_t)size < 8) {
        snprintf(kind, 5, "ftyp");
        return 1;
    }
    return 0;
}

int wf_heif_box_header(wf_stream *stream, int64_t at, uint32_t *type, uint64_t *length, unsigned *header_size) {
    uint8_t header[16];
    if (at < 0 || wf_stream_read_at(stream, (uint64_t)at, header, 8) != 8) return 0;
    *length = (uint64_t)header[0] << 24 | (uint64_t)header[1] << 16 | (uint64_t)header[2] << 8 | header[3];
    *type = (uint32_t)header[4] << 24 | (uint32_t)header[5] << 16 | (uint32_t)header[6] << 8 | header[7];
    *header_size = 8;
    if (*length == 1) {
        if (wf_stream_read_at(stream, (uint64_t)at + 8, header + 8, 8) != 8) return 0;
        *length = 0;
        for (int i = 8; i < 16; i++) *length = *length << 8 | header[i];
        *header_size = 16;
    }
    return 1;
}

wf_status wf_heif_status(struct heif_error error) {
    switch (error.code) {
    case heif_error_Ok: return WF_OK;
    case heif_error_Input_does_not_exist: return WF_ERR_IO;
    case heif_error_Unsupported_filetype:
    case heif_error_Unsupported_feature: return WF_ERR_UNSUPPORTED;
    case heif_error_Invalid_input: return error.subcode == heif_suberror_End_of_data ? WF_ERR_TRUNCATED : WF_ERR_CORRUPT;
    default: return WF_ERR_CORRUPT;
    }
}

/* libheif's message on one line: its line breaks and control characters become spaces, trailing ones go. */
static void one_line(char *text) {
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7F) *c = ' ';
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] == ' ') text[--n] = '\0';
}

/* Whether the file's major brand is an image sequence's (`avis`, `msf1`, `hevs`): libheif 1.15 reads the
 * still image such a file may also hold, and calls one without it a file of no supported brand. */
static int sequence_brand(wf_stream *stream) {
    uint8_t head[12];
    if (!stream || wf_stream_read_at(stream, 0, head, sizeof head) != sizeof head || memcmp(head + 4, "ftyp", 4) != 0) return 0;
    return memcmp(head + 8, "avis", 4) == 0 || memcmp(head + 8, "msf1", 4) == 0 || memcmp(head + 8, "hevs", 4) == 0;
}

void wf_heif_describe(const wf_heif *heif, struct heif_error error, const char *name, char *text, size_t size,
                      wf_status *status) {
    if (heif->refusal.status != WF_OK) { /* refused before libheif: a whole file, never a cut one */
        *status = heif->refusal.status;
        snprintf(text, size, "%s %s: %s", *status == WF_ERR_CORRUPT ? "corrupt" : "unsupported", name, heif->refusal.message);
        return;
    }
    char message[160];
    snprintf(message, sizeof message, "%s", error.message && error.message[0] ? error.message : "unknown error");
    one_line(message);
    wf_lowercase_first(message);
    *status = wf_heif_status(error);
    if ((error.code == heif_error_Unsupported_filetype || error.subcode == heif_suberror_No_meta_box) && sequence_brand(heif->stream)) {
        *status = WF_ERR_UNSUPPORTED;
        snprintf(text, size, "unsupported %s: an image sequence with no still image (only a sequence's still image is shown)",
                 name);
        return;
    }
    char kind[5];
    if ((*status == WF_ERR_CORRUPT || *status == WF_ERR_TRUNCATED) && heif->stream && heif->size >= 0 &&
        ends_inside_a_box(heif->stream, heif->size, kind)) {
        *status = WF_ERR_TRUNCATED;
        snprintf(text, size, "truncated %s: the file ends inside its '%s' box, after %lld bytes", name, kind,
                 (long long)heif->size);
        return;
    }
    switch (*status) {
    case WF_ERR_TRUNCATED: snprintf(text, size, "truncated %s: %s", name, message); break;
    case WF_ERR_UNSUPPORTED: snprintf(text, size, "unsupported %s: %s", name, message); break;
    case WF_ERR_IO: snprintf(text, size, "cannot read: %s", message); break;
    default: snprintf(text, size, "corrupt %s: %s", name, message); break;
    }
}
