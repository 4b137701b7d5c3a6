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

/* What the file's first bytes say it is. JPEG, PNG, HEIC, AVIF, WebP, GIF, TIFF (classic and BigTIFF) and
 * BMP are read; the rest are named in errors. */
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
    WF_FORMAT_QOI,
    /* Videos: read by ffprobe and ffmpeg (Swift's Video folder), never by this library. */
    WF_FORMAT_VIDEO_ISO,      /* MP4, QuickTime MOV, M4V, 3GP: ISO base media with a brand that is not HEIF's or AVIF's */
    WF_FORMAT_VIDEO_MATROSKA, /* WebM, MKV */
    WF_FORMAT_VIDEO_AVI,
    WF_FORMAT_VIDEO_OGG,      /* Ogg (Theora): .ogv */
    WF_FORMAT_VIDEO_MPEG_TS,  /* MPEG transport stream, and BDAV's with 4-byte time codes: a camcorder's .mts, .m2ts */
    WF_FORMAT_VIDEO_MPEG_PS,  /* MPEG program stream: .mpg, .mpeg, .vob */
    WF_FORMAT_VIDEO_ASF,      /* Windows Media: .wmv, .asf */
    WF_FORMAT_VIDEO_FLV       /* Flash video: .flv */
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

/* Everything the header tells. Width and height are as stored, before EXIF orientation. HEIC and AVIF
 * report their display size (the primary image with `clap`, `irot` and `imir` applied, as libheif and the
 * browsers show it) and orientation 1: their EXIF orientation is informative only. */
typedef struct {
    wf_status status;
    wf_format format;
    uint32_t width;
    uint32_t height;
    int32_t orientation;   /* 1-8; 1 when absent or invalid */
    int32_t animated;      /* GIF and WebP: more than one frame */
    uint32_t frames;       /* frames counted from the headers of their blocks or chunks (1 for a still) */
    int32_t alpha;         /* the image may be see-through: an alpha channel, a PNG's tRNS, a GIF's transparent colour */
    int32_t components;    /* JPEG: 1, 3 or 4; PNG: channels; others: 3, or 4 with alpha */
    int32_t progressive;   /* JPEG: progressive (SOF2/SOF10); PNG: interlaced */
    int32_t bit_depth;     /* bits a sample as stored (HEIF: 8, 10 or 12) */
    int32_t warnings;      /* recoverable oddities libjpeg/libpng reported (extraneous bytes, ...) */
    uint64_t bytes_read;   /* how much of the file was read: the header reader's whole point */
    uint8_t magic[8];      /* the first bytes, for "starts with ..." messages */
    uint32_t magic_length;
    char message[200];     /* why, when status != WF_OK */
} wf_header;

/* What a file's first bytes say it is (give it the first block: 64 bytes tell every format). */
wf_format wf_sniff(const uint8_t *bytes, size_t length);

/* Reads the header of the file at `path`. Never reads the pixel data, never prints. */
void wf_read_header_path(const char *path, wf_header *out);

/* The same reader over an open file, from its start (pread: the file's offset is not moved, nor is it closed). */
void wf_read_header_fd(int fd, wf_header *out);

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

/* ---- Derived images (thumbnails) ---- */

typedef enum {
    WF_DERIVE_OK = 0,
    WF_DERIVE_ERR_READ,        /* the header reader refused the source: `source.status` and `message` say why */
    WF_DERIVE_ERR_TOO_LARGE,   /* over the pixel cap: refused before anything was decoded */
    WF_DERIVE_ERR_TRUNCATED,   /* the image data ends early */
    WF_DERIVE_ERR_CORRUPT,     /* damaged image data (bad checksum, bad entropy code, ...) */
    WF_DERIVE_ERR_UNSUPPORTED, /* a JPEG colour space we do not convert */
    WF_DERIVE_ERR_LIMIT,       /* over the scan or memory limit while decoding, or out of memory */
    WF_DERIVE_ERR_WRITE,       /* the encoder could not make the output */
    WF_DERIVE_ERR_REQUEST,     /* the request makes no sense (no box, quality out of range) */
    WF_DERIVE_ERR_SAVE         /* the path-based wrappers (wf_derive, wf_derive_set) could not save the file */
} wf_derive_status;

