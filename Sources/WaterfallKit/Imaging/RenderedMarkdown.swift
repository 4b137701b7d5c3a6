import CImageIO

/// Markdown (sigal's sidecars) as cmark-gfm renders it in a decoder process: HTML that is safe to put in a
/// page as it is (raw HTML left out, unsafe links emptied; cimageio_markdown.h), and the same as plain text.
struct RenderedMarkdown: Sendable, Equatable {
    var html: String
    var text: String

    /// Larger Markdown is refused unread (cmark's worst cases grow faster than its input).
    static let maximumBytes = Int(WF_MARKDOWN_MAX_INPUT)
    /// A job's time: cmark renders 64 KiB in milliseconds; only a pathological input comes near this.
    static let milliseconds: UInt32 = 10_000

    /// `bytes` rendered in one of `decoders`' processes; the reason, for a line, when it cannot be.
    static func render(_ bytes: [UInt8], decoders: DecoderPool) -> Result<RenderedMarkdown, RenderError> {
        guard bytes.count <= maximumBytes else { return .failure(RenderError("larger than the \(ByteCount.text(maximumBytes)) limit")) }
        let answer: Result<Result<RenderedMarkdown, RenderError>, DecoderFailure> = decoders.withDecoder { decoder in
            var out = wf_markdown()
            var outcome = wf_decoder_outcome()
            wf_decoder_markdown(decoder, bytes, bytes.count, milliseconds, &out, &outcome)
            defer { wf_markdown_free(&out) }
            if let failure = DecoderFailure(outcome) { return .failure(failure) }
            switch out.status {
            case WF_MARKDOWN_OK: break
            case WF_MARKDOWN_TOO_LARGE: return .success(.failure(RenderError("its Markdown renders past the \(ByteCount.text(Int(WF_MARKDOWN_MAX_OUTPUT))) limit")))
            default: return .success(.failure(RenderError("its Markdown could not be rendered")))
            }
            func text(_ pointer: UnsafeMutablePointer<CChar>?, _ count: Int) -> String {
                guard let pointer else { return "" }
                return pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
                }
            }
            return .success(.success(RenderedMarkdown(html: text(out.html, out.html_length), text: text(out.text, out.text_length))))
        }
        return answer.flatMapError { .failure(RenderError("its Markdown renderer \($0.detail)")) }.flatMap { $0 }
    }

    struct RenderError: Error, Sendable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
