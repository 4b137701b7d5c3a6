/// A photo's caption: the first line of its sidecar text file (or its embedded description) and the rest.
struct Caption: Sendable, Equatable {
    var title: String
    var description: String?
    /// The description as safe HTML (from sigal's Markdown), shown in its place; nil for plain text.
    var descriptionHTML: String?

    /// First line the title, the rest (trimmed) the description; nil for a file with no text. Lines end
    /// at LF, CRLF or CR (a sidecar written on Windows reads the same as one written anywhere else).
    init?(text: String) {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { String($0).trimmed }
        guard let first = lines.firstIndex(where: { !$0.isEmpty }) else { return nil }
        title = lines[first]
        let rest = lines[(first + 1)...].joined(separator: "\n").trimmed
        description = rest.isEmpty ? nil : rest
    }

    init(title: String, description: String? = nil, descriptionHTML: String? = nil) {
        self.title = title
        self.description = description
        self.descriptionHTML = descriptionHTML
    }
}
