/// Files proven before (`ProvenFile`), to be asked whether one is among them: the output's records
/// themselves (no copy of their 400,000 files for a site of 100,000 photos) and any other files, found
/// through an open-addressed table of 32-bit slots keyed by identity (linear probing, at most half full).
/// A set of those files allocated room for a million and held a fifth of a rebuild's peak memory; a
/// sorted copy took 0.2 s of the rebuild on one core to sort and 19 MB to hold.
struct ProvenFiles: Sendable {
    private let records: OutputRecords
    private let others: [ProvenFile]
    /// A slot below `records.count` is a record's place; above, a place in `others`.
    private let slots: [Int32]
    private let mask: Int

    init(_ files: [ProvenFile]) { self.init(records: OutputRecords(), others: files) }

    init(records: OutputRecords, others: [ProvenFile]) {
        self.records = records
        self.others = others
        var size = 16
        while size < (records.count + others.count) * 2 { size *= 2 }
        mask = size - 1
        var slots = [Int32](repeating: -1, count: size)
        for slot in 0..<Int32(records.count + others.count) {
            guard let file = Self.file(at: slot, records: records, others: others) else { continue }
            // One file is listed once: a site links one stored image at many paths (photos with the same
            // content), and a run of equal keys would make every probe long.
            var place = Self.hash(file) & mask
            while slots[place] >= 0, Self.file(at: slots[place], records: records, others: others) != file { place = (place + 1) & mask }
            if slots[place] < 0 { slots[place] = slot }
        }
        self.slots = slots
    }

    func contains(_ file: ProvenFile) -> Bool {
        var place = Self.hash(file) & mask
        while true {
            let slot = slots[place]
            if slot < 0 { return false }
            if Self.file(at: slot, records: records, others: others) == file { return true }
            place = (place + 1) & mask
        }
    }

    private static func file(at slot: Int32, records: OutputRecords, others: [ProvenFile]) -> ProvenFile? {
        slot < records.count ? records.provenFile(at: slot) : others[Int(slot) - records.count]
    }

    /// The identity's bits mixed (Fibonacci hashing): inodes of one folder are often consecutive.
    private static func hash(_ file: ProvenFile) -> Int {
        Int(truncatingIfNeeded: ((file.identity.inode ^ file.identity.device &* 31) &* 0x9E37_79B9_7F4A_7C15) >> 20)
    }
}
