/*
 * wf_process_run: a helper program under limits (cimageio_process.h). fork, then in the child only
 * async-signal-safe calls (setpgid, setrlimit, dup2, close, execve, write, _exit) before exec, as a
 * threaded parent requires; a close-on-exec pipe tells the parent whether exec happened.
 */
#define _GNU_SOURCE
#include "cimageio_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

static void close_quietly(int *fd) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

/* Every descriptor from `first` up closed (close_range where the kernel has it). */
static void close_from(int first) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0u, 0) == 0) return;
#endif
    for (int fd = first; fd < 65536; fd++) close(fd);
}

static void limit(int resource, uint64_t value, uint64_t hard) {
    struct rlimit r = {(rlim_t)value, (rlim_t)hard};
    setrlimit(resource, &r);
}

/* `from` as descriptor `to`, open across exec (dup2 of a descriptor onto itself would keep close-on-exec). */
static int move(int from, int to) {
    if (from == to) return fcntl(to, F_SETFD, 0);
    return dup2(from, to) < 0 ? -1 : 0;
}

/* The child: never returns. */
static void child(const wf_process *p, pid_t parent, int null_fd, int out_w, int err_w, int input, int output, int report_w) {
    setpgid(0, 0);
    /* It dies with the build (its wall-clock limit is the parent's to enforce), and it starts with no signal
       blocked and default dispositions, whatever the forking thread had (a dispatch worker blocks most). */
    if (!p->outlives_thread) prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    if (p->memory_bytes) limit(RLIMIT_AS, p->memory_bytes, p->memory_bytes);
    if (p->cpu_seconds) limit(RLIMIT_CPU, p->cpu_seconds, (uint64_t)p->cpu_seconds + 1);
    limit(RLIMIT_CORE, 0, 0);
    /* Descriptors 0-4 as the header says; report_w (close-on-exec) stays above them until exec. */
    if (move(null_fd, 0) < 0 || move(out_w, 1) < 0 || move(err_w, 2) < 0) goto fail;
    if (input >= 0 ? move(input, 3) < 0 : (close(3), 0)) goto fail;
    if (output >= 0 ? move(output, 4) < 0 : (close(4), 0)) goto fail;
    if (dup2(report_w, 5) < 0 || fcntl(5, F_SETFD, FD_CLOEXEC) < 0) goto fail;
    close_from(6);
    {
        static const char *const none[] = {NULL};
        execve(p->argv[0], (char *const *)p->argv, (char *const *)(p->environment ? p->environment : none));
    }
fail: {
    int e = errno;
    ssize_t ignored = write(5, &e, sizeof e);
    (void)ignored;
    _exit(127);
}
}

/* Appends what `fd` has to `buffer`; closes it at end of file. When it holds more than `capacity`, the
   first bytes are kept (`tail` 0: stdout, whose start is the answer) or the last (`tail` 1: stderr, whose
   last words say why). */
