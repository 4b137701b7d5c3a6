/*
 * AVIF image sequences: files whose major brand is `avis`, which browsers play as animations. libheif 1.15
 * reads only the still item such a file may also hold, so libavif reads the track here: the header counts
 * its frames, a tile shows the first frame, and the animated view is made from every frame as for GIF and
 * WebP (animation.h). A file libavif cannot read as a sequence is left to the HEIF route, which reads its
 * still item or says why not.
 *
 * libavif reads through the stream (never the path), at most one sample at a time. Each frame is a whole
 * picture (AV1 frames in a track have no disposal or offsets), converted to 8-bit RGBA by libavif's portable
 * code: 10- and 12-bit frames are rounded to 8 bits; the colour is taken as sRGB, as for animated WebP views.
 */
#include <avif/avif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animation.h"
#include "avif_format.h"
#include "readers.h"
#include "source_file.h"

/* A read libavif asks for beyond this is refused: no sample or box of a sequence a browser plays is larger. */
static const size_t largest_read = 64u << 20;

typedef struct {
    avifIO io;
    wf_stream *stream;
    uint8_t *buffer;
    size_t capacity;
} stream_io;

static avifResult io_read(struct avifIO *io, uint32_t flags, uint64_t offset, size_t size, avifROData *out) {
    stream_io *source = (stream_io *)io;
    if (flags != 0 || offset > io->sizeHint) return AVIF_RESULT_IO_ERROR;
    if (size > io->sizeHint - offset) size = (size_t)(io->sizeHint - offset);
    if (size > largest_read) return AVIF_RESULT_IO_ERROR;
    if (size > source->capacity) {
        uint8_t *bigger = realloc(source->buffer, size);
        if (!bigger) return AVIF_RESULT_OUT_OF_MEMORY;
        source->buffer = bigger;
        source->capacity = size;
    }
    size_t got = size ? wf_stream_read_at(source->stream, offset, source->buffer, size) : 0;
    if (got < size && source->stream->read_errno) return AVIF_RESULT_IO_ERROR;
    out->data = source->buffer;
    out->size = got;
    return AVIF_RESULT_OK;
}

static void io_destroy(struct avifIO *io) {
    stream_io *source = (stream_io *)io;
    free(source->buffer);
    free(source);
}

int wf_avif_is_sequence(wf_stream *stream) {
    uint8_t head[12];
    return wf_stream_read_at(stream, 0, head, sizeof head) == sizeof head && memcmp(head + 4, "ftypavis", 8) == 0;
}

/* Why libavif could not read a sequence: `status` is WF_OK when the file has no track at all, so the HEIF route
 * should read its still item. */
typedef struct {
    wf_status status;
    char message[200];
} refusal;

static void refuse(refusal *why, const avifDecoder *decoder, avifResult result) {
    why->status = result == AVIF_RESULT_NO_CONTENT ? WF_OK : WF_ERR_CORRUPT;
    if (result == AVIF_RESULT_OUT_OF_MEMORY) {
        snprintf(why->message, sizeof why->message, "out of memory reading an AVIF sequence");
    } else if (decoder && strstr(decoder->diag.error, "imageCountLimit")) {
        why->status = WF_ERR_UNSUPPORTED;
        snprintf(why->message, sizeof why->message, "unsupported AVIF: a sequence of more than %u frames", WF_MAX_FRAMES);
    } else if (result == AVIF_RESULT_TRUNCATED_DATA || (decoder && strstr(decoder->diag.error, "sizeHint"))) {
        why->status = WF_ERR_TRUNCATED;
        snprintf(why->message, sizeof why->message, "truncated AVIF: the sequence ends early");
    } else {
        const char *detail = decoder && decoder->diag.error[0] ? decoder->diag.error : avifResultToString(result);
        snprintf(why->message, sizeof why->message, "corrupt AVIF: the sequence cannot be read: %s", detail);
        wf_lowercase_first(why->message + strlen("corrupt AVIF: the sequence cannot be read: "));
    }
}

/* A decoder reading the stream's sequence, parsed; NULL when libavif cannot read it as one (`why` says
 * why). */
