#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// What an output folder's records say Waterfall wrote: the manifest of the last finished build
/// (`.waterfall/manifest.json`) and the journal of a build that was stopped before it finished
/// (`.waterfall/journal`, one record appended before each file is renamed into place).
///
/// Both are JSON, one record per line, so a name may hold any character (a newline included) and a line
/// torn by a killed build is simply not a record. A file counts as Waterfall's only when a record proves
/// it: the same identity, size and time stamp as recorded, or the same content hash.
///
/// Without a key, whoever can write the records can write one that proves any file (its content hash is
/// public). In keyed mode (`RecordKey`) a line counts only when its MAC verifies, an identity proof holds
/// the change time too, and the content hash is keyed: a record no one forged, proving only a file that
/// is exactly what Waterfall wrote.
struct OutputRecords: Sendable {
    static let manifestName = "manifest.json"
    static let journalName = "journal"
    private static let heading = #"{"waterfall":"manifest","version":"# + "\(Versions.manifest)}"

    /// The latest record of every path, its path's UTF-8 bytes in one shared buffer (`bytes`) rather than a
    /// string each, and where each is by path (as bytes: two spellings of one name are two paths): an
    /// open-addressed table of indexes into the list, so 400,000 paths cost one buffer, one list and one table
    /// of 32-bit slots. Earlier records (rarely: a build stopped half way) beside them.
    private var all: [Entry] = []
    private var bytes: [UInt8] = []
    private var table = PathTable()
    private var earlier: [ExactPath: [OwnedFile]] = [:]
    /// The content hash files are proven by (keyed in keyed mode), and keyed mode's MAC of record lines.
    private(set) var hasher = ContentHasher.plain
    private var mac: RecordMAC?
    private var seal: RecordMAC?
    /// Lines keyed mode found without a valid MAC (made without the key, or with another, or forged): ignored.
    private(set) var unsigned = 0

    /// A record as kept: its path is `count` bytes at `start` in `bytes`.
    private struct Entry: Sendable {
        var start: Int
        var count: Int
        var size: Int
        var hash: ContentDigest?
        var identity: FileIdentity
        var modified: Int
        var inputs: ContentDigest?
        /// The change time, or `unknown` (without a key): a word, not an optional's two.
        var changed: Int

        static let unknown = Int.min

        init(start: Int, count: Int, record: OwnedFile) {
            self.start = start
            self.count = count
            size = record.size
            hash = record.hash
            identity = record.identity
            modified = record.modified
            inputs = record.inputs
            changed = record.changed ?? Self.unknown
        }

        func isUnchanged(_ info: stat) -> Bool {
            FileIdentity(info) == identity && Int(info.st_size) == size && FileStatus(info).modified == modified
                && (changed == Self.unknown || FileChange(info).nanoseconds == changed)
        }

        var changeTime: Int? { changed == Self.unknown ? nil : changed }
    }

    /// What proves a file at a path: nothing, the latest record of that path (named by its place in the
    /// list, not copied: a plan holds one for every file of the site), or another record.
    enum Proof: Sendable, Equatable {
        case none
        case latest(Int32)
        indirect case other(OwnedFile)
    }

    init() {}

    /// No records yet, for a build keyed by `key`.
    init(key: RecordKey?) {
        hasher = key?.content ?? .plain
        mac = key?.records
        seal = key?.manifest
    }

    /// Whether the records are keyed mode's.
    var isKeyed: Bool { mac != nil }

