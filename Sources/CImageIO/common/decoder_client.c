/*
 * The build's side of a decoder process (cimageio_decoder.h): starts it, sends it a photo's descriptor with a
 * job, waits for the answer up to the job's time, and tells a crash, an exit or a hang apart from an answer.
 */
#define _GNU_SOURCE
#include "cimageio_decoder.h"
#include "cimageio_markdown.h"
#include "cimageio_process.h"
#include "decoder_protocol.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct wf_decoder {
    char *program;
    char *argument;
    char **environment;
    uint64_t memory_bytes;
    pid_t pid;  /* 0 when none runs */
    int socket; /* the build's end, -1 when none */
};

static uint64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

static char *copy_text(const char *text) { return text ? strdup(text) : NULL; }

wf_decoder *wf_decoder_new(const char *program, const char *argument, const char *const *environment,
                           uint64_t memory_bytes) {
    wf_decoder *d = calloc(1, sizeof *d);
    size_t count = 0;
    while (environment && environment[count]) count++;
    if (!d || !(d->environment = calloc(count + 1, sizeof *d->environment))) {
        free(d);
        return NULL;
    }
    d->program = copy_text(program);
    d->argument = copy_text(argument);
    for (size_t i = 0; i < count; i++) d->environment[i] = copy_text(environment[i]);
    d->memory_bytes = memory_bytes;
    d->socket = -1;
    return d;
}

/* Kills the process (and anything it started) and reaps it; `status` gets its wait status. */
static void stop(wf_decoder *d, int *status) {
    if (d->socket >= 0) close(d->socket);
    d->socket = -1;
    if (d->pid <= 0) return;
    kill(-d->pid, SIGKILL);
    kill(d->pid, SIGKILL);
    int ignored;
    while (waitpid(d->pid, status ? status : &ignored, 0) < 0 && errno == EINTR) {}
    d->pid = 0;
}

void wf_decoder_free(wf_decoder *d) {
    if (!d) return;
    stop(d, NULL);
    for (char **e = d->environment; e && *e; e++) free(*e);
    free(d->environment);
    free(d->program);
    free(d->argument);
    free(d);
}

int32_t wf_decoder_pid(const wf_decoder *d) { return d->pid; }

static void outcome_fail(wf_decoder_outcome *o, wf_decoder_status status, const char *format, ...) {
    o->status = status;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(o->message, sizeof o->message, format, arguments);
    va_end(arguments);
}

void wf_decoder_start(wf_decoder *d, wf_decoder_outcome *o) {
    memset(o, 0, sizeof *o);
    if (d->pid > 0) return;
    int ends[2];
    if (!d->program || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
        o->error = d->program ? errno : ENOMEM;
        outcome_fail(o, WF_DECODER_NOT_STARTED, "cannot start the decoder process: %s", strerror(o->error));
        return;
    }
    const char *argv[] = {d->program, d->argument, NULL};
    wf_process p;
    memset(&p, 0, sizeof p);
    p.argv = argv;
    p.environment = (const char *const *)d->environment;
    p.input_fd = ends[1]; /* its descriptor 3 */
    p.output_fd = -1;
    p.memory_bytes = d->memory_bytes;
    p.outlives_thread = 1; /* a pool's threads come and go; it watches the socket instead */
    pid_t pid = wf_process_start(&p);
    int error = errno;
    close(ends[1]);
    if (pid < 0) {
        close(ends[0]);
        o->error = error;
        outcome_fail(o, WF_DECODER_NOT_STARTED, "cannot start the decoder process %s: %s", d->program, strerror(error));
        return;
    }
    d->pid = pid;
    d->socket = ends[0];
}

/* Reads exactly `length` bytes before `deadline` (0: none): 0, or -1 with `o` saying why (the process is then
 * stopped and reaped: a crash, an exit, a time out or nonsense). */
