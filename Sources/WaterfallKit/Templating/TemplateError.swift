/// A template that cannot be parsed, loaded or rendered, and where: `file:line:column: message` on one line,
/// the form editors and terminals turn into a link. Line and column are 1-based and the column counts
/// characters; line 0 means the whole file (unreadable, not UTF-8, no such template) and is left out.
public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// An error about a whole file rather than a place in it.
    init(file: String, message: String) {
        self.init(file: file, line: 0, column: 0, message: message)
    }

    /// An error at a UTF-8 offset in a template's source.
    init(file: String, source: String, offset: Int, message: String) {
        let location = SourceLocation(offset: offset, in: source)
        self.init(file: file, line: location.line, column: location.column, message: message)
    }

    public var description: String {
        let file = Self.oneLine(self.file)
        return line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)"
    }

    /// Template text for a message: on one line (control characters as `\n`-style escapes) and at most
    /// `limit` characters, so a hostile tag cannot make an error span screens.
    static func excerpt(_ text: some StringProtocol, limit: Int = 60) -> String {
        let shown = text.dropFirst(limit).isEmpty ? String(text) : String(text.prefix(limit - 1)) + "…"
        return oneLine(shown)
    }

    private static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return text.unicodeScalars.map { isControl($0) ? $0.escaped(asASCII: true) : String($0) }.joined()
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
