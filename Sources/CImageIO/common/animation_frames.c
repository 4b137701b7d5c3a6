/* For tests: wf_frames over a file, behind the public wf_animation_* functions (cimageio_animation.h). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "animation.h"
#include "cimageio_animation.h"
#include "formats.h"
#include "readers.h"
#include "source_file.h"

struct wf_animation {
    int fd;
    wf_stream stream;
    wf_frames frames;
};

static void report(wf_animation_info *info, const wf_decode_outcome *outcome) {
    info->status = outcome->status;
    snprintf(info->message, sizeof info->message, "%s", outcome->message);
}

wf_animation *wf_animation_open(const char *path, wf_animation_info *info) {
    *info = (wf_animation_info){0};
    wf_header header;
    wf_read_header_path(path, &header);
    const wf_format_entry *entry = header.status == WF_OK ? wf_format_entry_of(header.format) : NULL;
    if (!entry || !entry->open_frames) {
        info->status = WF_DERIVE_ERR_READ;
        snprintf(info->message, sizeof info->message, "%s", header.message[0] ? header.message : "not a GIF or WebP");
        return NULL;
    }
    wf_animation *a = calloc(1, sizeof *a);
    wf_source_failure failure;
    int fd = a ? wf_open_source(path, &failure) : -1;
    if (fd < 0) {
        info->status = WF_DERIVE_ERR_READ;
        snprintf(info->message, sizeof info->message, "%s", a ? failure.reason : "out of memory");
        free(a);
        return NULL;
    }
    a->fd = fd;
    wf_stream_init_fd(&a->stream, fd);
    wf_decode_options options = {.scale_denom = 1};
    wf_decode_outcome outcome = {.status = WF_DERIVE_OK};
    int opened = entry->open_frames(&a->stream, &options, &a->frames, &outcome);
    if (opened != 0) {
        report(info, &outcome);
        close(fd);
        free(a);
        return NULL;
    }
    info->width = a->frames.width;
    info->height = a->frames.height;
    info->loop_count = a->frames.loop_count;
    return a;
}

int wf_animation_next(wf_animation *a, const uint8_t **rgba, int32_t *duration_ms, wf_animation_info *info) {
    wf_decode_outcome outcome = {.status = WF_DERIVE_OK};
    int got = a->frames.next(a->frames.state, rgba, duration_ms, &outcome);
    report(info, &outcome);
    return got;
}

void wf_animation_close(wf_animation *a) {
    if (!a) return;
    a->frames.close(a->frames.state);
    close(a->fd);
    free(a);
}
