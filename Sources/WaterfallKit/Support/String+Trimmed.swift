extension String {
    /// Without leading and trailing white space (spaces, tabs, line breaks, a byte-order mark).
    var trimmed: String {
        // Printable ASCII at both ends (most values): nothing to trim, and no grapheme is walked.
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) { return self }
        let isSpace: (Character) -> Bool = { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
