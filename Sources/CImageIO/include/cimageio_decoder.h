#ifndef CIMAGEIO_DECODER_H
#define CIMAGEIO_DECODER_H

#include <stddef.h>
#include <stdint.h>

#include "cimageio.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Decoding in another process, so that a crash, a runaway allocation or a hang of a C library over one photo
 * costs that photo and never the build. The build opens every photo itself (once, without following links) and
 * hands the open file to a decoder process over a socket; the decoder reads the header, the metadata or the
 * pixels from that descriptor and answers with plain structs and the encoded bytes. It opens no file and
 * writes none: the build writes every file Waterfall makes.
 *
 * The decoder process is a program (the waterfall binary itself, started with one argument) whose main calls
 * wf_decoder_serve on descriptor 3. It runs under an address-space limit, with no environment but what it is
 * given and no other descriptor of the build's; it exits when the build's end of the socket closes (the build
 * ended or died), even in the middle of a job. A job that takes longer than its time is stopped by killing it.
 *
 * A wf_decoder is one such process, started when first needed and again after one ended badly. It is not
 * thread-safe: a pool gives each thread its own.
 */
typedef struct wf_decoder wf_decoder;

typedef enum {
    WF_DECODER_OK = 0,      /* the job ran: the results' own statuses say how it went */
    WF_DECODER_NOT_STARTED, /* the process could not be started: `error` is the errno */
    WF_DECODER_CRASHED,     /* it died of `signal_number` (SIGKILL: the address-space limit or the kernel) */
    WF_DECODER_EXITED,      /* it exited (`exit_status`) without answering */
    WF_DECODER_TIMED_OUT,   /* the job took longer than its time: the process was killed */
    WF_DECODER_BROKEN       /* the conversation failed (`message`): the process was killed */
} wf_decoder_status;

typedef struct {
    wf_decoder_status status;
    int32_t error;
    int32_t signal_number;
    int32_t exit_status;
    char message[160];
} wf_decoder_outcome;

/* A decoder that runs `program argument` (no PATH search) with `environment` (NULL-terminated, may be NULL)
 * and an address-space limit of `memory_bytes` (0: none). Nothing is started yet. NULL when out of memory. */
wf_decoder *wf_decoder_new(const char *program, const char *argument, const char *const *environment,
                           uint64_t memory_bytes);

/* Stops its process (if one runs) and frees it. */
void wf_decoder_free(wf_decoder *decoder);

/* The running process's id, or 0: for tests that stop or kill it. */
int32_t wf_decoder_pid(const wf_decoder *decoder);

/* Starts the process now if none runs (jobs start it themselves): an outcome like a job's. */
void wf_decoder_start(wf_decoder *decoder, wf_decoder_outcome *outcome);

/* wf_read_header_fd on each of `count` open files (1 to 32) in one job, and with `metadata` (not NULL: an
 * array of `count`, each with the same capacities) wf_read_metadata_fd into its buffers, in the decoder
 * process, within `timeout_ms` for them all (0: no limit): one round trip instead of `count`. headers[i] and
 * metadata[i] answer sources[i]. When the job fails (`outcome`: a crash, a time out), no answer holds: read
 * each file alone to learn which one did it. */
void wf_decoder_read(wf_decoder *decoder, const int *sources, size_t count, uint32_t timeout_ms, wf_header *headers,
                     wf_metadata *metadata, wf_decoder_outcome *outcome);

/* An XMP sidecar open as `source`, read (at most WF_XMP_SIDECAR_MAX bytes) and parsed by wf_read_xmp_memory
 * in the decoder process, into `records` (its bytes and capacity as set), within `timeout_ms`. */
void wf_decoder_sidecar(wf_decoder *decoder, int source, uint32_t timeout_ms, wf_metadata_field *records,
                        wf_decoder_outcome *outcome);

/* wf_derive_set_fd on `source` in the decoder process, within `timeout_ms`: `results[i]` and `outputs[i]` as it
 * fills them (outputs zeroed by the caller, freed with wf_encoded_free whatever happened). */
void wf_decoder_derive(wf_decoder *decoder, int source, const wf_derive_request *requests, size_t count,
                       uint32_t timeout_ms, wf_derive_result *results, wf_encoded *outputs,
                       wf_decoder_outcome *outcome);

/* The decoder process's side: answers jobs on `socket` until it closes; returns the exit status (0 when the
 * build closed the socket, 2 when the conversation made no sense). */
int wf_decoder_serve(int socket);

#ifdef __cplusplus
}
#endif

#endif