/* The defaults of a request's fields, and Waterfall's (Swift's ThumbnailRequest and HeaderReader take them
 * from here): the JPEG quality, the WebP quality and AVIF speed calibrated against it on SSIMULACRA2
 * (Benchmarks/calibration/results.md), the progressive JPEG's scan limit, the pixel cap and a decode's memory. */
enum {
    WF_DEFAULT_QUALITY = 82,
    WF_DEFAULT_WEBP_QUALITY = 88,
    WF_DEFAULT_AVIF_SPEED = 9,
    WF_DEFAULT_MAX_SCANS = 100,
    WF_DEFAULT_MAX_PIXELS = 250000000,
    WF_DEFAULT_MAX_MEMORY = 512 << 20
};

/* What to make. Zero means "the default" in every field, so `{.max_width = 800}` is a complete request. */
typedef struct {
    uint32_t max_width;    /* the box, in display (upright) orientation; 0 = unbounded on that axis, */
    uint32_t max_height;   /* but at least one must be set. Never upscales. */
    int32_t quality;       /* 1-100 for every format; 0 = the format's default: JPEG 82, WebP 88, AVIF
                              wf_avif_matched_quality(speed): WebP's and AVIF's match the JPEG's SSIMULACRA2 */
    int32_t force_png;     /* 1: write PNG even when opaque (lossless output, used by the quality tests); only
                              with encode_format 0 */
    uint64_t max_pixels;   /* stored width × height refused before decoding; 0 = 250,000,000 */
    uint32_t max_scans;    /* a JPEG with more scans than this is refused (progressive bombs); 0 = 100 */
    uint64_t max_memory;   /* bytes libjpeg may use for a whole-image coefficient buffer; 0 = 512 MiB */
    int32_t animate;       /* 1: an animated source (GIF, WebP) becomes an animated WebP fitting the box; a
                              still source is made as usual */
    int32_t encode_format; /* 0: JPEG when opaque, PNG when some alpha < 255 (the automatic choice);
                              WF_FORMAT_WEBP: lossy WebP, alpha kept (losslessly) when used;
                              WF_FORMAT_AVIF: AVIF (AV1 by libaom, 4:2:0, or 4:0:0 for gray), alpha kept
                              (losslessly) when used. Anything else is refused. An animation made with `animate`
                              is an animated WebP whatever this says (its default quality: 82 with 0, else 75). */
    int32_t speed;         /* AVIF encoder speed 1-10 (libavif's scale: faster, larger; libavif 0.11 gives 10 the
                              same libaom setting as 9); 0 = 9. Ignored by
                              the other formats. The quality maps to the AV1 quantizer as libavif 1.0 maps its
                              `quality`: quantizer = ((100 - quality) * 63 + 50) / 100 (alpha: 0, lossless). */
    int32_t no_planes;     /* 1: a YCbCr JPEG made JPEG goes through RGB, as every other source does, instead of
                              staying in its Y, Cb and Cr planes (the tests' reference for the planar route) */
} wf_derive_request;

/* The AVIF quality (1-100, as `quality`) that scores like the JPEG q82 on SSIMULACRA2 at a libavif speed
 * (0 = the default, 9): the one quality per speed whose median score over 22 real photographs' 500 px tiles
 * is at least the JPEG's (Benchmarks/calibration/results.md). Slower speeds code the same quantizer better,
 * so they match at a lower quality: 83 at speed 9 and 10 (which also use quantisation matrices), 78 at 8,
 * 76 at 7, 73 at 6; speeds 1-5 were not measured and get speed 6's. */
int32_t wf_avif_matched_quality(int32_t speed);

