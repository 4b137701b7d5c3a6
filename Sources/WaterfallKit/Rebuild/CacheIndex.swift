#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Every entry of the cache in one file (`photos.index` in the cache's folder), so that a build reads one
/// file instead of one per photo (100,000 small JSON files took 1.5 s to read and parse).
///
/// The entries in `photos/` stay the truth (caches still merge by copying, shards write them); the index
/// is a copy written after a whole build, and is used only while `photos/` is as it was then: the index
/// records that folder's identity and its change and modification times, which any entry added, removed
/// or renamed in it moves. Any other index (another layout, a torn or damaged file, a folder changed since)
/// is ignored, and the entries are read one by one as before. An entry from the index is exactly the one
/// that was read from, or written to, `photos/`: a fact about a photo of a given size and time stamp.
///
/// Layout (little-endian): the magic line, the folder's stamp, the shared strings (derived images' labels
/// and keys, the same for most photos), the entries, then a checksum of everything before it; in keyed
/// mode another magic line, and a MAC under the key (`RecordKey`) in place of the checksum: an index
/// without a valid one is ignored, as a damaged one is.
enum CacheIndex {
    static let fileName = "photos.index"
    static let magic = Array("\(Versions.cacheIndex)\n".utf8)
    static let keyedMagic = Array("\(Versions.cacheIndex)-keyed\n".utf8)
    /// A larger file is not an index, and is not read: an index takes some 1.2 KB a photo made in three
    /// formats (0.5 KB in one), so 1 GiB is the index of some 850,000 photos.
    static let maximumBytes = 1 << 30

    /// What the `photos/` folder was when the index was written.
    struct Stamp: Equatable {
        var device: UInt64
        var inode: UInt64
        var modified: Int
        var changed: Int

        init?(_ folder: FolderHandle) {
            var info = stat()
            guard fstat(folder.descriptor, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            modified = FileStatus(info).modified
            changed = FileChange(info).nanoseconds
        }

        init(device: UInt64, inode: UInt64, modified: Int, changed: Int) {
            self.device = device
            self.inode = inode
            self.modified = modified
            self.changed = changed
        }
    }

    /// An entry's file in `photos/` as it was when the index was written: the same inode, size and time
    /// stamp mean the same entry (a file rewritten in place, even damaged, is read again).
    struct FileStamp: Equatable {
        var inode: UInt64
        var size: Int
        var modified: Int

        init(_ info: stat) {
            inode = UInt64(info.st_ino)
            size = Int(info.st_size)
            modified = FileStatus(info).modified
        }

        init(inode: UInt64, size: Int, modified: Int) {
            self.inode = inode
            self.size = size
            self.modified = modified
        }
    }

    /// An entry and its file's stamp.
    struct Item: Equatable {
        var entry: BuildCache.Entry
        var file: FileStamp
    }

    /// The entries of the index in `folder`, when it is one this layout wrote for `photos/` as it is now;
    /// nil otherwise (with `mac`, also when its MAC does not verify). One over the size limit is ignored as
    /// damaged, with a line in `warnings`; one of another layout or for another state of `photos/` (after any
    /// change to the cache: the common case) is ignored from its heading, before the rest is read.
    static func read(from folder: CacheFolder, mac: RecordMAC? = nil) -> (entries: [Item], stamp: Stamp)? {
        var warnings: [String] = []
        return read(from: folder, mac: mac, warnings: &warnings)
    }

    static func read(from folder: CacheFolder, mac: RecordMAC? = nil, warnings: inout [String]) -> (entries: [Item], stamp: Stamp)? {
        guard let now = Stamp(folder.photos), let file = try? folder.root.openFile(fileName) else { return nil }
        guard file.size <= maximumBytes else {
            warnings.append("\(PathText.display(file.path)): larger than the \(ByteCount.text(maximumBytes)) a cache index may hold; "
                + "ignored as damaged (the entries are read one by one)")
            return nil
        }
        let magic = mac == nil ? magic : keyedMagic
        guard let head = try? file.read(upTo: magic.count + stampBytes), heading(head, magic: magic) == now,
              let bytes = try? file.read(limit: maximumBytes) else { return nil }
        guard let entries = decode(bytes, expecting: now, mac: mac) else {
            if let count = declaredCount(bytes, magic: magic), count > BuildCache.maximumEntries {
                warnings.append("\(PathText.display(file.path)): more than \(BuildCache.maximumEntries) entries; ignored as damaged "
                    + "(the entries are read one by one)")
            }
            return nil
        }
        return (entries, now)
    }

