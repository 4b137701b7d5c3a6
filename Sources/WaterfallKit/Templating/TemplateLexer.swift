/// Splits Mustache source into text and tags, working on UTF-8 bytes. It applies the two rules that are
/// about characters rather than structure: set-delimiter tags, and standalone lines (a line holding only
/// whitespace and one section, inverted, closing, comment, partial or set-delimiter tag is removed whole).
struct TemplateLexer {
    private let source: String
    private let file: String
    private let bytes: [UInt8]
    private let limits: TemplateLimits
    private var position = 0
    private var opening: [UInt8] = Array("{{".utf8)
    private var closing: [UInt8] = Array("}}".utf8)

    init(source: String, file: String, limits: TemplateLimits = .standard) {
        self.source = source
        self.file = file
        self.limits = limits
        bytes = Array(source.utf8)
    }

    /// A tag as read, before the standalone rule is applied.
    private struct Tag {
        enum Kind { case variable(escaped: Bool), section(inverted: Bool), close, partial, comment, setDelimiters }
        var kind: Kind
        var name: String
        /// Just past the closing delimiter.
        var end: Int
        /// The new delimiters of a set-delimiter tag.
        var delimiters: (opening: [UInt8], closing: [UInt8])?

        var mayStandAlone: Bool {
            if case .variable = kind { return false }
            return true
        }
    }

    mutating func tokens() throws(TemplateError) -> [TemplateToken] {
        var tokens: [TemplateToken] = []
        while position < bytes.count {
            guard let start = find(opening, from: position) else {
                appendText(position..<bytes.count, to: &tokens)
                break
            }
            let tag = try readTag(at: start)
            var textEnd = start
            var next = tag.end
            var indent: String?
            if tag.mayStandAlone, let lineStart = blankLineStart(before: start), let lineEnd = blankLineEnd(after: tag.end) {
                textEnd = lineStart
                next = lineEnd
                indent = String(decoding: bytes[lineStart..<start], as: UTF8.self)
            }
            appendText(position..<textEnd, to: &tokens)
            let startsLine = indent == nil && isLineStart(start)
            switch tag.kind {
            case .variable(let escaped):
                tokens.append(TemplateToken(kind: .variable(escaped: escaped), content: tag.name, offset: start, startsLine: startsLine))
            case .section(let inverted):
                tokens.append(TemplateToken(kind: .section(inverted: inverted), content: tag.name, offset: start, startsLine: startsLine))
            case .close:
                tokens.append(TemplateToken(kind: .close, content: tag.name, offset: start, startsLine: false))
            case .partial:
                tokens.append(TemplateToken(kind: .partial(indent: indent), content: tag.name, offset: start, startsLine: startsLine))
            case .comment:
                break
            case .setDelimiters:
                if let delimiters = tag.delimiters { (opening, closing) = delimiters }
            }
            position = next
        }
        return tokens
    }

    private func appendText(_ range: Range<Int>, to tokens: inout [TemplateToken]) {
        guard !range.isEmpty else { return }
        let text = String(decoding: bytes[range], as: UTF8.self)
        tokens.append(TemplateToken(kind: .text, content: text, offset: range.lowerBound, startsLine: isLineStart(range.lowerBound)))
    }

    private mutating func readTag(at start: Int) throws(TemplateError) -> Tag {
        let afterOpening = start + opening.count
        let sigil = afterOpening < bytes.count ? bytes[afterOpening] : 0
        var terminator = closing
        let kind: Tag.Kind
        switch sigil {
        case UInt8(ascii: "{"): kind = .variable(escaped: false); terminator = [UInt8(ascii: "}")] + closing
        case UInt8(ascii: "&"): kind = .variable(escaped: false)
        case UInt8(ascii: "#"): kind = .section(inverted: false)
        case UInt8(ascii: "^"): kind = .section(inverted: true)
        case UInt8(ascii: "/"): kind = .close
        case UInt8(ascii: ">"): kind = .partial
        case UInt8(ascii: "!"): kind = .comment
        case UInt8(ascii: "="): kind = .setDelimiters; terminator = [UInt8(ascii: "=")] + closing
        default: kind = .variable(escaped: true)
        }
        var contentStart = afterOpening
        if case .variable(escaped: true) = kind {} else { contentStart += 1 }  // every other kind has a sigil
        guard let contentEnd = find(terminator, from: contentStart) else {
            throw error(at: start, "unclosed tag: no '\(text(terminator))' after '\(text(bytes[start..<contentStart]))'")
        }
        let end = contentEnd + terminator.count
        let content = trimmed(contentStart..<contentEnd)
        var tag = Tag(kind: kind, name: String(decoding: bytes[content], as: UTF8.self), end: end)
        switch kind {
        case .comment:
            break
        case .setDelimiters:
            tag.delimiters = try delimiters(in: content, tag: start..<end)
        default:
            try check(name: content, kind: kind, tag: start..<end)
        }
        return tag
    }

