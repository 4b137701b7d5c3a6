#include "gif_support.h"

#include <string.h>

/* giflib's InputFunc: short reads mean the end of the file (stream errors are reported by the caller). */
static int read_stream(GifFileType *file, GifByteType *bytes, int length) {
    wf_gif *gif = file->UserData;
    if (length <= 0) return 0;
    size_t got = wf_stream_read(gif->stream, bytes, (size_t)length);
    if (got < (size_t)length) gif->ended = 1;
    return (int)got;
}

int wf_gif_open(wf_gif *gif, wf_stream *stream, wf_decode_outcome *out) {
    memset(gif, 0, sizeof *gif);
    gif->stream = stream;
    int error = 0;
    gif->gif = DGifOpen(gif, read_stream, &error);
    if (!gif->gif) {
        wf_gif_fail(gif, error, "its logical screen", out);
        return -1;
    }
    return 0;
}

void wf_gif_close(wf_gif *gif) {
    if (gif->gif) DGifCloseFile(gif->gif, NULL);
    gif->gif = NULL;
}

static const char *reason(int code) {
    switch (code) {
    case D_GIF_ERR_NOT_GIF_FILE: return "not a GIF file";
    case D_GIF_ERR_NO_SCRN_DSCR: return "no logical screen descriptor";
    case D_GIF_ERR_NO_IMAG_DSCR:
    case D_GIF_ERR_WRONG_RECORD: return "an unknown block";
    case D_GIF_ERR_NO_COLOR_MAP: return "no colour table";
    case D_GIF_ERR_DATA_TOO_BIG: return "more pixels than the frame holds";
    case D_GIF_ERR_IMAGE_DEFECT: return "damaged LZW data";
    case D_GIF_ERR_EOF_TOO_SOON: return "LZW data that ends before the frame does";
    default: return "unreadable data";
    }
}

void wf_gif_fail(const wf_gif *gif, int code, const char *what, wf_decode_outcome *out) {
    if (code == D_GIF_ERR_NOT_ENOUGH_MEM) wf_outcome_fail(out, WF_DERIVE_ERR_LIMIT, "out of memory");
    else if (gif->ended) wf_outcome_fail(out, WF_DERIVE_ERR_TRUNCATED, "truncated GIF: the file ends inside %s", what);
    else wf_outcome_fail(out, WF_DERIVE_ERR_CORRUPT, "corrupt GIF: %s in %s", reason(code), what);
}
