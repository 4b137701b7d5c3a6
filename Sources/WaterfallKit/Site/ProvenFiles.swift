/// Files proven before (`ProvenFile`), to be asked whether one is among them: the files in one list, found
/// through an open-addressed table of 32-bit slots keyed by inode (linear probing, at most half full).
/// A set of the 400,000 files of a site of 100,000 photos allocates room for a million and held a fifth of a
/// rebuild's peak memory; sorting the list instead took 0.2 s of the rebuild on one core.
struct ProvenFiles: Sendable {
    private let files: [ProvenFile]
    private let slots: [Int32]
    private let mask: Int

    init(_ files: [ProvenFile]) {
        var size = 16
        while size < files.count * 2 { size *= 2 }
        var slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        // One file is listed once: a site links one stored image at many paths (photos with the same
        // content), and a run of equal keys would make every probe long.
        for (index, file) in files.enumerated() {
            var place = Self.hash(file) & mask
            while slots[place] >= 0 && files[Int(slots[place])] != file { place = (place + 1) & mask }
            if slots[place] < 0 { slots[place] = Int32(index) }
        }
        self.files = files
        self.slots = slots
    }

    func contains(_ file: ProvenFile) -> Bool {
        var place = Self.hash(file) & mask
        while true {
            let slot = slots[place]
            if slot < 0 { return false }
            if files[Int(slot)] == file { return true }
            place = (place + 1) & mask
        }
    }

    /// The identity's bits mixed (Fibonacci hashing): inodes of one folder are often consecutive.
    private static func hash(_ file: ProvenFile) -> Int {
        Int(truncatingIfNeeded: ((file.identity.inode ^ file.identity.device &* 31) &* 0x9E37_79B9_7F4A_7C15) >> 20)
    }
}
