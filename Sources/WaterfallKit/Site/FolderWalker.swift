#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Lists every file in a folder (and, when recursive, under it, depth first) in natural name order,
/// skipping dot-files and dot-folders. Uses the entry types readdir reports, so a file costs no extra stat.
///
/// What cannot be used comes back as `.skipped` with the reason, for the caller to report when it
/// matters: names that are not UTF-8, FIFOs and other special files, links that lead outside the folder
/// (under a `LinkPolicy`), broken links, folders that cannot be listed.
struct FolderWalker {
    var recursive = true
    /// Folders never entered (the build's output and cache folders, when they sit inside the input).
    var excluding: Set<FileIdentity> = []
    /// Where symbolic links may lead; nil follows every link (reading a header publishes nothing).
    var links: LinkPolicy? = nil
    /// Sub-folders that hold a Waterfall site or cache are not entered (an earlier output is not photos).
    var skipsWaterfallFolders = false
    /// Folders nested deeper than this are left out (and reported): albums that deep are a mistake or an
    /// attack, and every stage after the scan is then bounded.
    static let maximumDepth = 32

    enum Entry: Equatable, Sendable {
        /// A regular file (or a link to one that may be followed).
        case file(String)
        /// Something left out, and why. `path` is for messages (bytes that are not UTF-8 are escaped).
        case skipped(String, reason: String, isFolder: Bool)
        /// A folder left out on purpose, with a note saying why.
        case note(String, String)

        var path: String {
            switch self {
            case .file(let path), .skipped(let path, _, _), .note(let path, _): path
            }
        }
    }

    func files(under folder: String) -> [Entry] {
        var visited = excluding
        return walk(folder, depth: 0, visited: &visited)
    }

    private func walk(_ folder: String, depth: Int, visited: inout Set<FileIdentity>) -> [Entry] {
        // Symbolic links may point back up the tree; each real folder is walked once.
        guard let identity = FileIdentity(path: folder), visited.insert(identity).inserted else { return [] }
        let listing: [DirectoryEntry]
        do {
            listing = try FolderHandle.open(folder, create: false).list()
        } catch {
            return [.skipped(PathText.display(folder), reason: error.reason, isFolder: true)]
        }
        var named: [(name: String, entry: DirectoryEntry)] = []
        var entries: [Entry] = []
        for entry in listing where entry.name.first != UInt8(ascii: ".") {
            guard let name = entry.text else {
                let shown = FolderPath.join(PathText.display(folder), PathText.display(bytes: entry.name))
                entries.append(.skipped(shown, reason: "the name is not valid UTF-8 (rename it to publish it)",
                                        isFolder: entry.kind == .folder))
                continue
            }
            named.append((name, entry))
        }
        for (name, entry) in NaturalOrder.sorted(named, by: \.name) {
            entries += visit(FolderPath.join(folder, name), kind: entry.kind, depth: depth + 1, visited: &visited)
        }
        return entries
    }

    private func visit(_ path: String, kind: EntryKind, depth: Int, visited: inout Set<FileIdentity>) -> [Entry] {
        switch kind {
        case .file:
            return [.file(path)]
        case .folder:
            return recursive ? enter(path, depth: depth, visited: &visited) : []
        case .other:
            return [.skipped(path, reason: Self.specialReason(path), isFolder: false)]
        case .link:
            var info = stat()
            guard stat(path, &info) == 0 else {
                return [.skipped(path, reason: "broken symbolic link (to \(LinkPolicy.target(of: path)))", isFolder: false)]
            }
            let target = EntryKind(info.st_mode)
            if let refusal = links?.refusal(forLinkAt: path) {
                return [.skipped(path, reason: refusal, isFolder: target == .folder)]
            }
            switch target {
            case .file: return [.file(path)]
            case .folder: return recursive ? enter(path, depth: depth, visited: &visited) : []
            default: return [.skipped(path, reason: Self.specialReason(path), isFolder: false)]
            }
        }
    }

    private func enter(_ folder: String, depth: Int, visited: inout Set<FileIdentity>) -> [Entry] {
        if skipsWaterfallFolders, let what = Self.waterfallContent(of: folder) {
            return [.note(folder, "holds \(what), so it is not scanned")]
        }
        guard depth <= Self.maximumDepth else {
            return [.skipped(folder, reason: "nested more than \(Self.maximumDepth) folders deep", isFolder: true)]
        }
        return walk(folder, depth: depth, visited: &visited)
    }

    /// "a Waterfall site" or "a cache" when the folder holds one.
    static func waterfallContent(of folder: String) -> String? {
        guard let handle = try? FolderHandle.open(folder, create: false) else { return nil }
        if handle.kind(SiteWriter.stateFolder) == .folder { return "a Waterfall site (an earlier output)" }
        if handle.kind(CacheFolder.markerName) == .file { return "a cache (it has a \(CacheFolder.markerName))" }
        if CacheFolder.isLegacyCache(handle) { return "a Waterfall cache" }
        return nil
    }

    /// "not a regular file (a FIFO)".
    private static func specialReason(_ path: String) -> String {
        var info = stat()
        return stat(path, &info) == 0 ? OpenFile.notRegular(info.st_mode) : "not a regular file"
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func join(_ folder: String, _ name: String) -> String { FolderPath.join(folder, name) }
}

/// Where symbolic links may lead: inside one folder (the input, or the theme), unless the user allows
/// every link (`--follow-symlinks`), for people who link photo folders in on purpose. Real paths are
/// compared as bytes (`RealPath`): a folder beside the input whose name differs only in bytes that are not
/// UTF-8 is outside it.
struct LinkPolicy: Sendable {
    /// The real path of the folder links must stay inside.
    let root: [UInt8]
    let followsAll: Bool
    /// "the input", "the theme": for the message.
    let label: String

    init(root: String, label: String, followsAll: Bool) {
        self.root = RealPath.of(root) ?? RealPath.resolved(root)
        self.label = label
        self.followsAll = followsAll
    }

    /// nil when the link at `path` may be followed; else why not, naming where it points.
    func refusal(forLinkAt path: String) -> String? {
        guard let real = RealPath.of(path) else { return "broken symbolic link (to \(Self.target(of: path)))" }
        if followsAll { return nil }
        guard RealPath.isWithin(real, root) else {
            return "symbolic link to \(Self.target(of: path)), outside \(label) (--follow-symlinks allows it)"
        }
        // Hidden files and folders are never the gallery's (`.git/config` holds a CI token): a link does not
        // make them so.
        if RealPath.isHidden(real, under: root) {
            return "symbolic link to \(Self.target(of: path)), a hidden file or folder (--follow-symlinks allows it)"
        }
        return nil
    }

    /// What a link says it points to, for messages.
    static func target(of link: String) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let length = buffer.withUnsafeMutableBytes { readlink(link, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        guard length > 0 else { return "?" }
        return PathText.display(bytes: Array(buffer[..<length]))
    }
}