static int receive(wf_decoder *d, void *bytes, size_t length, uint64_t deadline, wf_decoder_outcome *o) {
    uint8_t *p = bytes;
    size_t done = 0;
    while (done < length) {
        int wait_ms = -1;
        if (deadline) {
            uint64_t t = now_ms();
            if (t >= deadline) {
                stop(d, NULL);
                outcome_fail(o, WF_DECODER_TIMED_OUT, "took too long and was stopped");
                return -1;
            }
            wait_ms = (int)(deadline - t);
        }
        struct pollfd ready = {d->socket, POLLIN, 0};
        int n = poll(&ready, 1, wait_ms);
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) continue; /* the deadline, seen above */
        ssize_t got = n < 0 ? -1 : recv(d->socket, p + done, length - done, MSG_DONTWAIT);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got > 0) {
            done += (size_t)got;
            continue;
        }
        /* The end of the stream, or an error on it: the process ended or is ending. */
        int status = 0;
        close(d->socket);
        d->socket = -1;
        pid_t pid = d->pid;
        uint64_t grace = now_ms() + 2000;
        pid_t reaped;
        while ((reaped = waitpid(pid, &status, WNOHANG)) == 0 && now_ms() < grace) {
            struct timespec pause = {0, 1000 * 1000};
            nanosleep(&pause, NULL);
        }
        if (reaped != pid) stop(d, &status);
        else kill(-pid, SIGKILL); /* anything it started */
        d->pid = 0;
        if (reaped == pid && WIFSIGNALED(status)) {
            o->signal_number = WTERMSIG(status);
            outcome_fail(o, WF_DECODER_CRASHED, "crashed (signal %d)", o->signal_number);
        } else if (reaped == pid && WIFEXITED(status)) {
            o->exit_status = WEXITSTATUS(status);
            outcome_fail(o, WF_DECODER_EXITED, "ended (exit status %d) without answering", o->exit_status);
        } else {
            outcome_fail(o, WF_DECODER_BROKEN, "stopped answering");
        }
        return -1;
    }
    return 0;
}

/* Sends a job with `count` descriptors, starting the process first if none runs; 0, or -1 with `o` saying why. */
static int send_job_fds(wf_decoder *d, const wf_frame *frame, const int *sources, size_t count, const void *payload,
                        size_t length, wf_decoder_outcome *o) {
    wf_decoder_start(d, o);
    if (o->status != WF_DECODER_OK) return -1;
    if (wf_frame_send_fds(d->socket, frame, sources, count, payload, length) == 0) return 0;
    /* It is gone: what receive finds out says how it ended. */
    uint8_t nothing;
    if (receive(d, &nothing, 1, now_ms() + 2000, o) == 0) {
        stop(d, NULL);
        outcome_fail(o, WF_DECODER_BROKEN, "answered before it was asked");
    }
    return -1;
}

static int send_job(wf_decoder *d, const wf_frame *frame, int source, const void *payload, size_t length,
                    wf_decoder_outcome *o) {
    return send_job_fds(d, frame, &source, source >= 0 ? 1 : 0, payload, length, o);
}

/* The answer's frame, checked against the job. */
static int receive_frame(wf_decoder *d, uint32_t kind, uint32_t count, uint64_t deadline, wf_frame *frame,
                         wf_decoder_outcome *o) {
    if (receive(d, frame, sizeof *frame, deadline, o) != 0) return -1;
    if (frame->magic == WF_FRAME_MAGIC && frame->kind == kind && frame->count == count) return 0;
    stop(d, NULL);
    outcome_fail(o, WF_DECODER_BROKEN, "answered another job");
    return -1;
}

/* The fields of `metadata` in the order the protocol sends them; capacities 0 without metadata. */
static void metadata_fields(wf_metadata *metadata, wf_metadata_field *fields[WF_JOB_FIELDS], uint64_t capacities[WF_JOB_FIELDS]) {
    for (int i = 0; i < WF_JOB_FIELDS; i++) fields[i] = NULL;
    if (metadata) {
        fields[0] = &metadata->exif;
        fields[1] = &metadata->description;
        fields[2] = &metadata->title;
        fields[3] = &metadata->records;
    }
    for (int i = 0; i < WF_JOB_FIELDS; i++) capacities[i] = fields[i] ? fields[i]->capacity : 0;
}

/* One file's answer to a read: its header, and its metadata into `metadata`'s buffers (NULL: none was asked
 * for); `*left` is what the frame said remains, less what this took. 0, or -1 with `o` saying why. */
