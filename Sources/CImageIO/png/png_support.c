#include "png_support.h"

#include <stdio.h>
#include <string.h>

void wf_png_on_error(png_structp png, png_const_charp message) {
    wf_png_io *io = (wf_png_io *)png_get_error_ptr(png);
    snprintf(io->message, sizeof io->message, "%s", message);
    png_longjmp(png, 1);
}

void wf_png_on_warning(png_structp png, png_const_charp message) {
    (void)message;
    ((wf_png_io *)png_get_error_ptr(png))->warnings++;
}

void wf_png_read_bytes(png_structp png, png_bytep destination, size_t length) {
    wf_png_io *io = (wf_png_io *)png_get_io_ptr(png);
    if (wf_stream_read(io->stream, destination, length) != length) {
        io->reached_end = 1;
        png_error(png, "file ends early");
    }
}

int wf_png_ihdr_comes_first(wf_stream *stream) {
    const uint8_t *bytes;
    size_t length = wf_stream_peek(stream, &bytes);
    return length < 16 || memcmp(bytes + 12, "IHDR", 4) == 0;
}
