/// Finds paths that one case-insensitive or normalising file system (macOS, Windows) would take for one
/// file, or for a file and a folder (`x` and `X/y.html`), as `NameAllocator.fold` folds names.
///
/// Folding never crosses a `/` (case maps one character at a time; a slash blocks canonical reordering
/// and composition), so two paths clash exactly when their folders fold alike and their names do. The
/// check therefore folds each folder's spelling once and each file's name alone, folder by folder (on
/// every core), instead of folding and hashing every whole path in one table of 400,000.
struct FoldedPaths {
    let paths: [String]

    /// Throws the clash of the earliest path (in the order given) that meets an earlier one; a file that is
    /// also a folder's path only when no two files clash.
    func check(jobs: Int = Parallelism.available) throws(FileSystemError) {
        let (groups, spellings) = folderGroups()
        let childFolders = Self.childFolders(of: spellings)
        let clashes = groups.parallelMap(jobs: jobs) { group in firstClashes(in: group, childFolders: childFolders) }
        if let same = clashes.compactMap(\.file).min(by: { $0.index < $1.index }) {
            throw FileSystemError(paths[same.index], "and \(PathText.display(paths[same.other])) would be the same file on some file systems")
        }
        if let both = clashes.compactMap(\.folder).min(by: { $0.index < $1.index }) {
            throw FileSystemError(paths[both.index], "is both a file and the folder of \(PathText.display(both.folder))/…")
        }
    }

    /// The paths' folders that fold alike, each with the positions of the paths in them, in order.
    private struct Group: Sendable {
        var folder: String
        var positions: [Int]
    }

    /// The groups, and every folder spelling the paths use, each once, in the order the paths first use them.
    private func folderGroups() -> (groups: [Group], spellings: [String]) {
        var byFolder: [ExactPath: [Int]] = [:]
        for (position, path) in paths.enumerated() {
            byFolder[ExactPath(SitePath.folder(of: path)), default: []].append(position)
        }
        // Spellings of one folder that fold alike are one group (rare: their positions are merged in order).
        var groups: [String: Group] = [:]
        for (folder, positions) in byFolder {
            let folded = NameAllocator.fold(folder.text)
            if var group = groups[folded] {
                group.positions = (group.positions + positions).sorted()
                groups[folded] = group
            } else {
                groups[folded] = Group(folder: folded, positions: positions)
            }
        }
        let spellings = byFolder.sorted { $0.value[0] < $1.value[0] }.map(\.key.text)
        return (Array(groups.values), spellings)
    }

    /// Every folder the paths need (their folders and those above), by its parent's folded path: its name
    /// folded, and its own spelling. From the folders' spellings in the order the paths first use them (the
    /// same answer as walking every path), not from the paths: a few hundred, not 400,000.
    private static func childFolders(of spellings: [String]) -> [String: [String: String]] {
        var seen = Set<ExactPath>()
        var children: [String: [String: String]] = [:]
        for spelling in spellings {
            var folder = spelling
            while !folder.isEmpty, seen.insert(ExactPath(folder)).inserted {
                let parent = SitePath.folder(of: folder)
                children[NameAllocator.fold(parent), default: [:]][NameAllocator.fold(FolderPath.lastComponent(of: folder))] = folder
                folder = parent
            }
        }
        return children
    }

    /// A group's first two files that fold alike (by the later one's position), and its first file whose
    /// path is a folder's.
    private func firstClashes(in group: Group, childFolders: [String: [String: String]])
        -> (file: (index: Int, other: Int)?, folder: (index: Int, folder: String)?) {
        var names: [String: Int] = [:]
        names.reserveCapacity(group.positions.count)
        let folders = childFolders[group.folder] ?? [:]
        var file: (index: Int, other: Int)?
        var folder: (index: Int, folder: String)?
        for position in group.positions {
            let name = NameAllocator.fold(FolderPath.lastComponent(of: paths[position]))
            if file == nil, let other = names.updateValue(position, forKey: name) { file = (position, other) }
            if folder == nil, let path = folders[name] { folder = (position, path) }
        }
        return (file, folder)
    }
}