static int receive_read(wf_decoder *d, uint64_t deadline, wf_header *header, wf_metadata *metadata, uint64_t *left,
                        wf_decoder_outcome *o) {
    wf_metadata_field *fields[WF_JOB_FIELDS];
    uint64_t capacities[WF_JOB_FIELDS];
    metadata_fields(metadata, fields, capacities);
    wf_metadata got;
    if (*left < sizeof *header + sizeof got) {
        stop(d, NULL);
        outcome_fail(o, WF_DECODER_BROKEN, "gave a short answer");
        return -1;
    }
    if (receive(d, header, sizeof *header, deadline, o) != 0 || receive(d, &got, sizeof got, deadline, o) != 0) return -1;
    *left -= sizeof *header + sizeof got;
    header->message[sizeof header->message - 1] = '\0';
    const wf_metadata_field *sent[WF_JOB_FIELDS] = {&got.exif, &got.description, &got.title, &got.records};
    uint64_t expected = 0;
    for (int i = 0; i < WF_JOB_FIELDS; i++) {
        if (sent[i]->length > capacities[i] || sent[i]->length > sent[i]->total) {
            stop(d, NULL);
            outcome_fail(o, WF_DECODER_BROKEN, "sent more metadata than asked for");
            return -1;
        }
        expected += sent[i]->length;
    }
    if (expected > *left) {
        stop(d, NULL);
        outcome_fail(o, WF_DECODER_BROKEN, "gave an answer of the wrong length");
        return -1;
    }
    *left -= expected;
    if (!metadata) return 0;
    for (int i = 0; i < WF_JOB_FIELDS; i++) {
        if (sent[i]->length && receive(d, fields[i]->bytes, sent[i]->length, deadline, o) != 0) return -1;
        fields[i]->length = sent[i]->length;
        fields[i]->total = sent[i]->total;
    }
    metadata->status = got.status;
    metadata->format = got.format;
    metadata->warnings = got.warnings;
    memcpy(metadata->message, got.message, sizeof metadata->message);
    metadata->message[sizeof metadata->message - 1] = '\0';
    return 0;
}

void wf_decoder_read(wf_decoder *d, const int *sources, size_t count, uint32_t timeout_ms, wf_header *headers,
                     wf_metadata *metadata, wf_decoder_outcome *o) {
    memset(o, 0, sizeof *o);
    if (count == 0 || count > WF_JOB_MAX_SOURCES) {
        outcome_fail(o, WF_DECODER_BROKEN, "%zu files in one job", count);
        return;
    }
    uint64_t deadline = timeout_ms ? now_ms() + timeout_ms : 0;
    wf_metadata_field *fields[WF_JOB_FIELDS];
    uint64_t capacities[WF_JOB_FIELDS];
    metadata_fields(metadata, fields, capacities); /* (every metadata[i] has the same capacities) */
    wf_frame frame = {WF_FRAME_MAGIC, WF_JOB_READ, (uint32_t)count, metadata ? WF_JOB_WANTS_METADATA : 0, sizeof capacities};
    if (send_job_fds(d, &frame, sources, count, capacities, sizeof capacities, o) != 0) return;
    wf_frame answer;
    if (receive_frame(d, WF_JOB_READ, (uint32_t)count, deadline, &answer, o) != 0) return;
    uint64_t left = answer.length;
    for (size_t i = 0; i < count; i++)
        if (receive_read(d, deadline, &headers[i], metadata ? &metadata[i] : NULL, &left, o) != 0) return;
    if (left != 0) {
        stop(d, NULL);
        outcome_fail(o, WF_DECODER_BROKEN, "gave an answer of the wrong length");
    }
}

void wf_decoder_sidecar(wf_decoder *d, int source, uint32_t timeout_ms, wf_metadata_field *records,
                        wf_decoder_outcome *o) {
    memset(o, 0, sizeof *o);
    records->length = records->total = 0;
    uint64_t deadline = timeout_ms ? now_ms() + timeout_ms : 0;
    uint64_t capacity = records->bytes ? records->capacity : 0;
    wf_frame frame = {WF_FRAME_MAGIC, WF_JOB_SIDECAR, 0, 0, sizeof capacity};
    if (send_job(d, &frame, source, &capacity, sizeof capacity, o) != 0) return;
    wf_frame answer;
    uint64_t sizes[2];
    if (receive_frame(d, WF_JOB_SIDECAR, 0, deadline, &answer, o) != 0) return;
    if (answer.length < sizeof sizes) {
        stop(d, NULL);
        outcome_fail(o, WF_DECODER_BROKEN, "gave a short answer");
        return;
    }
    if (receive(d, sizes, sizeof sizes, deadline, o) != 0) return;
    if (sizes[1] > capacity || sizes[1] > sizes[0] || answer.length != sizeof sizes + sizes[1]) {
        stop(d, NULL);
        outcome_fail(o, WF_DECODER_BROKEN, "gave an answer of the wrong length");
        return;
    }
    if (sizes[1] && receive(d, records->bytes, sizes[1], deadline, o) != 0) return;
    records->length = sizes[1];
    records->total = sizes[0];
}