    /// The record of entry `slot`, its path made a string.
    private func record(_ slot: Int32) -> OwnedFile {
        let entry = all[Int(slot)]
        let path = bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[entry.start..<entry.start + entry.count]), as: UTF8.self) }
        var record = OwnedFile(path: path, size: entry.size, hash: entry.hash, identity: entry.identity, modified: entry.modified, inputs: entry.inputs)
        record.changed = entry.changeTime
        return record
    }

    /// The slot of `path`'s latest record.
    private func slot(of path: ExactPath) -> Int32? {
        var text = path.text
        return text.withUTF8 { key in
            bytes.withUnsafeBufferPointer { buffer in table.find(key, hash: PathTable.hash(UnsafeRawBufferPointer(key))) { slot in
                let entry = all[Int(slot)]
                return entry.count == key.count && (key.count == 0 || memcmp(key.baseAddress!, buffer.baseAddress! + entry.start, key.count) == 0)
            } }
        }
    }

    /// The most a record file may hold: a record takes some 180 bytes (some 250 keyed), so 1 GiB is the manifest
    /// of some four to six million files (100,000 photos in JPEG make 400,000 files, 70 MB). A larger manifest or
    /// journal is not read at all (a sparse file of 3 GB once cost 4.4 GB).
    static let maximumFileBytes = 1 << 30
    /// The most records the manifest and the journal may hold together: 6 million short records took 850 MB
    /// (the whole build's peak), what a site that large needs; a file of millions of short lines that look
    /// like records is cut off there, not read into gigabytes.
    static let maximumRecords = 6_000_000
    /// The longest record: a path of 33 components of 255 bytes (32 folders deep and a file), each byte of
    /// it escaped as `\u00XX` at worst, and the other fields. A longer line is no record, and its bytes are
    /// never gathered.
    static let maximumLineBytes = 64 << 10

    /// The records in the state folder; what cannot be read proves nothing, and with `key`, neither does a
    /// line without a valid MAC. A record file over its limits is ignored as damaged.
    static func read(from state: FolderHandle, key: RecordKey? = nil) -> OutputRecords {
        var warnings: [String] = []
        return read(from: state, key: key, warnings: &warnings)
    }

    /// As `read(from:key:)`, with a line for each record file ignored as damaged in `warnings`. A keyed
    /// manifest's seal (its last line) vouches for all its lines at once (one pass of keyed BLAKE2b over the
    /// file, not a tag per line); when it does not verify (a line added or changed, another key's manifest),
    /// the file is read again and each line's own MAC decides.
    static func read(from state: FolderHandle, key: RecordKey? = nil, warnings: inout [String],
                     maximumRecords: Int = OutputRecords.maximumRecords) -> OutputRecords {
        var records = OutputRecords(key: key)
        if let manifest = try? state.openFile(manifestName), Self.fits(manifest, warnings: &warnings) {
            var read = records.readLines(of: manifest, trustingSeal: true, room: maximumRecords)
            if !read.sealHolds {
                records = OutputRecords(key: key)
                read = records.readLines(of: manifest, trustingSeal: false, room: maximumRecords)
                records.sealHeld = false
            }
            if read.overflow {
                warnings.append("\(PathText.display(manifest.path)): more than \(maximumRecords) records; ignored as damaged")
                records = OutputRecords(key: key)
            } else {
                Self.sayOverlong(read.overlong, in: manifest, warnings: &warnings)
            }
        }
        if let journal = try? state.openFile(journalName), Self.fits(journal, warnings: &warnings) {
            // The journal (rare: a build was stopped) is counted before any of it is added, so that a journal
            // over the limit costs neither memory nor the manifest's records.
            let room = maximumRecords - records.count
            if let count = countRecords(in: journal, upTo: room), count > room {
                warnings.append("\(PathText.display(journal.path)): more than \(maximumRecords) records"
                    + "\(records.count > 0 ? " with the manifest's" : ""); ignored as damaged")
            } else {
                let read = records.readLines(of: journal, trustingSeal: false, room: room)
                Self.sayOverlong(read.overlong, in: journal, warnings: &warnings)
                if read.records > 0 { records.isManifestOnly = false }
            }
        }
        return records
    }

    /// Whether a record file is within the size it may have; else a line says it is ignored.
    private static func fits(_ file: OpenFile, warnings: inout [String]) -> Bool {
        guard file.size > maximumFileBytes else { return true }
        warnings.append("\(PathText.display(file.path)): larger than the \(ByteCount.text(maximumFileBytes)) a record file may hold; "
            + "ignored as damaged")
        return false
    }

    private static func sayOverlong(_ overlong: Int, in file: OpenFile, warnings: inout [String]) {
        guard overlong > 0 else { return }
        warnings.append("\(PathText.display(file.path)): \(overlong) line\(overlong == 1 ? "" : "s") longer than "
            + "\(ByteCount.text(maximumLineBytes)), which no record is; \(overlong == 1 ? "it is" : "they are") ignored as damaged")
    }

    /// What reading a record file's lines found: the records added; whether a keyed manifest's seal held (or
    /// every line's own MAC was checked); whether there were more records than room; lines over the limit.
    private struct LinesRead {
        var records = 0
        var sealHolds = true
        var overflow = false
        var overlong = 0
    }

    /// Adds the records of the file's lines, `room` of them at most. With `trustingSeal` in keyed mode the
    /// lines' own MACs are not checked, and the file's seal decides: `sealHolds` false means it did not verify
    /// (the records added are then not to be used). Without a key, or checking each line, it holds.
    private mutating func readLines(of file: OpenFile, trustingSeal: Bool, room: Int) -> LinesRead {
        // Room for every line at once (a record takes some 180 bytes): growing a table of 400,000 records
        // rehashes them all several times.
        let expected = min(file.size / 160, room)
        reserve(count + expected)
        all.reserveCapacity(count + expected)
        bytes.reserveCapacity(bytes.count + min(file.size / 4, 256 << 20))
        let mac = self.mac
        var stream = trustingSeal ? seal?.stream() : nil
        let checkingEach = stream == nil
        var sealed = false
        var read = LinesRead()
        let overlong = try? file.forEachLine(maximumLineBytes: Self.maximumLineBytes) { line in
            if stream != nil {
                // The seal counts only as the last line: its tag is of every byte before it.
                sealed = OutputRecordLine.manifestSealTag(line).map { RecordMAC.equal($0, stream!.tag) } ?? false
                stream!.add(line: line)
            }
            guard let (path, record) = OutputRecordLine.parseInPlace(line, mac: mac, verifying: checkingEach) else {
                if checkingEach, mac != nil, line.first == UInt8(ascii: "{"), line.count > 2, line[line.startIndex + 1] == UInt8(ascii: "\"") {
                    // A line of JSON: a record without a valid MAC (the heading and the seal are `{"waterfall"…`).
                    if !line.starts(with: Self.headingStart) { unsigned += 1 }
                }
                return true
            }
            guard read.records < room else {
                read.overflow = true
                return false
            }
            path.withUnsafeBufferPointer { add(record, path: $0) }
            read.records += 1
            return true
        }
        read.sealHolds = checkingEach || sealed
        read.overlong = overlong ?? 0
        return read
    }

    private static let headingStart = Array(#"{"waterfall""#.utf8)

    /// How many records the file holds, counting no further than one past `limit`; nil when it cannot be read.
    /// (Each line as a record would be read without its MAC checked: the count bounds memory, it proves nothing.)
    private static func countRecords(in file: OpenFile, upTo limit: Int) -> Int? {
        var count = 0
        let read = try? file.forEachLine(maximumLineBytes: maximumLineBytes) { line in
            if OutputRecordLine.parseInPlace(line, mac: nil) != nil { count += 1 }
            return count <= limit
        }
        return read == nil ? nil : count
    }

    /// Whether the records all came from a manifest (no journal of a stopped build added any).
    private(set) var isManifestOnly = true
    /// Whether the manifest is as a build wrote it: false when keyed mode found its seal broken (lines added
    /// or changed since, or another key's), so that the next manifest is written anew.
    private(set) var sealHeld = true

    /// How many paths the records name.
    var count: Int { all.count }

    /// The latest record of `path`.
    func record(at path: ExactPath) -> OwnedFile? { slot(of: path).map(record) }

    /// The latest record of `path`, when it shows the file of lstat `info` unchanged (compared in place, no copy).
    func latestProof(of path: ExactPath, info: stat) -> Proof? {
        guard let slot = slot(of: path), all[Int(slot)].isUnchanged(info) else { return nil }
        return .latest(slot)
    }

    /// The record `proof` names.
    func resolve(_ proof: Proof) -> OwnedFile? {
        switch proof {
        case .none: nil
        case .latest(let slot): record(slot)
        case .other(let record): record
        }
    }

    /// Whether `proofs` (what proves the file at each planned path) are exactly these records, one for one:
    /// then the manifest on disk is already the one the build would write. A latest record proves only its
    /// own path, so as many of them as there are records, each named once, are all of them.
    func same<Proofs: Collection>(as proofs: Proofs) -> Bool where Proofs.Element == Proof {
        proofs.count == count && earlier.isEmpty && proofs.allSatisfy { proof in
            switch proof {
            case .none: false
            case .latest: true
            case .other(let record): self.record(at: ExactPath(record.path)) == record  // a record of the planned path itself
            }
        }
    }

    /// Adds `record`, whose path is `key`'s UTF-8 bytes (its own `path` not read).
    private mutating func add(_ record: OwnedFile, path key: UnsafeBufferPointer<UInt8>) {
        do {
            let hash = PathTable.hash(UnsafeRawBufferPointer(key))
            let found = bytes.withUnsafeBufferPointer { buffer in table.find(key, hash: hash) { slot in
                let entry = all[Int(slot)]
                return entry.count == key.count && (key.count == 0 || memcmp(key.baseAddress!, buffer.baseAddress! + entry.start, key.count) == 0)
            } }
            if let slot = found {
                // A path seen before (rarely): the earlier record moves aside, the slot keeps its place.
                let before = self.record(slot)
                earlier[ExactPath(before.path), default: []].append(before)
                let entry = all[Int(slot)]
                all[Int(slot)] = Entry(start: entry.start, count: entry.count, record: record)
                return
            }
            let start = bytes.count
            bytes.append(contentsOf: key)
            all.append(Entry(start: start, count: key.count, record: record))
            if table.needsRoom(for: all.count) { reserve(all.count * 2) } else { table.insert(Int32(all.count - 1), hash: hash) }
        }
    }

    /// Room in the table for `count` paths.
    private mutating func reserve(_ count: Int) {
        guard table.needsRoom(for: count) else { return }
        table.reserve(count, hashes: hashes)
    }

    /// The hash of every entry's path, by slot (for the table to grow).
    private var hashes: [Int] {
        bytes.withUnsafeBytes { buffer in
            all.map { PathTable.hash(UnsafeRawBufferPointer(rebasing: buffer[$0.start..<$0.start + $0.count])) }
        }
    }

    /// Every path the records name.
    var paths: [String] { (0..<Int32(all.count)).map { record($0).path } }

    /// The newest record of every path.
    var latest: [OwnedFile] { (0..<Int32(all.count)).map(record) }

    /// Every file proven before, for the cache to skip hashing what has not changed.
    var proven: ProvenFiles {
        ProvenFiles(records: self, others: earlier.values.flatMap { $0.compactMap(\.proven) })
    }

    /// The file the latest record in `slot` proves, when it has a content hash.
    func provenFile(at slot: Int32) -> ProvenFile? {
        let entry = all[Int(slot)]
        return entry.hash.map {
            ProvenFile(identity: entry.identity, status: FileStatus(size: entry.size, modified: entry.modified), hash: $0, changed: entry.changeTime)
        }
    }

    /// The record that proves the file at `path` (lstat `info`) is one Waterfall wrote, with its content
    /// hash as it is now; nil when none does. `open` opens the file for hashing, only when needed.
    func owner(of path: String, info: stat, open: () -> OpenFile?) -> OwnedFile? {
        resolve(proof(of: path, info: info, open: open))
    }

    /// `owner`, naming the latest record instead of copying it when that is the one (the common case).
    func proof(of path: String, info: stat, open: () -> OpenFile?) -> Proof {
        let key = ExactPath(path)
        guard EntryKind(info.st_mode) == .file, let slot = slot(of: key) else { return .none }
        if all[Int(slot)].isUnchanged(info) { return .latest(slot) }
        let latest = record(slot)
        let candidates = [latest] + (earlier[key] ?? [])
        if let same = candidates.first(where: { $0.isUnchanged(info) }) { return .other(same) }
        let sized = candidates.filter { $0.size == Int(info.st_size) }
        guard !sized.isEmpty, let file = open(), EntryKind(info.st_mode) == .file, let hash = try? hasher.digest(file),
              sized.contains(where: { $0.hash == hash }) else { return .none }
        return .other(OwnedFile(path: path, info: info, hash: hash, keyed: isKeyed))
    }

    /// Whether every file the records name is still there as recorded (the same file, size and time stamp;
    /// a regular file, reached without following a link at any step), looked at folder by folder on `jobs`
    /// cores. Only for records that all came from a manifest (then no path is named twice).
    func allUnchanged(under root: FolderHandle, jobs: Int) -> Bool {
        guard isManifestOnly, earlier.isEmpty else { return false }
        // Runs of records in one folder: the manifest lists them sorted by path, so a folder's are together
        // (a folder seen again later only starts another run).
        var runs: [(folder: String, slots: Range<Int>)] = []
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            var folder: ArraySlice<UInt8>? = nil
            for (index, entry) in all.enumerated() {
                let path = buffer[entry.start..<entry.start + entry.count]
                let slash = path.lastIndex(of: UInt8(ascii: "/"))
                let own = slash.map { path[path.startIndex..<$0] } ?? path[path.startIndex..<path.startIndex]
                if let current = folder, current.elementsEqual(own) { continue }
                if let current = folder { runs.append((String(decoding: current, as: UTF8.self), start..<index)) }
                folder = ArraySlice(own)
                start = index
            }
            if let current = folder { runs.append((String(decoding: current, as: UTF8.self), start..<all.count)) }
        }
        let entries = all, names = bytes
        let checked = runs.parallelMap(jobs: jobs) { run -> Bool in
            guard let handle = try? (run.folder.isEmpty ? root : root.folder(path: run.folder, create: false)) else { return false }
            for slot in run.slots {
                let entry = entries[slot]
                let path = names[entry.start..<entry.start + entry.count]
                let name = Array(path[(path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? path.startIndex)...])
                guard let info = handle.status(bytes: name), EntryKind(info.st_mode) == .file, entry.isUnchanged(info) else { return false }
            }
            return true
        }
        return !checked.contains(false)
    }

    /// Writes the manifest for `files` as the new file `name` in `folder`, sorted by path bytes so the same
    /// site gives the same order; in blocks, never whole in memory. With `key`, each line carries its MAC and
    /// the file ends in its seal.
    static func writeManifest(_ files: [OwnedFile], as name: String, in folder: FolderHandle, key: RecordKey? = nil) throws(FileSystemError) {
        let descriptor = try folder.createNew(name)
        defer { close(descriptor) }
        var writer = BufferedWriter(descriptor: descriptor, path: folder.display(name))
        var seal = key?.manifest.stream()
        do {
            for line in [heading + "\n"] + files.sorted(by: { ExactPath.precedes($0.path, $1.path) }).lazy.map({
                OutputRecordLine.render($0, mac: key?.records)
            }) {
                seal?.add(line.utf8)
                try writer.append(line)
            }
            if let seal { try writer.append(OutputRecordLine.manifestSeal(seal.tag)) }
            try writer.flush()
        } catch {
            folder.remove(name)
            throw error
        }
    }
}

