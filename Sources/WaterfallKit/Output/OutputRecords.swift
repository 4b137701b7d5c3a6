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
    var hash: String
    var identity: FileIdentity
    var modified: Int

    var proven: ProvenFile { ProvenFile(identity: identity, status: FileStatus(size: size, modified: modified), hash: hash) }

    /// The record of a file as it is now (`info` from lstat or fstat), holding content with `hash`.
    init(path: String, info: stat, hash: String) {
        self.path = path
        size = Int(info.st_size)
        self.hash = hash
        identity = FileIdentity(info)
        modified = FileStatus(info).modified
    }

    init(path: String, size: Int, hash: String, identity: FileIdentity, modified: Int) {
        self.path = path
        self.size = size
        self.hash = hash
        self.identity = identity
        self.modified = modified
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

    /// By path (as bytes: two spellings of one name are two paths), the records that may prove the file.
    private(set) var files: [[UInt8]: [OwnedFile]] = [:]

    init() {}

    /// The records in the state folder; what cannot be read proves nothing.
    static func read(from state: FolderHandle) -> OutputRecords {
        var records = OutputRecords()
        for name in [manifestName, journalName] {
            guard let bytes = try? state.openFile(name).read(limit: 1 << 30) else { continue }
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                guard let record = Self.record(from: line) else { continue }
                records.files[Array(record.path.utf8), default: []].append(record)
            }
        }
        return records
    }

    /// Every path the records name.
    var paths: [String] { files.values.compactMap { $0.first?.path } }

    /// The newest record of every path.
    var latest: [OwnedFile] { files.values.compactMap(\.last) }

    /// Every file proven before, for the cache to skip hashing what has not changed.
    var proven: Set<ProvenFile> { Set(files.values.flatMap { $0.map(\.proven) }) }

    /// The record that proves the file at `path` (lstat `info`) is one Waterfall wrote, with its content
    /// hash as it is now; nil when none does. `open` opens the file for hashing, only when needed.
    func owner(of path: String, info: stat, open: () -> OpenFile?) -> OwnedFile? {
        guard EntryKind(info.st_mode) == .file, let candidates = files[Array(path.utf8)] else { return nil }
        if let same = candidates.first(where: { $0.isUnchanged(info) }) { return same }
        let sized = candidates.filter { $0.size == Int(info.st_size) }
        guard !sized.isEmpty, let file = open(), EntryKind(info.st_mode) == .file, let hash = try? file.contentHash(),
              sized.contains(where: { $0.hash == hash }) else { return nil }
        return OwnedFile(path: path, info: info, hash: hash)
    }

    // MARK: - Lines

    static func line(_ record: OwnedFile) -> String {
        JSONValue.object([
            ("path", .string(record.path)), ("size", .int(record.size)), ("hash", .string(record.hash)),
            ("device", .string(String(record.identity.device))), ("inode", .string(String(record.identity.inode))),
            ("modified", .int(record.modified)),
        ]).rendered() + "\n"
    }

    private static func record(from line: ArraySlice<UInt8>) -> OwnedFile? {
        guard line.first == UInt8(ascii: "{"), let json = try? JSONParser.parse(String(decoding: line, as: UTF8.self)),
              case .object(let members) = json else { return nil }
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        guard case .string(let path)? = fields["path"], SiteWriter.isSafeRelativePath(path),
              case .int(let size)? = fields["size"], case .string(let hash)? = fields["hash"],
              case .string(let device)? = fields["device"], let deviceNumber = UInt64(device),
              case .string(let inode)? = fields["inode"], let inodeNumber = UInt64(inode),
              case .int(let modified)? = fields["modified"] else { return nil }
        return OwnedFile(path: path, size: size, hash: hash, identity: FileIdentity(device: deviceNumber, inode: inodeNumber),
                         modified: modified)
    }

    /// The manifest for `files`, sorted by path bytes so the same site gives the same order.
    static func manifest(_ files: [OwnedFile]) -> [UInt8] {
        var text = heading + "\n"
        for record in files.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }) { text += line(record) }
        return Array(text.utf8)
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
        let bytes = Array(OutputRecords.line(record).utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw FileSystemError.system(path, "cannot write") }
            offset += count
        }
    }
}
