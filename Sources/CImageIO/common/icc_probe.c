/*
 * For tests: a file's ICC profile as libjpeg (jpeg_read_icc_profile), libpng (iCCP), libwebpmux (ICCP) and
 * libheif (the primary image's raw colour profile) see it, independent of the ICC collector wf_derive uses,
 * to check what it wrote.
 */
#include "heif_graph.h"
#include "jpeg_support.h"
#include "source_file.h"

#include <libheif/heif.h>
#include <png.h>
#include <webp/mux.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    struct jpeg_decompress_struct info;
    wf_jpeg_error error;
    JOCTET *profile;
    unsigned int length;
} jpeg_probe;

static size_t jpeg_profile(FILE *file, uint8_t *buffer, size_t capacity) {
    jpeg_probe *p = calloc(1, sizeof *p);
    if (!p) return 0;
    size_t result = 0;
    p->info.err = wf_jpeg_error_init(&p->error);
    if (setjmp(p->error.jump) == 0) {
        jpeg_create_decompress(&p->info);
        jpeg_stdio_src(&p->info, file);
        jpeg_save_markers(&p->info, JPEG_APP0 + 2, 0xFFFF);
        jpeg_read_header(&p->info, TRUE);
        if (jpeg_read_icc_profile(&p->info, &p->profile, &p->length)) {
            memcpy(buffer, p->profile, p->length < capacity ? p->length : capacity);
            result = p->length;
        }
    }
    free(p->profile);
    jpeg_destroy_decompress(&p->info);
    free(p);
    return result;
}

static void png_fail(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

static void png_ignore(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static size_t png_profile(FILE *file, uint8_t *buffer, size_t capacity) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, png_fail, png_ignore);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    size_t *result = calloc(1, sizeof *result); /* survives the longjmp */
    if (info && result && setjmp(png_jmpbuf(png)) == 0) {
        png_init_io(png, file);
        png_read_info(png, info);
        png_charp name;
        int compression;
        png_bytep profile;
        png_uint_32 length;
        if (png_get_iCCP(png, info, &name, &compression, &profile, &length)) {
            memcpy(buffer, profile, length < capacity ? length : capacity);
            *result = length;
        }
    }
    size_t length = result ? *result : 0;
    free(result);
    png_destroy_read_struct(&png, info ? &info : NULL, NULL);
    return length;
}

/* The whole file in memory (tests only: derived images are small); NULL when it cannot be read. */
static uint8_t *slurp(FILE *file, size_t *length) {
    size_t capacity = 1 << 16, used = 0;
    uint8_t *bytes = malloc(capacity);
    while (bytes) {
        used += fread(bytes + used, 1, capacity - used, file);
        if (used < capacity) break;
        uint8_t *bigger = capacity < (64u << 20) ? realloc(bytes, capacity * 2) : NULL;
        if (!bigger) free(bytes);
        bytes = bigger;
        capacity *= 2;
    }
    *length = used;
    return bytes;
}

static size_t webp_profile(FILE *file, uint8_t *buffer, size_t capacity) {
    size_t length;
    uint8_t *bytes = slurp(file, &length);
    if (!bytes) return 0;
    WebPData data = {.bytes = bytes, .size = length};
    WebPMux *mux = WebPMuxCreate(&data, 0);
    WebPData chunk;
    size_t result = 0;
    if (mux && WebPMuxGetChunk(mux, "ICCP", &chunk) == WEBP_MUX_OK) {
        memcpy(buffer, chunk.bytes, chunk.size < capacity ? chunk.size : capacity);
        result = chunk.size;
    }
    WebPMuxDelete(mux);
    free(bytes);
    return result;
}

static size_t heif_profile(FILE *file, uint8_t *buffer, size_t capacity) {
    size_t length;
    uint8_t *bytes = slurp(file, &length);
    if (!bytes) return 0;
    /* The item-graph check every libheif route makes first (heif_graph.h). */
    wf_stream stream;
    wf_stream_init_memory(&stream, bytes, length);
    wf_heif_refusal refusal;
    int allowed = wf_heif_check_graph(&stream, (int64_t)length, &refusal) == 0;
    struct heif_context *context = allowed ? heif_context_alloc() : NULL;
    struct heif_image_handle *handle = NULL;
    size_t result = 0;
    if (context && heif_context_read_from_memory_without_copy(context, bytes, length, NULL).code == heif_error_Ok &&
        heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok) {
        enum heif_color_profile_type type = heif_image_handle_get_color_profile_type(handle);
        size_t size = heif_image_handle_get_raw_color_profile_size(handle);
        if ((type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC) && size > 0) {
            uint8_t *profile = malloc(size);
            if (profile && heif_image_handle_get_raw_color_profile(handle, profile).code == heif_error_Ok) {
                memcpy(buffer, profile, size < capacity ? size : capacity);
                result = size;
            }
            free(profile);
        }
    }
    if (handle) heif_image_handle_release(handle);
    if (context) heif_context_free(context);
    free(bytes);
    return result;
}

size_t wf_read_icc_profile(const char *path, uint8_t *buffer, size_t capacity) {
    wf_source_failure failure;
    int fd = wf_open_source(path, &failure);
    if (fd < 0) return 0;
    FILE *file = fdopen(fd, "rb");
    if (!file) {
        close(fd);
        return 0;
    }
    uint8_t magic[12] = {0};
    size_t got = fread(magic, 1, 12, file);
    rewind(file);
    size_t length = 0;
    if (got >= 2 && magic[0] == 0xFF && magic[1] == 0xD8) length = jpeg_profile(file, buffer, capacity);
    else if (got >= 2 && magic[0] == 0x89 && magic[1] == 'P') length = png_profile(file, buffer, capacity);
    else if (got == 12 && memcmp(magic, "RIFF", 4) == 0 && memcmp(magic + 8, "WEBP", 4) == 0)
        length = webp_profile(file, buffer, capacity);
    else if (got == 12 && memcmp(magic + 4, "ftyp", 4) == 0) length = heif_profile(file, buffer, capacity);
    fclose(file);
    return length;
}