typedef struct {
    wf_derive_status status;
    wf_header source;      /* the header reader's answer for the source (size as stored, orientation) */
    uint32_t width;        /* the output, upright (orientation applied; the file carries no tag) */
    uint32_t height;
    wf_format output_format; /* what was written: WF_FORMAT_JPEG (opaque), WF_FORMAT_PNG (some alpha < 255),
                                WF_FORMAT_WEBP (encode_format WEBP, or an animation with `animate`), or
                                WF_FORMAT_AVIF (encode_format AVIF) */
    uint32_t frames;       /* frames in the output: 1, or an animation's count */
    int32_t channels;      /* the pixels encoded: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA (WebP stores gray as RGB) */
    int32_t scale_denom;   /* JPEG DCT scaling used: 1, 2, 4 or 8; 1 for PNG; 0 when nothing was decoded */
    int32_t icc_length;    /* bytes of ICC profile carried into the output, 0 if none */
    int32_t warnings;      /* recoverable oddities (benign PNG chunk errors, dropped ICC profile, ...) */
    int32_t has_average;   /* 1 when average_rgb holds the still's average colour (0: all transparent, or an
                              animation, whose tile is the still that has it) */
    uint8_t average_rgb[3]; /* the mean colour, weighted by alpha, in the output colour space: one per set, from
                               its smallest still (a resample keeps the mean) */
    int32_t sketch_length; /* bytes of `sketch`, 0 when none: an opaque still's smallest image only */
    uint8_t sketch[256];   /* a PNG of the still's colours on a grid of 8 cells on the long side, upright: what
                              a page shows inline until the image arrives */
    int32_t copied;        /* 1: a JPEG written from the source's own DCT coefficients (lossless: the photo at
                              its own size and upright, stored no finer than the requested quality) */
    int32_t planes;        /* 1: made from Y, Cb and Cr planes (a YCbCr JPEG's own, or RGB split as decoded),
                              never converted to RGB on the way to the encoder */
    char message[200];     /* one line, why, when status != WF_DERIVE_OK; when it is OK, a warning for the
                              user or empty (an ICC profile over the cap, left out of the image) */
    /* Where the time went, in nanoseconds of the calling thread's clock. A set's one decode (resampling
     * excluded) is counted on its first result only; each result counts its own resampling (the first
     * size's includes the streaming resample during the decode) and its own encode and write. */
    uint64_t decode_ns;
    uint64_t resample_ns;
    uint64_t encode_ns;
} wf_derive_result;

/* An encoded image in memory (malloc'd); wf_encoded_free frees it and zeroes the struct. */
typedef struct {
    uint8_t *bytes;
    size_t length;
} wf_encoded;

void wf_encoded_free(wf_encoded *encoded);

/*
 * Makes one derived image: decodes `source` (JPEG at a DCT scale, or PNG), resamples it with Lanczos-3 to
 * fit the request's box, turns it upright by its EXIF orientation, keeps its ICC profile and nothing else,
 * and writes `output` (JPEG when opaque, PNG when any pixel has alpha < 255, or the request's
 * encode_format). Never prints, never exits;
 * on failure nothing is left at `output`. Reentrant.
 */
void wf_derive(const char *source, const char *output, const wf_derive_request *request, wf_derive_result *out);

/* For a process about to derive many images (a build with images to make, `resize`): freed buffers of up
 * to 32 MB stay in the heap for the next photo instead of going back to the kernel, whose fresh pages are
 * faulted in and zeroed on every use (half the system time of a GIF build). The price: a thread's freed
 * buffers wait in its own heap, a few MB more at the peak. glibc only; else nothing. */
void wf_keep_freed_buffers(void);

/*
 * Several derived images of one source from ONE decode: the largest target is decoded (at its DCT scale)
 * and resampled from the decoder; the smaller ones are resampled after it, largest first, each from the size
 * before where that is about twice as large, else from the largest, once per distinct size (the same tile in
 * JPEG, WebP and AVIF is one resample, encoded three times). `results[i]` says what became of
 * `outputs[i]`. The decoder limits (pixels, scans, memory) are taken from requests[0].
 */
void wf_derive_set(const char *source, const wf_derive_request *requests, const char *const *outputs, size_t count,
                   wf_derive_result *results);

/*
 * wf_derive_set over the open file `source` (read from its start with pread, never closed), each image encoded
 * into `outputs[i]` in memory (`count` of them, zeroed by the caller; freed with wf_encoded_free whatever the
 * status): the caller writes the files. This is what a build runs, in a decoder process (cimageio_decoder.h).
 */
void wf_derive_set_fd(int source, const wf_derive_request *requests, size_t count, wf_derive_result *results,
                      wf_encoded *outputs);

/* For tests: a whole image decoded as stored (no scaling, no orientation), JPEG or PNG, 8 bits a sample,
 * 1-4 channels as the file has them (palette and tRNS expanded). Free with wf_image_free. */
typedef struct {
    wf_derive_status status;
    uint32_t width;
    uint32_t height;
    int32_t channels;
    uint8_t *pixels;
    char message[200];
} wf_image;

void wf_decode_image(const char *path, wf_image *out);
/* For tests: the same, an AVIF always by libheif (never libavif's route), to compare the two. */
void wf_decode_image_by_libheif(const char *path, wf_image *out);
/* For tests: 1 when an AVIF goes by libavif's route (8-bit, opaque, SDR, sRGB-like or ICC), else 0. */
int wf_decodes_with_libavif(const char *path);
void wf_image_free(wf_image *image);

