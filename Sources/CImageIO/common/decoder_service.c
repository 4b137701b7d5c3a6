/*
 * The decoder process's side (cimageio_decoder.h): jobs in, plain structs and encoded bytes out, until the
 * build closes its end of the socket. Everything a hostile photo can break runs here, never in the build.
 */
#define _GNU_SOURCE
#include "cimageio_decoder.h"
#include "cimageio_markdown.h"
#include "decoder_protocol.h"
#include "metadata_readers.h"

#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int wf_frame_send_all(int socket, const void *bytes, size_t length) {
    const uint8_t *p = bytes;
    while (length > 0) {
        ssize_t n = send(socket, p, length, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        length -= (size_t)n;
    }
    return 0;
}

/* Sends the parts in as few calls as the socket takes (one, mostly: the other end wakes once), the `count`
 * descriptors attached to the first byte; 0, or -1 with errno. */
static int send_parts(int socket, const int *fds, size_t count, struct iovec *parts, int part_count) {
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(sizeof(int) * WF_JOB_MAX_SOURCES)];
    } control;
    struct msghdr message = {.msg_iov = parts, .msg_iovlen = (size_t)part_count};
    if (count > WF_JOB_MAX_SOURCES) {
        errno = EINVAL;
        return -1;
    }
    if (count > 0) {
        memset(&control, 0, sizeof control);
        message.msg_control = control.bytes;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * count);
        memcpy(CMSG_DATA(header), fds, sizeof(int) * count);
    }
    while (message.msg_iovlen > 0) {
        ssize_t n = sendmsg(socket, &message, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        message.msg_control = NULL; /* the descriptors went with the first byte */
        message.msg_controllen = 0;
        size_t sent = (size_t)n;
        while (message.msg_iovlen > 0 && sent >= message.msg_iov->iov_len) {
            sent -= message.msg_iov->iov_len;
            message.msg_iov++;
            message.msg_iovlen--;
        }
        if (message.msg_iovlen > 0) {
            message.msg_iov->iov_base = (uint8_t *)message.msg_iov->iov_base + sent;
            message.msg_iov->iov_len -= sent;
        }
    }
    return 0;
}

int wf_frame_send_fds(int socket, const wf_frame *frame, const int *fds, size_t count, const void *payload,
                      size_t payload_length) {
    struct iovec parts[2] = {{(void *)frame, sizeof *frame}, {(void *)payload, payload_length}};
    return send_parts(socket, fds, count, parts, payload_length ? 2 : 1);
}

int wf_frame_send(int socket, const wf_frame *frame, int fd, const void *payload, size_t payload_length) {
    return wf_frame_send_fds(socket, frame, &fd, fd >= 0 ? 1 : 0, payload, payload_length);
}

/* Reads exactly `length` bytes; 1 done, 0 at the end of the stream before any byte, -1 otherwise. */
static int receive_all(int socket, void *bytes, size_t length) {
    uint8_t *p = bytes;
    size_t done = 0;
    while (done < length) {
        ssize_t n = recv(socket, p + done, length - done, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n == 0 && done == 0) return 0;
        if (n <= 0) return -1;
        done += (size_t)n;
    }
    return 1;
}

/* A request's frame and the descriptors that came with it (`*count` of them, at most WF_JOB_MAX_SOURCES;
 * any more are closed); 1, 0 at the end, -1 on nonsense. */
static int receive_request(int socket, wf_frame *frame, int fds[WF_JOB_MAX_SOURCES], size_t *count) {
    *count = 0;
    struct iovec part = {frame, sizeof *frame};
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(sizeof(int) * (WF_JOB_MAX_SOURCES + 4))];
    } control;
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.bytes,
                             .msg_controllen = sizeof control.bytes};
    ssize_t n;
    do n = recvmsg(socket, &message, MSG_CMSG_CLOEXEC); while (n < 0 && errno == EINTR);
    if (n == 0) return 0;
    if (n < 0) return -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t received_count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < received_count; i++) {
            int received;
            memcpy(&received, CMSG_DATA(c) + i * sizeof(int), sizeof received);
            if (*count < WF_JOB_MAX_SOURCES) fds[(*count)++] = received;
            else close(received);
        }
    }
    if ((size_t)n < sizeof *frame && receive_all(socket, (uint8_t *)frame + n, sizeof *frame - (size_t)n) != 1) return -1;
    return frame->magic == WF_FRAME_MAGIC ? 1 : -1;
}

/* One file's answer to a read: its header, its metadata, and the fields' bytes (trimmed to their length). */
typedef struct {
    wf_header header;
    wf_metadata metadata;
    uint8_t *buffers[WF_JOB_FIELDS];
    size_t lengths[WF_JOB_FIELDS];
} read_answer;

