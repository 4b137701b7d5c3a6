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
        line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)"
    }
}