    /// The number of entries an index says it holds (nil when it does not get that far).
    private static func declaredCount(_ bytes: [UInt8], magic: [UInt8]) -> Int? {
        var reader = ByteReader(bytes[min(magic.count + stampBytes, bytes.count)...])
        guard reader.strings() != nil else { return nil }
        return reader.count()
    }

    /// The stamp of `photos/` after the magic line: two 64-bit numbers and two 64-bit times.
    private static let stampBytes = 32

    /// The stamp an index's heading records; nil when it does not start as this layout's index does.
    private static func heading(_ bytes: [UInt8], magic: [UInt8]) -> Stamp? {
        guard bytes.count >= magic.count + stampBytes, bytes.starts(with: magic) else { return nil }
        var reader = ByteReader(bytes[magic.count..<(magic.count + stampBytes)])
        guard let device = reader.uint64(), let inode = reader.uint64(), let modified = reader.int(), let changed = reader.int() else { return nil }
        return Stamp(device: device, inode: inode, modified: modified, changed: changed)
    }

    /// The fewest bytes an entry can take in an index (its fields' lengths and numbers, and its file's
    /// stamp): no room is made for more entries than the bytes could hold.
    private static let minimumItemBytes = 100

    static func decode(_ bytes: [UInt8], expecting now: Stamp, mac: RecordMAC? = nil) -> [Item]? {
        guard let body = ByteReader.body(of: bytes, magic: mac == nil ? magic : keyedMagic, mac: mac) else { return nil }
        var reader = ByteReader(body)
        guard let device = reader.uint64(), let inode = reader.uint64(), let modified = reader.int(), let changed = reader.int(),
              Stamp(device: device, inode: inode, modified: modified, changed: changed) == now,
              let shared = reader.strings(), let count = reader.count(), count <= BuildCache.maximumEntries else { return nil }
        var entries: [Item] = []
        // A count is only checked against the bytes left; an entry takes many of them.
        entries.reserveCapacity(min(count, body.count / minimumItemBytes))
        for _ in 0..<count {
            guard let inode = reader.uint64(), let size = reader.int(), let modified = reader.int(),
                  let entry = reader.entry(shared: shared) else { return nil }
            entries.append(Item(entry: entry, file: FileStamp(inode: inode, size: size, modified: modified)))
        }
        return reader.isAtEnd ? entries : nil
    }

    /// Writes the index of `entries` for `photos/` as it is now (after the build's last change to it);
    /// under a temporary name, then renamed: a build killed on the way leaves the old index or none.
    static func write<Entries: Sequence>(_ entries: Entries, to folder: CacheFolder, temporary: String, mac: RecordMAC? = nil)
        where Entries.Element == Item {
        guard let now = Stamp(folder.photos) else { return }
        ByteWriter.replace(fileName, in: folder, temporary: temporary, mac: mac) { (writer) throws(FileSystemError) in
            try encode(entries, stamp: now, into: &writer)
        }
    }

    static func encode<Entries: Sequence>(_ entries: Entries, stamp: Stamp, into writer: inout ByteWriter) throws(FileSystemError)
        where Entries.Element == Item {
        var shared: [String] = []
        var numbers: [String: Int] = [:]
        var count = 0
        for item in entries {
            count += 1
            for (label, derived) in item.entry.derived {
                for text in [label, derived.key] where numbers[text] == nil {
                    numbers[text] = shared.count
                    shared.append(text)
                }
            }
        }
        try writer.bytes(writer.isKeyed ? keyedMagic : magic)
        try writer.uint64(stamp.device)
        try writer.uint64(stamp.inode)
        try writer.int(stamp.modified)
        try writer.int(stamp.changed)
        try writer.count(shared.count)
        for text in shared { try writer.string(text) }
        try writer.count(count)
        for item in entries {
            try writer.uint64(item.file.inode)
            try writer.int(item.file.size)
            try writer.int(item.file.modified)
            try writer.entry(item.entry, numbers: numbers)
        }
    }
}
