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
///
/// Each real folder is walked once. Where symbolic links lead to a folder that is also reached another
/// way, the folder itself wins (it is walked at its own path, whatever the links' names), then the first
/// link in walking order: links to folders are followed only once the folders reached without links have
/// all been walked, then in the order they were found, each put back in its place in the listing. Under a
/// link policy, every other link to the same folder is `.skipped`, saying which path it is walked as (a
/// gallery's album is named after the one path).
struct FolderWalker {
    var recursive = true
    /// Folders never entered (the build's output and cache folders, when they sit inside the input).
    var excluding: Set<FileIdentity> = []
    /// Where symbolic links may lead; nil follows every link (reading a header publishes nothing).
    var links: LinkPolicy? = nil
    /// Sub-folders that hold a Waterfall site or cache are not entered (an earlier output is not photos).
    var skipsWaterfallFolders = false
    /// A folder's `.nomedia` leaves it, or the names it lists, out (`NoMedia`): for the input's photos.
    var honoursNoMedia = false
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
        var walk = Walk(root: folder, excluding: excluding)
        let top = self.walk(folder, depth: 0, walk: &walk)
        // Links to folders, in the order they were found (entering one may find more).
        var next = 0
        while next < walk.links.count {
            let link = walk.links[next]
            if let walked = walk.visited[link.identity] {
                walk.links[next].items = duplicate(link.path, of: walked, in: walk, isLink: true)
            } else {
                walk.links[next].items = enter(link.path, depth: link.depth, walk: &walk)
            }
            next += 1
        }
        return walk.flatten(top)
    }

    /// What one walk has seen: each real folder walked, by identity, with the path it was walked at (an
    /// excluded folder's is nil), and the links to folders found, waiting for their turn.
    private struct Walk {
        /// The folder the walk started from.
        let root: String
        var visited: [FileIdentity: String?]
        var links: [PendingLink] = []

        init(root: String, excluding: Set<FileIdentity>) {
            self.root = root
            visited = Dictionary(uniqueKeysWithValues: excluding.map { ($0, nil) })
        }

        /// The listing, each link replaced by what following it gave, in its place.
        func flatten(_ items: [Item]) -> [Entry] {
            var entries: [Entry] = []
            for item in items {
                switch item {
                case .entry(let entry): entries.append(entry)
                case .link(let index): entries += flatten(links[index].items)
                }
            }
            return entries
        }
    }

    /// An entry of a listing, or the place of a link to a folder, decided once every folder reached without
    /// a link has been walked.
    private enum Item {
        case entry(Entry)
        case link(Int)
    }

    private struct PendingLink {
        var path: String
        var identity: FileIdentity
        var depth: Int
        var items: [Item] = []
    }

    private func walk(_ folder: String, depth: Int, walk: inout Walk) -> [Item] {
        // Symbolic links may point back up the tree; each real folder is walked once.
        guard let identity = FileIdentity(path: folder) else { return [] }
        if let walked = walk.visited[identity] { return duplicate(folder, of: walked, in: walk, isLink: false) }
        walk.visited[identity] = folder
        let handle: FolderHandle, listing: [DirectoryEntry]
        do {
            handle = try FolderHandle.open(folder, create: false)
            listing = try handle.list()
        } catch {
            return [.entry(.skipped(PathText.display(folder), reason: error.reason, isFolder: true))]
        }
        var items: [Item] = []
        var leftOut: Set<String> = []
        if honoursNoMedia, listing.contains(where: { $0.name.elementsEqual(NoMedia.name.utf8) }) {
            switch Result(catching: { () throws(FileSystemError) in try NoMedia.read(in: handle) }) {
            case .success(.wholeFolder): return [.entry(.note(PathText.display(folder), "has an empty \(NoMedia.name), so it is not scanned"))]
            case .success(.names(let names)): leftOut = names
            case .failure(let error):
                // Its marker asks for something to be left out: unread, the whole folder is.
                return [.entry(.skipped(PathText.display(folder), reason: "its \(NoMedia.name) cannot be read (\(error.reason)), "
                                        + "so the folder is left out", isFolder: true))]
            }
        }
        var named: [(name: String, entry: DirectoryEntry)] = []
        for entry in listing where entry.name.first != UInt8(ascii: ".") {
            guard let name = entry.text else {
                let shown = FolderPath.join(PathText.display(folder), PathText.display(bytes: entry.name))
                items.append(.entry(.skipped(shown, reason: "the name is not valid UTF-8 (rename it to publish it)",
                                             isFolder: entry.kind == .folder)))
                continue
            }
            named.append((name, entry))
        }
        let omitted = named.filter { leftOut.contains($0.name) }.map(\.name)
        if !omitted.isEmpty {
            let shown = NaturalOrder.sorted(omitted, by: \.self).map { PathText.display($0) }
            items.append(.entry(.note(PathText.display(folder), NoMedia.note(leavingOut: shown))))
            named.removeAll { leftOut.contains($0.name) }
        }
        for (name, entry) in NaturalOrder.sorted(named, by: \.name) {
            items += visit(FolderPath.join(folder, name), kind: entry.kind, depth: depth + 1, walk: &walk)
        }
        return items
    }

    private func visit(_ path: String, kind: EntryKind, depth: Int, walk: inout Walk) -> [Item] {
        switch kind {
        case .file:
            return [.entry(.file(path))]
        case .folder:
            return recursive ? enter(path, depth: depth, walk: &walk) : []
        case .other:
            return [.entry(.skipped(path, reason: Self.specialReason(path), isFolder: false))]
        case .link:
            var info = stat()
            guard stat(path, &info) == 0 else {
                return [.entry(.skipped(path, reason: "broken symbolic link (to \(LinkPolicy.target(of: path)))", isFolder: false))]
            }
            let target = EntryKind(info.st_mode)
            if let refusal = links?.refusal(forLinkAt: path) {
                return [.entry(.skipped(path, reason: refusal, isFolder: target == .folder))]
            }
            switch target {
            case .file: return [.entry(.file(path))]
            case .folder:
                guard recursive else { return [] }
                walk.links.append(PendingLink(path: path, identity: FileIdentity(info), depth: depth))
                return [.link(walk.links.count - 1)]
            default: return [.entry(.skipped(path, reason: Self.specialReason(path), isFolder: false))]
            }
        }
    }

    private func enter(_ folder: String, depth: Int, walk: inout Walk) -> [Item] {
        if skipsWaterfallFolders, let what = Self.waterfallContent(of: folder) {
            return [.entry(.note(folder, "holds \(what), so it is not scanned"))]
        }
        guard depth <= Self.maximumDepth else {
            return [.entry(.skipped(folder, reason: "nested more than \(Self.maximumDepth) folders deep", isFolder: true))]
        }
        return self.walk(folder, depth: depth, walk: &walk)
    }

    /// A link to a folder already walked (at `walked`; nil for a folder the build writes), or a folder
    /// inside a linked one that was reached before: under a link policy, one line saying so (a folder the
    /// build writes, reached without a link, is passed over in silence, as ever); else nothing.
    private func duplicate(_ path: String, of walked: String?, in walk: Walk, isLink: Bool) -> [Item] {
        guard links != nil, isLink || walked != nil else { return [] }
        let link = isLink ? "symbolic link to \(LinkPolicy.target(of: path)), " : ""
        let reason: String
        switch walked {
        case walk.root?: reason = link + "the top folder itself"
        case let walked?: reason = link + "a folder already included as \(PathText.display(walked))"
        case nil: reason = link + "a folder this build writes (never read)"
        }
        return [.entry(.skipped(path, reason: reason, isFolder: true))]
    }

    /// "a Waterfall site" or "a cache" when the folder holds one.
    static func waterfallContent(of folder: String) -> String? {
        guard let handle = try? FolderHandle.open(folder, create: false) else { return nil }
        if handle.kind(SitePath.stateFolder) == .folder { return "a Waterfall site (an earlier output)" }
        if handle.kind(CacheFolder.markerName) == .file { return "a cache (it has a \(CacheFolder.markerName))" }
        if handle.kind("page.mustache") == .file { return "a theme (it has a page.mustache)" }
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
