/// Files proven before (`ProvenFile`), to be asked whether one is among them: a sorted list searched by
/// halves, because a set of the 400,000 files of a site of 100,000 photos allocates room for a million
/// and held a fifth of a rebuild's peak memory.
struct ProvenFiles: Sendable {
    private let files: [ProvenFile]

    init(_ files: [ProvenFile]) {
        var files = files
        files.sort(by: Self.precedes)  // in place: no second copy
        self.files = files
    }

    func contains(_ file: ProvenFile) -> Bool {
        var low = 0, high = files.count
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(files[middle], file) { low = middle + 1 } else { high = middle }
        }
        return low < files.count && files[low] == file
    }

    /// Any total order on every field will do.
    private static func precedes(_ a: ProvenFile, _ b: ProvenFile) -> Bool {
        (a.identity.inode, a.identity.device, a.status.modified, a.status.size, a.hash.high, a.hash.low)
            < (b.identity.inode, b.identity.device, b.status.modified, b.status.size, b.hash.high, b.hash.low)
    }
}
