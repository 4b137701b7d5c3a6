/*
 * Internal: the libpng plumbing every PNG path needs, in one place: error and warning handlers that never
 * print (errors longjmp to the reader's setjmp with the message kept) and a read function over a wf_stream.
 * Each reader's context starts with a wf_png_io, which libpng is given as both error and I/O pointer.
 */
#ifndef WF_PNG_SUPPORT_H
#define WF_PNG_SUPPORT_H

#include <png.h>

#include "stream.h"

typedef struct {
    wf_stream *stream;
    int reached_end;  /* a read found the data's end: the file is truncated */
    int warnings;
    char message[200];
} wf_png_io;

void wf_png_on_error(png_structp png, png_const_charp message);
void wf_png_on_warning(png_structp png, png_const_charp message);

/* Exactly `length` bytes from the stream, or png_error("file ends early"). */
void wf_png_read_bytes(png_structp png, png_bytep destination, size_t length);

/* libpng lets chunks it is told to ignore pass before IHDR; the format says IHDR comes first. */
int wf_png_ihdr_comes_first(wf_stream *stream);

#endif
