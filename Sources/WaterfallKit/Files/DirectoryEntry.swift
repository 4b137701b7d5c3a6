/// One folder entry: its name as bytes (any byte but `/` and NUL) and what it is.
struct DirectoryEntry: Sendable, Equatable {
    var name: [UInt8]
    var kind: EntryKind

    /// The name when it is UTF-8.
    var text: String? { PathText.text(name) }
}