    /// Names are non-empty, not too long and have no whitespace; variable and section names are `.` or
    /// dot-separated keys.
    private func check(name: Range<Int>, kind: Tag.Kind, tag: Range<Int>) throws(TemplateError) {
        if name.isEmpty { throw error(at: tag.lowerBound, "empty tag '\(excerpt(bytes[tag]))'") }
        let slice = bytes[name]
        // `{{name}` followed later by `{{other}}` reads as one tag whose name holds the next opening delimiter.
        if find(opening, in: slice) {
            throw error(at: tag.lowerBound, "unclosed tag: no '\(text(closing))' after '\(text(opening))'")
        }
        if slice.count > limits.nameBytes {
            throw error(at: tag.lowerBound, "tag name '\(excerpt(slice))' is longer than \(limits.nameBytes) bytes (the limit)")
        }
        let words = slice.split(whereSeparator: Self.isWhitespace)
        let dotted = slice.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let isKeyName: Bool
        if case .partial = kind { isKeyName = false } else { isKeyName = true }
        if words.count > 1 || (isKeyName && slice.count > 1 && dotted.contains(where: \.isEmpty)) {
            throw error(at: tag.lowerBound, "bad tag name '\(excerpt(slice))'")
        }
    }

    /// `{{=<% %>=}}`: two delimiters separated by whitespace, neither empty nor containing `=`, and short:
    /// searching for a delimiter costs its length at every byte.
    private func delimiters(in content: Range<Int>, tag: Range<Int>) throws(TemplateError) -> ([UInt8], [UInt8]) {
        let parts = bytes[content].split(whereSeparator: Self.isWhitespace)
        guard parts.count == 2, !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else {
            throw error(at: tag.lowerBound, "bad set-delimiter tag '\(excerpt(bytes[tag]))': "
                + "expected two delimiters without '=', separated by a space, as in {{=<% %>=}}")
        }
        guard parts.allSatisfy({ $0.count <= limits.delimiterBytes }) else {
            throw error(at: tag.lowerBound, "bad set-delimiter tag '\(excerpt(bytes[tag]))': "
                + "a delimiter may be at most \(limits.delimiterBytes) bytes long")
        }
        return (Array(parts[0]), Array(parts[1]))
    }

    // MARK: Standalone lines

    /// The start of the tag's line when only spaces and tabs come before the tag on it.
    private func blankLineStart(before start: Int) -> Int? {
        var index = start
        while index > 0, bytes[index - 1] == UInt8(ascii: " ") || bytes[index - 1] == UInt8(ascii: "\t") { index -= 1 }
        return isLineStart(index) ? index : nil
    }

    /// Just past the line's end (its newline, or the end of the source) when only spaces and tabs follow.
    private func blankLineEnd(after end: Int) -> Int? {
        var index = end
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        if index == bytes.count { return index }
        if bytes[index] == UInt8(ascii: "\n") { return index + 1 }
        if bytes[index] == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { return index + 2 }
        return nil
    }

    private func isLineStart(_ index: Int) -> Bool {
        index == 0 || bytes[index - 1] == UInt8(ascii: "\n")
    }

    // MARK: Bytes

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var index = start
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == first {
                var matched = 1
                while matched < needle.count, bytes[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index }
            }
            index += 1
        }
        return nil
    }

    private func find(_ needle: [UInt8], in slice: ArraySlice<UInt8>) -> Bool {
        guard slice.count >= needle.count else { return false }
        return slice.indices.dropLast(needle.count - 1).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, Self.isWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower, Self.isWhitespace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    private func text(_ bytes: some Sequence<UInt8>) -> String {
        String(decoding: Array(bytes), as: UTF8.self)
    }

    /// Template text quoted in an error: one line, not too long.
    private func excerpt(_ bytes: some Sequence<UInt8>) -> String {
        TemplateError.excerpt(text(bytes))
    }

    private func error(at offset: Int, _ message: String) -> TemplateError {
        TemplateError(file: file, source: source, offset: offset, message: message)
    }
}