/* `image` (1-4 channels) resampled to out_width × out_height: wf_derive's cascade from its largest image to
 * the smaller ones. For tests, `portable` runs the portable kernels even where faster ones run (they must
 * give the same bits). NULL when out of memory; free() the result. */
uint8_t *wf_resample_image(const uint8_t *image, uint32_t width, uint32_t height, int channels, uint32_t out_width,
                           uint32_t out_height, int portable);

/* For tests: the JPEG encoder of derived images on interleaved pixels (1 or 3 channels, as wf_derive writes
 * them) or on planes (3: Y width × height, Cb and Cr ceil(width / 2) × ceil(height / 2); or 1: gray). With
 * `portable` the portable kernels run even where faster ones would (both must give the same bytes). */
wf_derive_status wf_encode_jpeg_for_tests(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height,
                                          int32_t channels, int32_t quality, const uint8_t *icc, size_t icc_length,
                                          int32_t portable, char *message, size_t size);
wf_derive_status wf_encode_jpeg_planes_for_tests(const char *path, uint8_t *const *pixels, const uint32_t *widths,
                                                 const uint32_t *heights, int32_t plane_count, int32_t quality,
                                                 const uint8_t *icc, size_t icc_length, int32_t portable,
                                                 char *message, size_t size);
/* For tests: `count` 8×8 blocks side by side (8 rows of 8 × count samples, `stride` apart) through the JPEG
 * encoder's DCT and quantisation for `quality`'s luminance (chroma 0) or chrominance table: 64 coefficients
 * a block in natural order, and each block's mask of nonzero coefficients in zigzag order. 0 on success. */
int32_t wf_jpeg_quantize_for_tests(const uint8_t *samples, size_t stride, uint32_t count, int32_t quality,
                                   int32_t chroma, int32_t portable, int16_t *coefficients, uint64_t *masks);
/* For tests: the kernels the encoder and the resampler run here: 1 AVX2, 0 portable. */
int32_t wf_jpeg_kernels_for_tests(void);

/* For tests: the ICC profile of a JPEG (libjpeg's jpeg_read_icc_profile), PNG (libpng's iCCP), WebP
 * (libwebpmux's ICCP chunk) or HEIF/AVIF (libheif's raw colour profile), as an independent check of what
 * wf_derive wrote. Returns the profile's length (copying at most `capacity`
 * bytes), 0 when there is none. */
size_t wf_read_icc_profile(const char *path, uint8_t *buffer, size_t capacity);

/* A 128-bit content hash (not cryptographic) of an open file, read from offset 0 with pread (the file offset
 * is not moved). 0 on success, -1 when it cannot be read. */
int wf_hash_fd(int fd, uint64_t hash[2]);

/* Opens `relative` (a path inside the folder open as `folder`) for reading, non-blocking, without following a
 * symbolic link anywhere on the way nor leaving the folder (openat2's RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS,
 * or one component at a time with O_NOFOLLOW where the kernel lacks it). The descriptor, or -1 with errno:
 * ELOOP when a link is on the way, EXDEV for a way out (`..`, an absolute path). */
int wf_open_beneath(int folder, const char *relative);

/* renameat(2) that never replaces: -1 with errno EEXIST when `to` exists (a link included). */
int wf_rename_noreplace(int from_folder, const char *from, int to_folder, const char *to);

/* The same hash of bytes in memory: a file holding exactly these bytes hashes the same. */
void wf_hash_bytes(const uint8_t *bytes, size_t length, uint64_t hash[2]);

/* ---- Photo metadata: the bytes behind EXIF facts and captions (parsed, bounded, in Swift) ---- */

/* One value's bytes, copied into the caller's buffer. The caller sets `bytes` and `capacity`; the reader
 * sets `length` (bytes written, at most `capacity`) and `total` (the value's size in the file, so
 * `total > length` says it was cut). */
typedef struct {
    uint8_t *bytes;
    size_t capacity;
    size_t length;
    size_t total;
} wf_metadata_field;

