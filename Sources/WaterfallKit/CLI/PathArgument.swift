/// A path as the command line gave it: its bytes, which need not be UTF-8 (a Linux file name is any bytes
/// but `/` and NUL). `ArgumentPaths` makes it a path the rest of the program can use.
struct PathArgument: Sendable, Equatable {
    let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    init(_ text: String) { bytes = Array(text.utf8) }

    /// The path as text, when it is UTF-8 (nil otherwise: no String holds it without losing bytes).
    var text: String? { PathText.text(bytes) }

    /// For messages, as the scan shows names: `in\xFF`.
    var shown: String { PathText.display(bytes: bytes) }

    /// The folder part ("." for a bare name, "/" at the root) and the last component, split on bytes as
    /// `FolderPath` splits text.
    var parent: PathArgument {
        let trimmed = trimmedBytes
        guard let slash = trimmed.lastIndex(of: Self.slash) else { return PathArgument(".") }
        return slash == 0 ? PathArgument("/") : PathArgument(bytes: Array(trimmed[..<slash]))
    }

    var lastComponent: [UInt8] {
        let trimmed = trimmedBytes
        guard let slash = trimmed.lastIndex(of: Self.slash) else { return trimmed }
        return Array(trimmed[(slash + 1)...])
    }

    /// Without a trailing slash (but `/` itself).
    private var trimmedBytes: [UInt8] { bytes.count > 1 && bytes.last == Self.slash ? Array(bytes.dropLast()) : bytes }

    private static let slash = UInt8(ascii: "/")
}
