/// One piece of a template as the lexer sees it: text to copy, or a tag that the parser turns into a node.
/// Comments and set-delimiter tags never become tokens: they only change what the lexer does.
struct TemplateToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case text
        case variable(escaped: Bool)
        case section(inverted: Bool)
        case close
        /// `indent` is the whitespace before a standalone partial tag, nil when the tag is inline.
        case partial(indent: String?)
    }

    var kind: Kind
    /// The text itself, or the tag's name without its padding.
    var content: String
    /// UTF-8 offset of the text, or of the tag's opening delimiter: where errors point.
    var offset: Int
    /// Whether the token is the first thing on its source line, which is where a partial's indentation goes.
    var startsLine: Bool
}
