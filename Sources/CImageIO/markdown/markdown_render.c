/*
 * Markdown to safe HTML and plain text through cmark-gfm (cimageio_markdown.h). Runs in a decoder process.
 */
#include "cimageio_markdown.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>
#include <stdlib.h>
#include <string.h>

/* CommonMark as Python-Markdown's "extra" reads most of it: footnotes, and tables as an extension. Never
 * CMARK_OPT_UNSAFE: raw HTML and unsafe link schemes stay out. */
static const int options = CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_FOOTNOTES;

void wf_markdown_render(const uint8_t *bytes, size_t length, wf_markdown *out) {
    memset(out, 0, sizeof *out);
    if (length > WF_MARKDOWN_MAX_INPUT) {
        out->status = WF_MARKDOWN_TOO_LARGE;
        return;
    }
    cmark_gfm_core_extensions_ensure_registered();
    cmark_parser *parser = cmark_parser_new(options);
    if (!parser) {
        out->status = WF_MARKDOWN_FAILED;
        return;
    }
    cmark_syntax_extension *table = cmark_find_syntax_extension("table");
    if (table) cmark_parser_attach_syntax_extension(parser, table);
    cmark_parser_feed(parser, (const char *)bytes, length);
    cmark_node *document = cmark_parser_finish(parser);
    char *html = document ? cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) : NULL;
    /* Width 0: no wrapping; a paragraph is one line. */
    char *text = document ? cmark_render_plaintext(document, options, 0) : NULL;
    if (document) cmark_node_free(document);
    cmark_parser_free(parser);
    if (!html || !text) {
        free(html);
        free(text);
        out->status = WF_MARKDOWN_FAILED;
        return;
    }
    out->html_length = strlen(html);
    out->text_length = strlen(text);
    if (out->html_length > WF_MARKDOWN_MAX_OUTPUT || out->text_length > WF_MARKDOWN_MAX_OUTPUT) {
        free(html);
        free(text);
        memset(out, 0, sizeof *out);
        out->status = WF_MARKDOWN_TOO_LARGE;
        return;
    }
    out->html = html;
    out->text = text;
}

void wf_markdown_free(wf_markdown *markdown) {
    free(markdown->html);
    free(markdown->text);
    markdown->html = markdown->text = NULL;
    markdown->html_length = markdown->text_length = 0;
}
