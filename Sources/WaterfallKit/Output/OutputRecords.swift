#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One file Waterfall wrote into an output folder, as its records keep it: enough to prove later that the
/// file there is still that file (same identity and time stamp, or the same content).
struct OwnedFile: Sendable, Equatable {
    /// Relative to the output folder, `/`-separated.
    var path: String
    var size: Int
    /// nil when not known (an original linked again whatever it holds now).
    var hash: ContentDigest?
    var identity: FileIdentity
    var modified: Int
    /// For a page: the digest of what it was made from (`SitePages.Page.inputs`), so an unchanged page with
    /// the same inputs need not be rendered again.
    var inputs: ContentDigest? = nil

    var proven: ProvenFile? {
        hash.map { ProvenFile(identity: identity, status: FileStatus(size: size, modified: modified), hash: $0) }
    }

    /// The record of a file as it is now (`info` from lstat or fstat), holding content with `hash`.
    init(path: String, info: stat, hash: ContentDigest?) {
        self.path = path
        size = Int(info.st_size)
        self.hash = hash
        identity = FileIdentity(info)
        modified = FileStatus(info).modified
    }

    init(path: String, size: Int, hash: ContentDigest?, identity: FileIdentity, modified: Int, inputs: ContentDigest? = nil) {
        self.path = path
        self.size = size
        self.hash = hash
        self.identity = identity
        self.modified = modified
        self.inputs = inputs
    }

    /// Whether `info` shows this very file, unchanged since it was recorded.
    func isUnchanged(_ info: stat) -> Bool {
        FileIdentity(info) == identity && Int(info.st_size) == size && FileStatus(info).modified == modified
    }
}

/// What an output folder's records say Waterfall wrote: the manifest of the last finished build
/// (`.waterfall/manifest.json`) and the journal of a build that was stopped before it finished
/// (`.waterfall/journal`, one record appended before each file is renamed into place).
///
/// Both are JSON, one record per line, so a name may hold any character (a newline included) and a line
/// torn by a killed build is simply not a record. A file counts as Waterfall's only when a record proves
/// it: the same identity, size and time stamp as recorded, or the same content hash.
struct OutputRecords: Sendable {
    static let manifestName = "manifest.json"
    static let journalName = "journal"
    private static let heading = #"{"waterfall":"manifest","version":1}"#

    /// The latest record of every path, and where each is by path (as bytes: two spellings of one name are
    /// two paths): an index into the list rather than the record itself, so the table of 400,000 paths stays
    /// small (its slots are allocated for twice as many). Earlier records (rarely: a build stopped half way)
    /// beside them.
    private var all: [OwnedFile] = []
    private var slots: [ExactPath: Int32] = [:]
    private var earlier: [ExactPath: [OwnedFile]] = [:]

    /// What proves a file at a path: nothing, the latest record of that path (named by its place in the
    /// list, not copied: a plan holds one for every file of the site), or another record.
    enum Proof: Sendable, Equatable {
        case none
        case latest(Int32)
        indirect case other(OwnedFile)
    }

    init() {}

    /// The records in the state folder; what cannot be read proves nothing.
    static func read(from state: FolderHandle) -> OutputRecords {
        var records = OutputRecords()
        for name in [manifestName, journalName] {
            guard let file = try? state.openFile(name) else { continue }
            // Room for every line at once (a record takes some 180 bytes): growing a table of 400,000
            // records rehashes them all several times.
            records.slots.reserveCapacity(records.count + file.size / 160)
            records.all.reserveCapacity(records.count + file.size / 160)
            try? file.forEachLine { line in
                guard let record = OutputRecordLine.parse(line) else { return }
                records.add(record)
                if name == journalName { records.isManifestOnly = false }
            }
        }
        return records
    }

    /// Whether the records all came from a manifest (no journal of a stopped build added any).
    private(set) var isManifestOnly = true

    /// How many paths the records name.
    var count: Int { all.count }

    /// The latest record of `path`.
    func record(at path: ExactPath) -> OwnedFile? { slots[path].map { all[Int($0)] } }