static void read_one(int source, int wanted, const uint64_t capacities[WF_JOB_FIELDS], read_answer *a) {
    memset(a, 0, sizeof *a);
    wf_read_header_fd(source, &a->header);
    wf_metadata_field *fields[WF_JOB_FIELDS] = {&a->metadata.exif, &a->metadata.description, &a->metadata.title,
                                                &a->metadata.records};
    for (int i = 0; i < WF_JOB_FIELDS && wanted; i++) {
        uint64_t capacity = capacities[i] < WF_JOB_MAX_FIELD ? capacities[i] : WF_JOB_MAX_FIELD;
        a->buffers[i] = malloc(capacity ? capacity : 1);
        if (!a->buffers[i]) wanted = 0;
        fields[i]->bytes = a->buffers[i];
        fields[i]->capacity = capacity;
    }
    if (wanted) wf_read_metadata_fd(source, &a->metadata);
    else a->metadata.status = WF_ERR_IO;
    for (int i = 0; i < WF_JOB_FIELDS; i++) {
        a->lengths[i] = wanted ? fields[i]->length : 0;
        fields[i]->bytes = NULL;
        /* what a batch holds until it is sent is what the fields use, not their capacities */
        uint8_t *trimmed = a->buffers[i] ? realloc(a->buffers[i], a->lengths[i] ? a->lengths[i] : 1) : NULL;
        if (trimmed) a->buffers[i] = trimmed;
    }
}

/* READ of `count` sources: every answer after one frame, in one send. */
static int answer_reads(int socket, const int *sources, size_t count, const wf_frame *frame,
                        const uint64_t capacities[WF_JOB_FIELDS]) {
    read_answer *answers = calloc(count, sizeof *answers);
    struct iovec *parts = calloc(1 + count * (2 + WF_JOB_FIELDS), sizeof *parts);
    int status = -1;
    if (answers && parts) {
        int wanted = (frame->flags & WF_JOB_WANTS_METADATA) != 0;
        wf_frame reply = {WF_FRAME_MAGIC, WF_JOB_READ, (uint32_t)count, (uint32_t)wanted, 0};
        int used = 1;
        parts[0] = (struct iovec){&reply, sizeof reply};
        for (size_t f = 0; f < count; f++) {
            read_answer *a = &answers[f];
            read_one(sources[f], wanted, capacities, a);
            parts[used++] = (struct iovec){&a->header, sizeof a->header};
            parts[used++] = (struct iovec){&a->metadata, sizeof a->metadata};
            reply.length += sizeof a->header + sizeof a->metadata;
            for (int i = 0; i < WF_JOB_FIELDS; i++) {
                if (a->lengths[i]) parts[used++] = (struct iovec){a->buffers[i], a->lengths[i]};
                reply.length += a->lengths[i];
            }
        }
        status = send_parts(socket, NULL, 0, parts, used);
    }
    for (size_t f = 0; answers && f < count; f++)
        for (int i = 0; i < WF_JOB_FIELDS; i++) free(answers[f].buffers[i]);
    free(answers);
    free(parts);
    return status;
}

/* An XMP sidecar: read whole from its descriptor (at most the sidecar limit, checked as it is read). */
static int answer_sidecar(int socket, int source, uint64_t capacity) {
    if (capacity > WF_JOB_MAX_FIELD) capacity = WF_JOB_MAX_FIELD;
    size_t limit = WF_XMP_SIDECAR_MAX, length = 0;
    uint8_t *bytes = malloc(limit + 1), *records = malloc(capacity ? capacity : 1);
    wf_metadata_field field = {records, records ? capacity : 0, 0, 0};
    if (!bytes || !records) {
        wf_records_say(&field, WF_RECORD_XMP, WF_RECORD_REFUSED, "out of memory");
    } else {
        ssize_t n = 1;
        while (length <= limit && (n = pread(source, bytes + length, limit + 1 - length, (off_t)length)) != 0) {
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) break;
            length += (size_t)n;
            if (length == limit + 1) break;
        }
        if (n < 0) wf_records_say(&field, WF_RECORD_XMP, WF_RECORD_REFUSED, "cannot read it: %s", strerror(errno));
        else if (length > limit) wf_records_say(&field, WF_RECORD_XMP, WF_RECORD_REFUSED, "it is larger than 4 MiB");
        else wf_read_xmp_memory(bytes, length, limit, &field);
    }
    free(bytes);
    uint64_t sizes[2] = {field.total, field.length};
    wf_frame reply = {WF_FRAME_MAGIC, WF_JOB_SIDECAR, 0, 0, sizeof sizes + field.length};
    struct iovec parts[3] = {{&reply, sizeof reply}, {sizes, sizeof sizes}, {records, field.length}};
    int status = send_parts(socket, NULL, 0, parts, field.length ? 3 : 2);
    free(records);
    return status;
}

