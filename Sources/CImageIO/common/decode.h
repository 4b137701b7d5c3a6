/* Internal: what a decoder needs and nothing more: the sink it pushes rows into, the options and limits it
 * decodes under, and the outcome it reports. A decoder includes this and its own folder's headers. */
#ifndef WF_DECODE_H
#define WF_DECODE_H

#include "cimageio.h"
#include "stream.h"

/* A JPEG's stored YCbCr planes: each one's size, and how many image pixels one of its samples spans (1 for
 * Y; 2 and 2 for 4:2:0 chroma). */
typedef struct {
    uint32_t width[3], height[3];
    uint32_t step_x[3], step_y[3];
} wf_plane_layout;

/* Where a decoder puts its rows, top to bottom. */
typedef struct {
    /* The decoded size and channels (1-4, alpha last). Anything but WF_DERIVE_OK refuses the image, with
     * a message in `message`. */
    wf_derive_status (*begin)(void *self, uint32_t width, uint32_t height, int channels, char *message, size_t size);
    /* A buffer for the next row: width × channels bytes. */
    uint8_t *(*row)(void *self);
    /* The row is complete. */
    void (*commit)(void *self);
    /* Optional (NULL: RGB rows only). A JPEG stored as YCbCr, or an AVIF stored as JPEG's YCbCr (BT.601, full
     * range), hands over its planes as they are stored instead, each top to bottom: no chroma upsampling, no
     * conversion to RGB. `width` × `height` is their image before `turn` (an EXIF-numbered orientation, 1 for
     * none: an AVIF's irot and imir), which the sink applies to what it makes. */
    wf_derive_status (*begin_planes)(void *self, uint32_t width, uint32_t height, const wf_plane_layout *layout,
                                     int turn, char *message, size_t size);
    uint8_t *(*plane_row)(void *self, int plane);
    void (*plane_commit)(void *self, int plane);
    void *self;
} wf_pixel_sink;

/* What a decoder reports. The ICC profile is malloc'd; the caller frees it. */
typedef struct {
    wf_derive_status status;
    char message[200];
    int32_t warnings;
    uint8_t *icc;
    size_t icc_length;
} wf_decode_outcome;

typedef struct {
    uint32_t scale_denom; /* JPEG: 1, 2, 4 or 8 */
    uint32_t max_scans;
    uint64_t max_memory;
    int want_icc;
    int libheif_only; /* AVIF: never libavif's route (tests compare the two) */
} wf_decode_options;

void wf_outcome_fail(wf_decode_outcome *out, wf_derive_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

#endif
