/* Internal: the frames the build and a decoder process exchange (cimageio_decoder.h). Both ends are the same
 * binary, so structs travel as they lie in memory. A request carries the photo's descriptor (SCM_RIGHTS). */
#ifndef WF_DECODER_PROTOCOL_H
#define WF_DECODER_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#define WF_FRAME_MAGIC 0x57464431u /* "WFD1" */

enum {
    WF_JOB_READ = 1,   /* request: `count` descriptors (1 to WF_JOB_MAX_SOURCES) and four uint64 metadata
                          capacities (flags bit 0: metadata wanted); answer: for each descriptor in order, its
                          wf_header, wf_metadata (pointers cleared), then the four fields' bytes */
    WF_JOB_DERIVE = 2, /* request: `count` wf_derive_request; answer: `count` wf_derive_result, `count` uint64
                          lengths, then each output's bytes */
    WF_JOB_SIDECAR = 3, /* request: a sidecar's descriptor and one uint64 records capacity (an XMP sidecar);
                           answer: uint64 total, uint64 length, then the records' bytes */
    WF_JOB_MARKDOWN = 4, /* request: the Markdown's bytes (no descriptor); answer: flags the wf_markdown_status,
                            two uint64 lengths, then the HTML and the text (cimageio_markdown.h) */
};

#define WF_JOB_FIELDS 4

#define WF_JOB_WANTS_METADATA 1u
#define WF_JOB_MAX_REQUESTS 256
#define WF_JOB_MAX_SOURCES 32 /* descriptors in one READ (one SCM_RIGHTS message takes up to 253) */
#define WF_JOB_MAX_FIELD (1u << 20)
#define WF_JOB_MAX_OUTPUT ((uint64_t)1 << 32)

typedef struct {
    uint32_t magic;
    uint32_t kind;
    uint32_t count;
    uint32_t flags;
    uint64_t length; /* bytes that follow */
} wf_frame;

/* Writes all of `length` bytes (EINTR retried, SIGPIPE not raised); 0, or -1 with errno. */
int wf_frame_send_all(int socket, const void *bytes, size_t length);

/* Sends a frame with `fd` (when >= 0) attached, then `payload`; 0, or -1 with errno. */
int wf_frame_send(int socket, const wf_frame *frame, int fd, const void *payload, size_t payload_length);

/* The same with `count` descriptors attached (at most WF_JOB_MAX_SOURCES). */
int wf_frame_send_fds(int socket, const wf_frame *frame, const int *fds, size_t count, const void *payload,
                      size_t payload_length);

#endif
