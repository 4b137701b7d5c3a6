#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The readings of the XMP sidecars the last build saw, so that an unchanged sidecar is not sent to a decoder
/// again (a round trip of some 160 µs: 16 s a build for 100,000 photos, as darktable writes a sidecar for
/// every photo). One file at the cache's top, written after a whole build with the sidecars that build saw,
/// so that a removed one drops out.
///
/// A reading is used when its sidecar, opened, has the stamp recorded with it: device, inode, size, and
/// modification and change times in nanoseconds (the change time because no one can set it back: an edit
/// that keeps the size and restores the modification time still moves it). Only readings without warnings
/// are kept (a warning is said every build), and only those of a file that did not change while it was
/// read and had not changed for `settledNanoseconds` before (two edits within one tick of the file
/// system's clock leave one stamp: git's "racy" files).
///
/// Layout (little-endian): the magic line (naming `Versions.facts` too: a reader that reads more parses
/// every sidecar again), the count, each item (its path, its stamp, its reading as a cache entry's facts),
/// then a checksum; in keyed mode another magic line and a MAC under the key's own subkey in place of the
/// checksum. Any other file (damaged, torn, too large, of another version or key, a reading not from an
/// XMP sidecar) is no memo, and every sidecar is parsed again. Without a key, whoever can write the cache
/// can make a page show another caption, as with the cache's entries.
struct SidecarMemo: Sendable {
    /// A sidecar as `fstat` of its open descriptor sees it.
    struct Stamp: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modified: Int
        var changed: Int

