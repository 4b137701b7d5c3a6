// FoundationEssentials: half the start-up time of all of Foundation, which matters for a CLI run per file.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Lists every file in a folder (and, when recursive, under it, depth first) in natural name order,
/// skipping dot-files and dot-folders. Uses the entry types readdir reports, so a file costs no extra stat.
struct FolderWalker {
    var recursive = true
    /// Folders never entered (the build's output folder, when it sits inside the input).
    var excluding: Set<FileIdentity> = []

    enum Entry: Equatable, Sendable {
        case file(String)
        /// A folder that could not be listed: reported like an unreadable file, and the rest goes on.
        case unreadable(String, reason: String)

        var path: String {
            switch self {
            case .file(let path), .unreadable(let path, _): path
            }
        }
    }

    func files(under folder: String) -> [Entry] {
        var visited = excluding
        return walk(folder, visited: &visited)
    }

    private func walk(_ folder: String, visited: inout Set<FileIdentity>) -> [Entry] {
        // Symbolic links may point back up the tree; each real folder is walked once.
        guard let identity = FileIdentity(path: folder), visited.insert(identity).inserted else { return [] }
        let listing: [(name: String, isFolder: Bool)]
        do {
            listing = try Self.list(folder)
        } catch {
            return [.unreadable(folder, reason: "cannot list folder: \(error)")]
        }
        return NaturalOrder.sorted(listing, by: \.name)
            .flatMap { name, isFolder -> [Entry] in
                let path = Self.join(folder, name)
                if !isFolder { return [.file(path)] }
                return recursive ? walk(path, visited: &visited) : []
            }
    }

    /// The folder's visible entries and whether each is a folder (following symbolic links).
    private static func list(_ folder: String) throws(POSIXErrorText) -> [(name: String, isFolder: Bool)] {
        guard let directory = opendir(folder) else { throw POSIXErrorText(errno) }
        defer { closedir(directory) }
        var entries: [(String, Bool)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(".") { continue }
            let type = entry.pointee.d_type
            let isFolder = type == DT_DIR || ((type == DT_LNK || type == DT_UNKNOWN) && isDirectory(join(folder, name)))
            entries.append((name, isFolder))
        }
        return entries
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}

/// strerror's text for an errno value, as an Error.
struct POSIXErrorText: Error, CustomStringConvertible {
    let code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
}
