/*
 * CImageIO: the only C in Waterfall. Everything libjpeg-turbo and libpng can longjmp out of stays behind
 * these functions; callers see plain structs and status codes, and nothing is ever printed.
 */
#ifndef CIMAGEIO_H
#define CIMAGEIO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the file's first bytes say it is. Only JPEG and PNG are read; the rest are named in errors. */
typedef enum {
    WF_FORMAT_UNKNOWN = 0,
    WF_FORMAT_JPEG,
    WF_FORMAT_PNG,
    WF_FORMAT_PNG_CGBI, /* Apple's CgBI "PNG": not a PNG any standard decoder reads */
    WF_FORMAT_GIF,
    WF_FORMAT_WEBP,
    WF_FORMAT_HEIC,
    WF_FORMAT_AVIF,
    WF_FORMAT_BMP,
    WF_FORMAT_TIFF,
    WF_FORMAT_JPEG_XL,
    WF_FORMAT_JPEG_2000,
    WF_FORMAT_ICO,
    WF_FORMAT_PSD,
    WF_FORMAT_PDF,
    WF_FORMAT_SVG,
    WF_FORMAT_QOI
} wf_format;

typedef enum {
    WF_OK = 0,
    WF_ERR_IO,          /* open/read failed: errno-style message */
    WF_ERR_DIRECTORY,   /* the path is a folder */
    WF_ERR_EMPTY,       /* zero bytes */
    WF_ERR_UNSUPPORTED, /* a format or a JPEG process we do not read */
    WF_ERR_TRUNCATED,   /* the file ends before the header does */
    WF_ERR_CORRUPT      /* the header is damaged */
} wf_status;

/* Everything the header tells. Width and height are as stored, before EXIF orientation. */
typedef struct {
    wf_status status;
    wf_format format;
    uint32_t width;
    uint32_t height;
    int32_t orientation;   /* 1-8; 1 when absent or invalid */
    int32_t components;    /* JPEG: 1, 3 or 4; PNG: channels */
    int32_t progressive;   /* JPEG: progressive (SOF2/SOF10); PNG: interlaced */
    int32_t bit_depth;
    int32_t warnings;      /* recoverable oddities libjpeg/libpng reported (extraneous bytes, ...) */
    uint64_t bytes_read;   /* how much of the file was read: the header reader's whole point */
    uint8_t magic[8];      /* the first bytes, for "starts with ..." messages */
    uint32_t magic_length;
    char message[200];     /* why, when status != WF_OK */
} wf_header;

/* Reads the header of the file at `path`. Never reads the pixel data, never prints. */
void wf_read_header_path(const char *path, wf_header *out);

/* The same reader over bytes in memory (tests, fuzzing). */
void wf_read_header_memory(const uint8_t *bytes, size_t length, wf_header *out);

/*
 * Orientation (tag 0x0112) from IFD0 of a TIFF structure: the payload of an EXIF APP1 after "Exif\0\0",
 * or a PNG eXIf chunk. Returns 1-8, or 1 for anything absent, malformed or out of range. Reads IFD0 only,
 * so the work is bounded by the segment's length: no IFD chain, no loops.
 */
int32_t wf_exif_orientation(const uint8_t *tiff, size_t length);

/*
 * How many leading bytes of a TIFF structure of `total` bytes must be read to hold IFD0, given that its
 * first `have` bytes are known. Lets a reader fetch IFD0 and skip the rest (an EXIF thumbnail, say).
 * Returns at most `total`, and `have` when nothing more is needed or can help.
 */
size_t wf_exif_ifd0_end(const uint8_t *tiff, size_t have, size_t total);

#ifdef __cplusplus
}
#endif

#endif
