#ifndef CIMAGEIO_PROCESS_H
#define CIMAGEIO_PROCESS_H

#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A helper program (ffprobe, ffmpeg) run under limits, so that a hostile file it reads can cost at most
 * one file's time and memory: the child's address space and CPU time are capped (setrlimit, before exec),
 * it gets no inherited descriptor but the ones given, an empty environment but `environment`, and it is
 * killed (its whole process group) when `timeout_ms` passes, or when the build itself dies. It starts with
 * no signal blocked. Its stdout and stderr are read into the buffers given, up to their capacity: the
 * first bytes of stdout, the last of stderr (the rest is read and dropped, so the child never blocks on a
 * full pipe).
 */
typedef struct {
    const char *const *argv;        /* argv[0] is the program's path (no PATH search); NULL-terminated */
    const char *const *environment; /* NULL-terminated; may be NULL for none */
    int input_fd;                   /* given to the child as fd 3 (-1: none) */
    int output_fd;                  /* given to the child as fd 4 (-1: none) */
    uint64_t memory_bytes;          /* RLIMIT_AS; 0 for no limit */
    uint32_t cpu_seconds;           /* RLIMIT_CPU; 0 for no limit */
    uint32_t timeout_ms;            /* wall clock; 0 for none */
    char *out;                      /* stdout, up to out_capacity bytes (NULL: dropped) */
    size_t out_capacity;
    char *err;                      /* stderr: its last err_capacity bytes */
    size_t err_capacity;
    int outlives_thread;            /* 1: not killed when the thread that started it ends, only when the whole
                                       build does not answer any more (a decoder process, which watches its
                                       socket: wf_process_start from a pool's threads) */
} wf_process;

typedef struct {
    int started;        /* 0: the program could not be started (errno_value says why) */
    int errno_value;
    int exited;         /* 1: it exited with exit_status; 0: a signal (signal_number) ended it */
    int exit_status;
    int signal_number;
    int timed_out;      /* 1: killed because timeout_ms passed */
    size_t out_length;  /* bytes kept in out; out_total counts every byte it wrote */
    size_t out_total;
    size_t err_length;
    size_t err_total;
} wf_process_result;

/* Runs the program and waits for it. Thread-safe; never exits or prints. */
void wf_process_run(const wf_process *process, wf_process_result *result);

/* Starts the program as wf_process_run does (limits, descriptors 3 and 4, environment, dying with the build)
 * and returns at once, once exec has happened: its pid, or -1 with errno set. Its stdin, stdout and stderr
 * are /dev/null; timeout_ms and the buffers are not used. The caller reaps it (waitpid). */
pid_t wf_process_start(const wf_process *process);

#ifdef __cplusplus
}
#endif

#endif