static avifDecoder *open_sequence(wf_stream *stream, refusal *why) {
    int64_t size = wf_stream_size(stream);
    avifDecoder *decoder = avifDecoderCreate();
    stream_io *source = calloc(1, sizeof *source);
    if (!decoder || !source || size <= 0) {
        refuse(why, NULL, size == 0 ? AVIF_RESULT_TRUNCATED_DATA : AVIF_RESULT_OUT_OF_MEMORY);
        avifDecoderDestroy(decoder);
        free(source);
        return NULL;
    }
    *source = (stream_io){.io = {.destroy = io_destroy, .read = io_read, .sizeHint = (uint64_t)size}, .stream = stream};
    decoder->maxThreads = 1;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    decoder->imageCountLimit = WF_MAX_FRAMES;
    avifDecoderSetIO(decoder, &source->io); /* the decoder owns `source` now */
    avifResult result = avifDecoderSetSource(decoder, AVIF_DECODER_SOURCE_TRACKS);
    if (result == AVIF_RESULT_OK) result = avifDecoderParse(decoder);
    if (result == AVIF_RESULT_OK && (decoder->imageCount < 1 || decoder->image->width == 0 || decoder->image->height == 0))
        result = AVIF_RESULT_BMFF_PARSE_FAILED;
    if (result != AVIF_RESULT_OK) {
        refuse(why, decoder, result);
        avifDecoderDestroy(decoder);
        return NULL;
    }
    return decoder;
}

int wf_read_avif_sequence_header(wf_stream *stream, wf_header *out) {
    if (!wf_avif_is_sequence(stream)) return 0;
    refusal why;
    avifDecoder *decoder = open_sequence(stream, &why);
    if (!decoder && why.status == WF_OK) return 0;
    if (!decoder) {
        wf_fail(out, why.status, "%s", why.message);
        return 1;
    }
    const avifImage *image = decoder->image;
    out->status = WF_OK;
    out->width = image->width;
    out->height = image->height;
    out->orientation = 1;
    out->frames = (uint32_t)decoder->imageCount;
    out->animated = decoder->imageCount > 1;
    out->alpha = decoder->alphaPresent;
    out->components = decoder->alphaPresent ? 4 : 3;
    out->bit_depth = (int32_t)image->depth;
    avifDecoderDestroy(decoder);
    return 1;
}

/* The YUV planes libavif holds while it decodes a frame, beside the canvas. */
static uint64_t planes_bytes(const avifDecoder *decoder) {
    uint64_t samples = (uint64_t)decoder->image->width * decoder->image->height * (decoder->alphaPresent ? 4 : 3);
    return samples * (decoder->image->depth > 8 ? 2 : 1);
}

typedef struct {
    avifDecoder *decoder;
    avifRGBImage rgb;
} sequence;

static int next_frame(void *state, const uint8_t **rgba, int32_t *duration_ms, wf_decode_outcome *out) {
    sequence *s = state;
    avifResult result = avifDecoderNextImage(s->decoder);
    if (result == AVIF_RESULT_NO_IMAGES_REMAINING) return 0;
    const avifImage *image = s->decoder->image;
    if (result != AVIF_RESULT_OK) { /* (imageIndex is the last frame decoded, from 0; -1 before the first) */
        wf_outcome_fail(out, result == AVIF_RESULT_TRUNCATED_DATA ? WF_DERIVE_ERR_TRUNCATED : WF_DERIVE_ERR_CORRUPT,
                        "frame %d of the AVIF sequence: %s", s->decoder->imageIndex + 2, avifResultToString(result));
        wf_lowercase_first(out->message + strcspn(out->message, ":") + 2);
        return -1;
    }
    if (image->width != s->rgb.width || image->height != s->rgb.height) {
        wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "frame %d of the AVIF sequence is %u×%u, not %u×%u like the first",
                        s->decoder->imageIndex + 1, image->width, image->height, s->rgb.width, s->rgb.height);
        return -1;
    }
    if (avifImageYUVToRGB(image, &s->rgb) != AVIF_RESULT_OK) {
        wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "frame %d of the AVIF sequence could not be converted to RGB",
                        s->decoder->imageIndex + 1);
        return -1;
    }
    *rgba = s->rgb.pixels;
    /* A frame of 10 ms or less (0 included) is shown for 100 ms, as browsers show such GIF and AVIF frames. */
    double ms = s->decoder->imageTiming.duration * 1000.0 + 0.5;
    *duration_ms = !(ms >= 11) ? 100 : ms > 65535 ? 65535 : (int32_t)ms;
    return 1;
}

static void close_sequence(void *state) {
    sequence *s = state;
    avifRGBImageFreePixels(&s->rgb);
    avifDecoderDestroy(s->decoder);
    free(s);
}

