#include "jpeg_support.h"

#include <stdarg.h>
#include <string.h>

/* ---- error manager: never print, never exit ---- */

static void error_exit(j_common_ptr info) {
    wf_jpeg_error *error = (wf_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    error->stop = WF_JPEG_STOP_LIBRARY;
    longjmp(error->jump, 1);
}

/* Warnings are counted. In strict mode the ones that mean "these pixels are not the photo" stop the
 * decode instead: libjpeg would otherwise fill the rest of the image with grey and carry on. */
static void emit_message(j_common_ptr info, int level) {
    if (level >= 0) return; /* trace messages */
    wf_jpeg_error *error = (wf_jpeg_error *)info->err;
    info->err->num_warnings++;
    if (!error->strict) return;
    switch (info->err->msg_code) {
    case JWRN_JPEG_EOF:
        error->stop = WF_JPEG_STOP_TRUNCATED;
        break;
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
#if JPEG_LIB_VERSION >= 70 || defined(C_ARITH_CODING_SUPPORTED) || defined(D_ARITH_CODING_SUPPORTED)
    case JWRN_ARITH_BAD_CODE:
#endif
    case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL:
        error->stop = WF_JPEG_STOP_DAMAGED;
        break;
    default:
        return;
    }
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}

static void output_message(j_common_ptr info) { (void)info; }

struct jpeg_error_mgr *wf_jpeg_error_init(wf_jpeg_error *error) {
    struct jpeg_error_mgr *manager = jpeg_std_error(&error->manager);
    manager->error_exit = error_exit;
    manager->emit_message = emit_message;
    manager->output_message = output_message;
    error->strict = 0;
    error->stop = WF_JPEG_STOP_LIBRARY;
    error->message[0] = '\0';
    return manager;
}

void wf_jpeg_fail(j_common_ptr info, int stop, const char *format, ...) {
    wf_jpeg_error *error = (wf_jpeg_error *)info->err;
    va_list args;
    va_start(args, format);
    vsnprintf(error->message, sizeof error->message, format, args);
    va_end(args);
    error->stop = stop;
    longjmp(error->jump, 1);
}


/* ---- source manager: blocks from a wf_stream, skips that seek instead of reading ---- */

static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};

static void init_source(j_decompress_ptr info) { (void)info; }
static void term_source(j_decompress_ptr info) { (void)info; }

static boolean fill_input_buffer(j_decompress_ptr info) {
    wf_jpeg_source *source = (wf_jpeg_source *)info->src;
    const uint8_t *bytes;
    size_t length = wf_stream_next(source->stream, &bytes);
    if (length == 0) {
        /* As libjpeg's own sources do: end the stream with a fake EOI and a warning. */
        source->reached_end = 1;
        WARNMS(info, JWRN_JPEG_EOF);
        bytes = fake_eoi;
        length = sizeof fake_eoi;
    }
    source->manager.next_input_byte = bytes;
    source->manager.bytes_in_buffer = length;
    return TRUE;
}

static void skip_input_data(j_decompress_ptr info, long count) {
    if (count <= 0) return;
    wf_jpeg_source *source = (wf_jpeg_source *)info->src;
    size_t buffered = source->manager.bytes_in_buffer;
    if ((size_t)count <= buffered) {
        source->manager.next_input_byte += count;
        source->manager.bytes_in_buffer -= (size_t)count;
        return;
    }
    source->manager.bytes_in_buffer = 0;
    wf_stream_skip(source->stream, (uint64_t)count - buffered);
}

void wf_jpeg_source_init(wf_jpeg_source *source, wf_stream *stream) {
    memset(source, 0, sizeof *source);
    source->stream = stream;
    source->manager.init_source = init_source;
    source->manager.fill_input_buffer = fill_input_buffer;
    source->manager.skip_input_data = skip_input_data;
    source->manager.resync_to_restart = jpeg_resync_to_restart;
    source->manager.term_source = term_source;
}

void wf_jpeg_take(j_decompress_ptr info, uint8_t *destination, size_t length) {
    wf_jpeg_source *source = (wf_jpeg_source *)info->src;
    if (destination == NULL) {
        skip_input_data(info, (long)length);
        return;
    }
    while (length > 0) {
        if (source->manager.bytes_in_buffer == 0) {
            fill_input_buffer(info);
            if (source->reached_end) ERREXIT(info, JERR_INPUT_EOF);
        }
        size_t n = source->manager.bytes_in_buffer < length ? source->manager.bytes_in_buffer : length;
        memcpy(destination, source->manager.next_input_byte, n);
        source->manager.next_input_byte += n;
        source->manager.bytes_in_buffer -= n;
        destination += n;
        length -= n;
    }
}