/*
 * What a photo carries for its page. `exif` is the TIFF structure of the first "Exif\0\0" APP1 before SOS
 * (JPEG; at most 65527 bytes, the most one segment holds) or of the first eXIf chunk before IDAT (PNG).
 * `description` and `title` are the text of the first non-empty PNG tEXt, zTXt or iTXt chunk before IDAT
 * with keyword "Description" or "Title" (ASCII case ignored): raw bytes, Latin-1 by the PNG specification
 * for tEXt and zTXt, UTF-8 for iTXt, so the caller decodes. A tEXt or zTXt chunk over 64 KiB, an iTXt
 * over 1 MiB (it may hold the XMP packet), or one that inflates past 1 MiB, is skipped; at most 32 text
 * chunks are looked at.
 * Values found before a failure are kept: `status` says how the read ended, not whether they are there.
 */
typedef struct {
    wf_status status;
    wf_format format;
    wf_metadata_field exif;
    wf_metadata_field description;
    wf_metadata_field title;
    wf_metadata_field records; /* what XMP and IPTC say: wf_metadata_record entries (below) */
    int32_t warnings;      /* recoverable oddities libjpeg/libpng reported (skipped chunks, bad CRCs, ...) */
    char message[200];     /* why, when status != WF_OK */
} wf_metadata;

/*
 * `records`: what the file's XMP packet (JPEG APP1, PNG iTXt "XML:com.adobe.xmp", WebP "XMP ", HEIF's
 * application/rdf+xml item, TIFF tag 700) and IPTC IIM (JPEG APP13, TIFF tag 33723, PNG "Raw profile type
 * iptc") say, parsed in C (xmp/, iptc/) into a list of
 * entries, each a wf_metadata_record header then `length` bytes of UTF-8, one after another. Entries that do
 * not fit are left out whole (`total` then exceeds `length`). Never a location: only the fields below are read.
 */
typedef enum {
    WF_RECORD_XMP = 1,
    WF_RECORD_IPTC = 2,
} wf_record_source;

typedef enum {
    WF_RECORD_TITLE = 1,
    WF_RECORD_DESCRIPTION,
    WF_RECORD_KEYWORD,          /* one entry per keyword, in order */
    WF_RECORD_RATING,           /* XMP's xmp:Rating as written ("3", "-1", "4.0") */
    WF_RECORD_CREATOR,          /* one entry per name, in order */
    WF_RECORD_RIGHTS,
    WF_RECORD_DATE,             /* the first of exif:DateTimeOriginal, photoshop:DateCreated, xmp:CreateDate
                                   (ISO 8601 as written); IIM's 2:55 + 2:60 as "YYYYMMDD" and "HHMMSS..." */
    WF_RECORD_REFUSED = 14,     /* the source is not used at all: why (one line) */
    WF_RECORD_NOTE = 15,        /* the source is used, with a limit hit: what (one line) */
} wf_record_field;

typedef struct {
    uint8_t source; /* wf_record_source */
    uint8_t field;  /* wf_record_field */
    uint16_t reserved;
    uint32_t length;
} wf_metadata_record;

/* The limits XMP is read under (xmp/xmp_rdf.c; docs/metadata.md). */
#define WF_XMP_EMBEDDED_MAX (1u << 20)
#define WF_XMP_SIDECAR_MAX (4u << 20)

/* Parses an XMP packet (at most `max_length` bytes) into `records` (WF_RECORD_XMP entries); a packet that is
 * refused gives one WF_RECORD_REFUSED entry. For sidecars, tests and fuzzing. */
void wf_read_xmp_memory(const uint8_t *bytes, size_t length, size_t max_length, wf_metadata_field *records);

/* Parses an IPTC IIM stream into `records` (WF_RECORD_IPTC entries), after checking it (iptc/iim_read.c). */
void wf_read_iim_memory(const uint8_t *bytes, size_t length, wf_metadata_field *records);

/* Reads the metadata of the file at `path` without decoding pixels (JPEG: up to SOS; PNG: up to IDAT).
 * Never prints, never exits. Set the four fields' `bytes` and `capacity` first (a capacity of 0 is
 * allowed: `total` is still reported). */
void wf_read_metadata_path(const char *path, wf_metadata *metadata);

/* The same over an open file, from its start (not moved, not closed). */
void wf_read_metadata_fd(int fd, wf_metadata *metadata);

/* The same reader over bytes in memory (tests, fuzzing). */
void wf_read_metadata_memory(const uint8_t *bytes, size_t length, wf_metadata *metadata);

#ifdef __cplusplus
}
#endif

#endif