static int answer_derive(int socket, int source, const wf_frame *frame, const wf_derive_request *requests) {
    size_t count = frame->count;
    wf_derive_result *results = calloc(count, sizeof *results);
    wf_encoded *outputs = calloc(count, sizeof *outputs);
    uint64_t *lengths = calloc(count, sizeof *lengths);
    int status = -1;
    if (results && outputs && lengths) {
        wf_derive_set_fd(source, requests, count, results, outputs);
        wf_frame reply = {WF_FRAME_MAGIC, WF_JOB_DERIVE, (uint32_t)count, 0, count * (sizeof *results + sizeof *lengths)};
        for (size_t i = 0; i < count; i++) {
            lengths[i] = results[i].status == 0 ? outputs[i].length : 0;
            reply.length += lengths[i];
        }
        status = wf_frame_send(socket, &reply, -1, NULL, 0) == 0
                 && wf_frame_send_all(socket, results, count * sizeof *results) == 0
                 && wf_frame_send_all(socket, lengths, count * sizeof *lengths) == 0 ? 0 : -1;
        for (size_t i = 0; i < count && status == 0; i++)
            if (lengths[i]) status = wf_frame_send_all(socket, outputs[i].bytes, lengths[i]);
    }
    for (size_t i = 0; outputs && i < count; i++) wf_encoded_free(&outputs[i]);
    free(results);
    free(outputs);
    free(lengths);
    return status;
}

static int answer_markdown(int socket, const uint8_t *bytes, size_t length) {
    wf_markdown out;
    wf_markdown_render(bytes, length, &out);
    uint64_t lengths[2] = {out.html_length, out.text_length};
    wf_frame reply = {WF_FRAME_MAGIC, WF_JOB_MARKDOWN, 0, (uint32_t)out.status, sizeof lengths + lengths[0] + lengths[1]};
    int status = wf_frame_send(socket, &reply, -1, lengths, sizeof lengths) == 0
                 && (!lengths[0] || wf_frame_send_all(socket, out.html, lengths[0]) == 0)
                 && (!lengths[1] || wf_frame_send_all(socket, out.text, lengths[1]) == 0) ? 0 : -1;
    wf_markdown_free(&out);
    return status;
}

/* Ends the process as soon as the build's end of the socket closes, even in the middle of a job: a decoder
 * never outlives its build. */
static void *watch(void *argument) {
    int socket = (int)(intptr_t)argument;
    struct pollfd hangup = {socket, POLLRDHUP, 0};
    for (;;) {
        int ready = poll(&hangup, 1, -1);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0 || (hangup.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL))) _exit(0);
    }
    return NULL;
}

int wf_decoder_serve(int socket) {
    signal(SIGPIPE, SIG_IGN);
#ifdef __GLIBC__
    /* Few heaps: each thread's arena reserves 64 MB of address space, which counts against the limit. */
    mallopt(M_ARENA_MAX, 2);
#endif
    wf_keep_freed_buffers();
    pthread_t watcher;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&watcher, &attributes, watch, (void *)(intptr_t)socket) != 0) return 2;
    pthread_attr_destroy(&attributes);
    for (;;) {
        wf_frame frame;
        int sources[WF_JOB_MAX_SOURCES];
        size_t count;
        int got = receive_request(socket, &frame, sources, &count);
        if (got == 0) return 0;
        int status = -1;
        int source = count == 1 ? sources[0] : -1; /* a job of one photo has exactly one */
        if (got > 0 && frame.kind == WF_JOB_READ && count >= 1 && frame.count == count
            && frame.length == WF_JOB_FIELDS * sizeof(uint64_t)) {
            uint64_t capacities[WF_JOB_FIELDS];
            if (receive_all(socket, capacities, sizeof capacities) == 1)
                status = answer_reads(socket, sources, count, &frame, capacities);
        } else if (got > 0 && source >= 0 && frame.kind == WF_JOB_SIDECAR && frame.length == sizeof(uint64_t)) {
            uint64_t capacity;
            if (receive_all(socket, &capacity, sizeof capacity) == 1) status = answer_sidecar(socket, source, capacity);
        } else if (got > 0 && source >= 0 && frame.kind == WF_JOB_DERIVE && frame.count >= 1
                   && frame.count <= WF_JOB_MAX_REQUESTS && frame.length == frame.count * sizeof(wf_derive_request)) {
            wf_derive_request *requests = malloc(frame.length);
            if (requests && receive_all(socket, requests, frame.length) == 1)
                status = answer_derive(socket, source, &frame, requests);
            free(requests);
        } else if (got > 0 && count == 0 && frame.kind == WF_JOB_MARKDOWN && frame.length <= WF_MARKDOWN_MAX_INPUT) {
            uint8_t *bytes = malloc(frame.length ? frame.length : 1);
            if (bytes && (frame.length == 0 || receive_all(socket, bytes, frame.length) == 1))
                status = answer_markdown(socket, bytes, frame.length);
            free(bytes);
        }
        for (size_t i = 0; i < count; i++) close(sources[i]);
        if (status != 0) return 2;
    }
}