/* The budget from the track's headers: the frame count and every frame's pixels, then the memory. */
static int within_budget(const avifDecoder *decoder, const wf_decode_options *options, wf_decode_outcome *out) {
    uint32_t width = decoder->image->width, height = decoder->image->height, count = (uint32_t)decoder->imageCount;
    if (wf_animation_within_budget("AVIF", width, height, count, (uint64_t)width * height * count, out) != 0) return 0;
    return wf_animation_canvas_fits("AVIF", width, height, 1, planes_bytes(decoder), options->max_memory, out) == 0;
}

/* The frames of the stream's sequence; `*parsed` says whether libavif read it as one (when it did not, the
 * HEIF route may still read a still item). */
static int open_frames(wf_stream *stream, const wf_decode_options *options, wf_frames *frames, wf_decode_outcome *out,
                       int *parsed) {
    refusal why;
    avifDecoder *decoder = open_sequence(stream, &why);
    *parsed = decoder != NULL || why.status != WF_OK; /* else no track: the HEIF route reads the still item */
    if (!decoder) {
        wf_outcome_fail(out, why.status == WF_ERR_TRUNCATED ? WF_DERIVE_ERR_TRUNCATED : WF_DERIVE_ERR_CORRUPT, "%s",
                        why.message);
        return -1;
    }
    sequence *s = within_budget(decoder, options, out) ? calloc(1, sizeof *s) : NULL;
    if (!s) {
        if (out->status == WF_DERIVE_OK) wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        avifDecoderDestroy(decoder);
        return -1;
    }
    s->decoder = decoder;
    avifRGBImageSetDefaults(&s->rgb, decoder->image);
    s->rgb.format = AVIF_RGB_FORMAT_RGBA;
    s->rgb.depth = 8;
    s->rgb.chromaUpsampling = AVIF_CHROMA_UPSAMPLING_BILINEAR;
    s->rgb.avoidLibYUV = AVIF_TRUE; /* the same bytes on every processor */
    avifRGBImageAllocatePixels(&s->rgb);
    if (!s->rgb.pixels) {
        close_sequence(s);
        wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
        return -1;
    }
    *frames = (wf_frames){.state = s, .width = s->rgb.width, .height = s->rgb.height, .loop_count = 0,
                          .next = next_frame, .close = close_sequence};
    return 0;
}

int wf_avif_frames_open(wf_stream *stream, const wf_decode_options *options, wf_frames *frames, wf_decode_outcome *out) {
    int parsed;
    return open_frames(stream, options, frames, out, &parsed);
}

/* The first frame's rows to the sink: RGBA when the sequence has alpha, else RGB, as the header said. */
static void push_first(const wf_frames *frames, const uint8_t *rgba, int alpha, wf_pixel_sink *sink,
                       wf_decode_outcome *out) {
    char message[200] = "";
    int channels = alpha ? 4 : 3;
    wf_derive_status status = sink->begin(sink->self, frames->width, frames->height, channels, message, sizeof message);
    if (status != WF_DERIVE_OK) {
        wf_outcome_fail(out, status, "%s", message);
        return;
    }
    for (uint32_t y = 0; y < frames->height; y++) {
        const uint8_t *from = rgba + (size_t)y * frames->width * 4;
        uint8_t *to = sink->row(sink->self);
        for (uint32_t x = 0; x < frames->width; x++) memcpy(to + (size_t)x * channels, from + (size_t)x * 4, channels);
        sink->commit(sink->self);
    }
}

int wf_decode_avif_sequence(wf_stream *stream, const wf_decode_options *options, wf_pixel_sink *sink,
                            wf_decode_outcome *out) {
    if (!wf_avif_is_sequence(stream)) return 0;
    wf_frames frames;
    wf_decode_outcome attempt = *out;
    int parsed;
    if (open_frames(stream, options, &frames, &attempt, &parsed) != 0) {
        if (parsed) *out = attempt;
        return parsed;
    }
    const uint8_t *rgba = NULL;
    int32_t duration = 0;
    int got = frames.next(frames.state, &rgba, &duration, out);
    if (got == 0) wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "an AVIF sequence without frames");
    if (got == 1) push_first(&frames, rgba, ((sequence *)frames.state)->decoder->alphaPresent, sink, out);
    frames.close(frames.state);
    return 1;
}