        init(device: UInt64, inode: UInt64, size: Int, modified: Int, changed: Int) {
            (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
        }

        init(_ identity: FileIdentity, _ status: FileStatus, _ change: FileChange) {
            self.init(device: identity.device, inode: identity.inode, size: status.size, modified: status.modified,
                      changed: change.nanoseconds)
        }

        /// As the file was when opened.
        init(_ file: OpenFile) {
            self.init(file.identity, file.status, file.change)
        }

        /// As the open file is now.
        init?(descriptor: Int32) {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return nil }
            self.init(FileIdentity(info), FileStatus(info), FileChange(info))
        }
    }

    /// A sidecar (its path relative to the input), its stamp, and what it says (nil: nothing).
    struct Item: Equatable, Sendable {
        var name: String
        var stamp: Stamp
        var reading: PhotoMetadata?
    }

    /// By the sidecar's path as bytes (two spellings of one name in Unicode are two files).
    private(set) var items: [[UInt8]: Item] = [:]
    /// A file was there that is no memo: the next write replaces it even when no sidecar is left.
    private(set) var isDamaged = false

    static let fileName = "sidecars.memo"
    static let magic = Array("\(Versions.sidecarMemo) facts-\(Versions.facts)\n".utf8)
    static let keyedMagic = Array("\(Versions.sidecarMemo) facts-\(Versions.facts) keyed\n".utf8)
    /// A larger file is not a memo: a reading takes some 100 to 300 bytes (a rating, a few keywords), so
    /// 256 MiB holds a million sidecars; past it, the rest are parsed every build.
    static let maximumBytes = 256 << 20
    static let maximumItems = BuildCache.maximumEntries
    /// A file changed less than this before it was read is not memoised (a second edit within the same
    /// tick of a coarse clock, 1 s on ext3 or HFS+, 2 s on FAT, would keep its stamp); the next build does.
    static let settledNanoseconds = 2_000_000_000

    init() {}

    /// The reading recorded for the sidecar `name` with this stamp; nil when there is none (`.some(nil)`:
    /// the sidecar says nothing).
    func reading(for name: String, stamp: Stamp) -> PhotoMetadata?? {
        guard let item = items[Array(name.utf8)], item.stamp == stamp else { return nil }
        return .some(item.reading)
    }

    /// What the memo keeps of a reading of `name` without warnings, whose file was `before` when opened:
    /// nil when the open file has changed since, or had changed too shortly before.
    static func item(_ name: String, before: Stamp, descriptor: Int32, reading: PhotoMetadata?) -> Item? {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard Stamp(descriptor: descriptor) == before,
              Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec) - before.changed >= settledNanoseconds else { return nil }
        return Item(name: name, stamp: before, reading: reading)
    }

    /// The memo in the cache's `folder`; an empty one when there is none that holds (one over the size limit
    /// with a line in `warnings`).
    static func read(from folder: CacheFolder, mac: RecordMAC?, warnings: inout [String]) -> SidecarMemo {
        guard folder.root.kind(fileName) != nil else { return SidecarMemo() }
        var damaged = SidecarMemo()
        damaged.isDamaged = true
        guard let file = try? folder.root.openFile(fileName) else { return damaged }
        guard file.size <= maximumBytes else {
            warnings.append("\(PathText.display(file.path)): larger than the \(ByteCount.text(maximumBytes)) a memo of sidecars may hold; "
                + "ignored as damaged (every XMP sidecar is read again)")
            return damaged
        }
        guard let bytes = try? file.read(limit: maximumBytes) else { return damaged }
        return decode(bytes, mac: mac) ?? damaged
    }

    static func decode(_ bytes: [UInt8], mac: RecordMAC? = nil) -> SidecarMemo? {
        guard let body = ByteReader.body(of: bytes, magic: mac == nil ? magic : keyedMagic, mac: mac) else { return nil }
        var reader = ByteReader(body)
        guard let count = reader.count(), count <= maximumItems else { return nil }
        var memo = SidecarMemo()
        // A count is only checked against the bytes left; an item takes at least 50 of them.
        memo.items.reserveCapacity(min(count, body.count / 50))
        for _ in 0..<count {
            guard let name = reader.string(), !name.isEmpty, let device = reader.uint64(), let inode = reader.uint64(),
                  let size = reader.int(), let modified = reader.int(), let changed = reader.int(),
                  let reading = reader.optional({ $0.facts() }), reading.map(isSidecarReading) ?? true else { return nil }
            let item = Item(name: name, stamp: Stamp(device: device, inode: inode, size: size, modified: modified, changed: changed),
                            reading: reading?.metadata)
            guard memo.items.updateValue(item, forKey: Array(name.utf8)) == nil else { return nil }
        }
        return reader.isAtEnd ? memo : nil
    }

    /// Whether facts read back are what a sidecar's reading writes: every field from an XMP sidecar, and
    /// nothing else (a forged memo must not pass for `NAME.txt`, which comes first).
    private static func isSidecarReading(_ facts: PhotoFacts) -> Bool {
        let metadata = facts.metadata
        let sources = [metadata.title?.source, metadata.description?.source, metadata.keywords?.source, metadata.rating?.source,
                       metadata.creator?.source, metadata.rights?.source, metadata.taken?.source].compactMap { $0 }
        return facts.summary == nil && facts.contentIdentifier == nil && metadata.descriptionHTML == nil
            && sources.allSatisfy { $0 == .xmpSidecar }
    }

    /// Writes the memo of `items` (in the order of their paths' bytes; up to the size limit), under a
    /// temporary name then renamed.
    static func write(_ items: some Sequence<Item>, to folder: CacheFolder, temporary: String, mac: RecordMAC?) {
        var kept: [Item] = []
        var bytes = magic.count + 8 + RecordMAC.tagBytes
        for item in items.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            bytes += estimatedBytes(item)
            guard bytes <= maximumBytes, kept.count < maximumItems else { break }
            kept.append(item)
        }
        ByteWriter.replace(fileName, in: folder, temporary: temporary, mac: mac) { (writer) throws(FileSystemError) in
            try encode(kept, into: &writer)
        }
    }

    static func encode(_ items: [Item], into writer: inout ByteWriter) throws(FileSystemError) {
        try writer.bytes(writer.isKeyed ? keyedMagic : magic)
        try writer.count(items.count)
        for item in items {
            try writer.string(item.name)
            try writer.uint64(item.stamp.device)
            try writer.uint64(item.stamp.inode)
            for number in [item.stamp.size, item.stamp.modified, item.stamp.changed] { try writer.int(number) }
            try writer.bytes(CollectionOfOne(item.reading == nil ? 0 : 1))
            guard let reading = item.reading else { continue }
            var facts = PhotoFacts()
            facts.metadata = reading
            try writer.facts(facts)
        }
    }

    /// At least what `encode` writes for `item`: its texts, and a generous allowance for lengths and flags.
    private static func estimatedBytes(_ item: Item) -> Int {
        let metadata = item.reading
        let texts = [metadata?.title?.value, metadata?.description?.value, metadata?.creator?.value, metadata?.rights?.value,
                     metadata?.taken?.value.text].compactMap { $0 } + (metadata?.keywords?.value ?? [])
        return 300 + item.name.utf8.count + texts.reduce(0) { $0 + $1.utf8.count + 8 }
    }
}
