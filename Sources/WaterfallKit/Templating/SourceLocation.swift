/// A 1-based line and character column in a template's source.
struct SourceLocation: Sendable, Equatable {
    var line: Int
    var column: Int

    /// Computed from a UTF-8 offset only when an error needs it, so lexing keeps no line bookkeeping.
    init(offset: Int, in source: String) {
        let utf8 = source.utf8
        let end = utf8.index(utf8.startIndex, offsetBy: offset)
        var lineStart = utf8.startIndex
        line = 1
        var index = utf8.startIndex
        while index < end {
            if utf8[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        column = source[lineStart..<end].count + 1
    }
}