/// An open-addressed table of slots (indexes into a list), found by a path's hash and a comparison the
/// caller makes; linear probing, at most half full.
private struct PathTable: Sendable {
    private var slots: [Int32] = []
    private var mask = 0

    static func hash(_ key: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: key)
        return hasher.finalize()
    }

    /// Room for `count` slots (twice as many places); `hashes` gives every slot's hash, by slot, when the
    /// table has to be made again.
    func needsRoom(for count: Int) -> Bool { count * 2 > slots.count }

    mutating func reserve(_ count: Int, hashes: [Int]) {
        var size = 16
        while size < count * 2 { size *= 2 }
        guard size > slots.count else { return }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        for (slot, hash) in hashes.enumerated() { insert(Int32(slot), hash: hash) }
    }

    mutating func insert(_ slot: Int32, hash: Int) {
        var place = hash & mask
        while slots[place] >= 0 { place = (place + 1) & mask }
        slots[place] = slot
    }

    func find(_ key: UnsafeBufferPointer<UInt8>, hash: Int, matches: (Int32) -> Bool) -> Int32? {
        guard !slots.isEmpty else { return nil }
        var place = hash & mask
        while true {
            let slot = slots[place]
            if slot < 0 { return nil }
            if matches(slot) { return slot }
            place = (place + 1) & mask
        }
    }
}
