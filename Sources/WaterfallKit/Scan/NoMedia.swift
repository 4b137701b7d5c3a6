/// sigal's `.nomedia` marker (Android's, with names), read as sigal reads it: an empty one (0 bytes) leaves
/// its folder out, with every folder under it; one that lists names, a line each, leaves out those files
/// and sub-folders of its folder (the exact names; a line's `\r` and blank lines are ignored). Unlike sigal,
/// a listed `sub` never leaves out `sub2` too, and the marker is always honoured (in sigal it is a plugin).
enum NoMedia: Equatable {
    case wholeFolder
    case names(Set<String>)

    static let name = ".nomedia"
    /// Longer than any list of a folder's names a person writes.
    static let limit = 64 << 10

    /// The marker in `folder`, opened as every input file is (never through a link, a regular file only).
    static func read(in folder: FolderHandle) throws(FileSystemError) -> NoMedia {
        parse(try folder.openFile(name).read(limit: limit))
    }

    static func parse(_ bytes: [UInt8]) -> NoMedia {
        guard !bytes.isEmpty else { return .wholeFolder }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...], as: UTF8.self)
        }
        return .names(Set(lines.filter { !$0.isEmpty }))
    }

    /// The note a build gives for the names it leaves out (a few of them, then how many more).
    static func note(leavingOut names: [String]) -> String {
        let shown = names.prefix(5).joined(separator: ", ")
        let more = names.count > 5 ? " and \(names.count - 5) more" : ""
        return "its \(name) leaves out \(shown)\(more)"
    }
}