static void drain(int *fd, char *buffer, size_t capacity, int tail, size_t *length, size_t *total) {
    char scratch[4096];
    for (;;) {
        ssize_t n = read(*fd, scratch, sizeof scratch);
        if (n > 0) {
            *total += (size_t)n;
            if (!buffer || capacity == 0) continue;
            size_t count = (size_t)n;
            if (!tail) {
                size_t room = *length < capacity ? capacity - *length : 0;
                size_t keep = count < room ? count : room;
                memcpy(buffer + *length, scratch, keep);
                *length += keep;
                continue;
            }
            const char *from = scratch;
            if (count >= capacity) { /* this read alone fills it */
                from += count - capacity;
                count = capacity;
                *length = 0;
            } else if (*length + count > capacity) { /* drop the oldest bytes */
                size_t drop = *length + count - capacity;
                memmove(buffer, buffer + drop, *length - drop);
                *length -= drop;
            }
            memcpy(buffer + *length, from, count);
            *length += count;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        close_quietly(fd);
        return;
    }
}

/* Forks and execs `p` with stdin /dev/null, stdout `out_w`, stderr `err_w` (-1: /dev/null), and p's input and
   output as 3 and 4; returns its pid once exec has happened, or -1 with *error set (nothing left running). */
static pid_t start(const wf_process *p, int out_w, int err_w, int *error) {
    pid_t pid = -1;
    int report[2] = {-1, -1};
    int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    /* Copies above the numbers the child's dup2s write, so no dup2 overwrites a source it still needs. */
    int input = p->input_fd >= 0 ? fcntl(p->input_fd, F_DUPFD_CLOEXEC, 10) : -1;
    int output = p->output_fd >= 0 ? fcntl(p->output_fd, F_DUPFD_CLOEXEC, 10) : -1;
    int out = out_w >= 0 ? fcntl(out_w, F_DUPFD_CLOEXEC, 10) : -1;
    int err = err_w >= 0 ? fcntl(err_w, F_DUPFD_CLOEXEC, 10) : -1;
    if (null_fd < 0 || pipe2(report, O_CLOEXEC) != 0 || (p->input_fd >= 0 && input < 0)
        || (p->output_fd >= 0 && output < 0) || (out_w >= 0 && out < 0) || (err_w >= 0 && err < 0)) {
        *error = errno;
        goto done;
    }
    /* The report pipe's end too: the child moves it to 5 last, after 0-4 are written. */
    int report_high = fcntl(report[1], F_DUPFD_CLOEXEC, 10);
    close_quietly(&report[1]);
    report[1] = report_high;
    if (report[1] < 0) {
        *error = errno;
        goto done;
    }
    pid_t parent = getpid();
    pid = fork();
    if (pid < 0) {
        *error = errno;
        goto done;
    }
    if (pid == 0) child(p, parent, null_fd, out >= 0 ? out : null_fd, err >= 0 ? err : null_fd, input, output, report[1]);
    setpgid(pid, pid); /* also in the parent, so the group exists before any kill */
    close_quietly(&report[1]);
    int failure = 0;
    ssize_t got;
    do got = read(report[0], &failure, sizeof failure); while (got < 0 && errno == EINTR);
    if (got == (ssize_t)sizeof failure) {
        *error = failure;
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        pid = -1;
    }
done:
    close_quietly(&report[0]);
    close_quietly(&report[1]);
    close_quietly(&null_fd);
    close_quietly(&input);
    close_quietly(&output);
    close_quietly(&out);
    close_quietly(&err);
    return pid;
}

pid_t wf_process_start(const wf_process *p) {
    int error = 0;
    pid_t pid = start(p, -1, -1, &error);
    if (pid < 0) errno = error;
    return pid;
}

/* The time is up: the helper and anything it started are killed. */
static void time_out(wf_process_result *r, pid_t pid) {
    r->timed_out = 1;
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

/* The helper's stdout and stderr (`*out`, `*err`: non-blocking) into the caller's buffers until it closes both
   (each is closed here when it ends) or the deadline (0: none) passes. */
static void read_output(const wf_process *p, wf_process_result *r, pid_t pid, uint64_t deadline, int *out, int *err) {
    while (*out >= 0 || *err >= 0) {
        struct pollfd fds[2] = {{*out, POLLIN, 0}, {*err, POLLIN, 0}};
        int wait_ms = -1;
        if (deadline) {
            uint64_t t = now_ms();
            if (t >= deadline) {
                time_out(r, pid);
                break;
            }
            wait_ms = (int)(deadline - t);
        }
        int ready = poll(fds, 2, wait_ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) break;
        if (*out >= 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            drain(out, p->out, p->out_capacity, 0, &r->out_length, &r->out_total);
        if (*err >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            drain(err, p->err, p->err_capacity, 1, &r->err_length, &r->err_total);
    }
}

/* Its output is closed (or the time is up): it is ending or must. Waits for it, up to the deadline (then it
   is killed and waited for); its wait status. */
static int wait_for(wf_process_result *r, pid_t pid, uint64_t deadline) {
    int status = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, r->timed_out ? 0 : WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) break;
        if (r->timed_out) continue;
        if (deadline && now_ms() >= deadline) {
            time_out(r, pid);
            continue;
        }
        struct timespec pause = {0, 2 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return status;
}

/* Starts `p` with the pipes' write ends as its stdout and stderr (closed here once it has them), reads them
   and waits for it. */
static void supervise(const wf_process *p, wf_process_result *r, int out[2], int err[2]) {
    pid_t pid = start(p, out[1], err[1], &r->errno_value);
    close_quietly(&out[1]);
    close_quietly(&err[1]);
    if (pid < 0) return;
    r->started = 1;

    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(err[0], F_SETFL, O_NONBLOCK);
    uint64_t deadline = p->timeout_ms ? now_ms() + p->timeout_ms : 0;
    read_output(p, r, pid, deadline, &out[0], &err[0]);
    int status = wait_for(r, pid, deadline);
    if (r->timed_out) kill(-pid, SIGKILL); /* anything it started */
    if (WIFEXITED(status)) {
        r->exited = 1;
        r->exit_status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r->signal_number = WTERMSIG(status);
    }
}

void wf_process_run(const wf_process *p, wf_process_result *r) {
    memset(r, 0, sizeof *r);
    int out[2] = {-1, -1}, err[2] = {-1, -1};
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) r->errno_value = errno;
    else supervise(p, r, out, err);
    close_quietly(&out[0]);
    close_quietly(&out[1]);
    close_quietly(&err[0]);
    close_quietly(&err[1]);
}