    /// The latest record of `path`, when it shows the file of lstat `info` unchanged (compared in place, no copy).
    func latestProof(of path: ExactPath, info: stat) -> Proof? {
        guard let slot = slots[path], all[Int(slot)].isUnchanged(info) else { return nil }
        return .latest(slot)
    }

    /// The record `proof` names.
    func resolve(_ proof: Proof) -> OwnedFile? {
        switch proof {
        case .none: nil
        case .latest(let slot): all[Int(slot)]
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

    private mutating func add(_ record: OwnedFile) {
        let path = ExactPath(record.path)
        // One hash of the path for a new one (the common case); a path seen before puts its slot back.
        guard let slot = slots.updateValue(Int32(all.count), forKey: path) else {
            all.append(record)
            return
        }
        slots[path] = slot
        earlier[path, default: []].append(all[Int(slot)])
        all[Int(slot)] = record
    }

    /// Every path the records name.
    var paths: [String] { all.map(\.path) }

    /// The newest record of every path.
    var latest: [OwnedFile] { all }

    /// Every file proven before, for the cache to skip hashing what has not changed.
    var proven: ProvenFiles {
        var files = all.compactMap(\.proven)
        for records in earlier.values { files += records.compactMap(\.proven) }
        return ProvenFiles(files)
    }

    /// The record that proves the file at `path` (lstat `info`) is one Waterfall wrote, with its content
    /// hash as it is now; nil when none does. `open` opens the file for hashing, only when needed.
    func owner(of path: String, info: stat, open: () -> OpenFile?) -> OwnedFile? {
        resolve(proof(of: path, info: info, open: open))
    }

    /// `owner`, naming the latest record instead of copying it when that is the one (the common case).
    func proof(of path: String, info: stat, open: () -> OpenFile?) -> Proof {
        let key = ExactPath(path)
        guard EntryKind(info.st_mode) == .file, let slot = slots[key] else { return .none }
        let latest = all[Int(slot)]
        if latest.isUnchanged(info) { return .latest(slot) }
        let candidates = [latest] + (earlier[key] ?? [])
        if let same = candidates.first(where: { $0.isUnchanged(info) }) { return .other(same) }
        let sized = candidates.filter { $0.size == Int(info.st_size) }
        guard !sized.isEmpty, let file = open(), EntryKind(info.st_mode) == .file, let hash = try? file.contentDigest(),
              sized.contains(where: { $0.hash == hash }) else { return .none }
        return .other(OwnedFile(path: path, info: info, hash: hash))
    }

    /// Writes the manifest for `files` as the new file `name` in `folder`, sorted by path bytes so the same
    /// site gives the same order; in blocks, never whole in memory.
    static func writeManifest(_ files: [OwnedFile], as name: String, in folder: FolderHandle) throws(FileSystemError) {
        let descriptor = try folder.createNew(name)
        defer { close(descriptor) }
        var writer = BufferedWriter(descriptor: descriptor, path: folder.display(name))
        do {
            try writer.append(heading + "\n")
            for record in files.sorted(by: { ExactPath.precedes($0.path, $1.path) }) {
                try writer.append(OutputRecordLine.render(record))
            }
            try writer.flush()
        } catch {
            folder.remove(name)
            throw error
        }
    }
}

/// The journal of the build in progress: a record is appended before each file is renamed into place, so
/// a build stopped at any moment leaves every file it put in place provably its own.
final class OutputJournal {
    private let descriptor: Int32
    private let path: String

    init(in state: FolderHandle) throws(FileSystemError) {
        path = state.display(OutputRecords.journalName)
        // Non-blocking, and only a regular file: a FIFO planted at this name would block the open forever.
        descriptor = OpenFile.retrying {
            openat(state.descriptor, OutputRecords.journalName, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw OpenFile.openError(path, errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, EntryKind(info.st_mode) == .file else {
            close(descriptor)
            throw FileSystemError(path, "\(OpenFile.notRegular(info.st_mode)); move it away")
        }
    }

    deinit { close(descriptor) }

    func append(_ record: OwnedFile) throws(FileSystemError) {
        var line = OutputRecordLine.render(record)
        if let code = line.withUTF8({ BufferedWriter.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }) {
            throw FileSystemError.system(path, "cannot write", code)
        }
    }
}