void wf_decoder_derive(wf_decoder *d, int source, const wf_derive_request *requests, size_t count,
                       uint32_t timeout_ms, wf_derive_result *results, wf_encoded *outputs,
                       wf_decoder_outcome *o) {
    memset(o, 0, sizeof *o);
    if (count == 0 || count > WF_JOB_MAX_REQUESTS) {
        outcome_fail(o, WF_DECODER_BROKEN, "%zu images in one job", count);
        return;
    }
    uint64_t deadline = timeout_ms ? now_ms() + timeout_ms : 0;
    wf_frame frame = {WF_FRAME_MAGIC, WF_JOB_DERIVE, (uint32_t)count, 0, count * sizeof *requests};
    if (send_job(d, &frame, source, requests, count * sizeof *requests, o) != 0) return;
    wf_frame answer;
    if (receive_frame(d, WF_JOB_DERIVE, (uint32_t)count, deadline, &answer, o) != 0) return;
    uint64_t *lengths = calloc(count, sizeof *lengths);
    if (!lengths) {
        stop(d, NULL);
        outcome_fail(o, WF_DECODER_BROKEN, "out of memory");
        return;
    }
    if (receive(d, results, count * sizeof *results, deadline, o) != 0
        || receive(d, lengths, count * sizeof *lengths, deadline, o) != 0) {
        free(lengths);
        return;
    }
    uint64_t expected = count * (sizeof *results + sizeof *lengths);
    for (size_t i = 0; i < count; i++) {
        results[i].message[sizeof results[i].message - 1] = '\0';
        results[i].source.message[sizeof results[i].source.message - 1] = '\0';
        expected += lengths[i];
        if (lengths[i] > WF_JOB_MAX_OUTPUT || (lengths[i] && results[i].status != WF_DERIVE_OK)) expected = UINT64_MAX;
    }
    if (expected != answer.length) {
        free(lengths);
        stop(d, NULL);
        outcome_fail(o, WF_DECODER_BROKEN, "gave an answer of the wrong length");
        return;
    }
    for (size_t i = 0; i < count; i++) {
        if (!lengths[i]) continue;
        outputs[i].bytes = malloc(lengths[i]);
        if (!outputs[i].bytes) {
            stop(d, NULL);
            outcome_fail(o, WF_DECODER_BROKEN, "out of memory for the images");
            break;
        }
        outputs[i].length = lengths[i];
        if (receive(d, outputs[i].bytes, lengths[i], deadline, o) != 0) break;
    }
    free(lengths);
}

void wf_decoder_markdown(wf_decoder *d, const uint8_t *bytes, size_t length, uint32_t timeout_ms, wf_markdown *out,
                         wf_decoder_outcome *o) {
    memset(o, 0, sizeof *o);
    memset(out, 0, sizeof *out);
    if (length > WF_MARKDOWN_MAX_INPUT) {
        out->status = WF_MARKDOWN_TOO_LARGE;
        return;
    }
    uint64_t deadline = timeout_ms ? now_ms() + timeout_ms : 0;
    wf_frame frame = {WF_FRAME_MAGIC, WF_JOB_MARKDOWN, 0, 0, length};
    if (send_job(d, &frame, -1, bytes, length, o) != 0) return;
    wf_frame answer;
    uint64_t lengths[2];
    if (receive_frame(d, WF_JOB_MARKDOWN, 0, deadline, &answer, o) != 0
        || receive(d, lengths, sizeof lengths, deadline, o) != 0) return;
    if (lengths[0] > WF_MARKDOWN_MAX_OUTPUT || lengths[1] > WF_MARKDOWN_MAX_OUTPUT || answer.flags > WF_MARKDOWN_FAILED
        || answer.length != sizeof lengths + lengths[0] + lengths[1]
        || (answer.flags != WF_MARKDOWN_OK && lengths[0] + lengths[1] > 0)) {
        stop(d, NULL);
        outcome_fail(o, WF_DECODER_BROKEN, "gave an answer of the wrong length");
        return;
    }
    out->status = (wf_markdown_status)answer.flags;
    if (out->status != WF_MARKDOWN_OK) return;
    out->html = malloc(lengths[0] + 1);
    out->text = malloc(lengths[1] + 1);
    if (!out->html || !out->text) {
        wf_markdown_free(out);
        stop(d, NULL);
        outcome_fail(o, WF_DECODER_BROKEN, "out of memory for the HTML");
        return;
    }
    if (receive(d, out->html, lengths[0], deadline, o) != 0 || receive(d, out->text, lengths[1], deadline, o) != 0) {
        wf_markdown_free(out);
        return;
    }
    out->html[lengths[0]] = out->text[lengths[1]] = '\0';
    out->html_length = lengths[0];
    out->text_length = lengths[1];
}
