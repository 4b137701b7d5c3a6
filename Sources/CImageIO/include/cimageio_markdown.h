#ifndef CIMAGEIO_MARKDOWN_H
#define CIMAGEIO_MARKDOWN_H

#include <stddef.h>
#include <stdint.h>

#include "cimageio_decoder.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * sigal's Markdown sidecars (NAME.md, an album's index.md) as HTML, through cmark-gfm (CommonMark with
 * GitHub's table extension and footnotes) in its safe mode: raw HTML is left out and javascript:, vbscript:,
 * file: and most data: links are emptied, so the HTML may go into a page as it is. Also as plain text, for
 * the places a page needs text (a <meta> description). It runs in a decoder process like every C library.
 */

/* Markdown larger than this is refused before cmark sees it (its worst cases are quadratic). */
#define WF_MARKDOWN_MAX_INPUT (64u * 1024u)
/* Either rendering larger than this is refused (a few reference links can multiply a 64 KiB input). */
#define WF_MARKDOWN_MAX_OUTPUT (1u << 20)

typedef enum {
    WF_MARKDOWN_OK = 0,
    WF_MARKDOWN_TOO_LARGE,  /* the input or a rendering is past its limit */
    WF_MARKDOWN_FAILED      /* cmark-gfm gave nothing (out of memory) */
} wf_markdown_status;

typedef struct {
    wf_markdown_status status;
    char *html; /* NUL-terminated, malloc'ed (free with free), NULL unless OK */
    size_t html_length;
    char *text;
    size_t text_length;
} wf_markdown;

/* Renders `length` bytes of UTF-8 Markdown (invalid sequences become U+FFFD) in this process. */
void wf_markdown_render(const uint8_t *bytes, size_t length, wf_markdown *out);

/* Frees what wf_markdown_render or wf_decoder_markdown gave. */
void wf_markdown_free(wf_markdown *markdown);

/* wf_markdown_render in the decoder process, within `timeout_ms` (0: no limit). */
void wf_decoder_markdown(wf_decoder *decoder, const uint8_t *bytes, size_t length, uint32_t timeout_ms,
                         wf_markdown *out, wf_decoder_outcome *outcome);

#ifdef __cplusplus
}
#endif

#endif
