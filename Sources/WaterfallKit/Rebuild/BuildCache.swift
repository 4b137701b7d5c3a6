import CImageIO
import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// What earlier builds learned, so that a build with nothing changed reads no header and decodes no pixel,
/// and a build on another machine (a CI runner with the cache restored, or the merge after sharded builds)
/// reuses what was made elsewhere.
///
/// A folder (`--cache-dir`, by default `OUTPUT/.waterfall/cache`), claimed and locked by `CacheFolder`:
/// - `version`: the layout of the rest; a cache from another version is ignored, never trusted;
/// - `photos/HASH.json`: one entry per photo (its path relative to the input, size, modification time,
///   content hash, header, and its derived images with the settings each was made with);
/// - `images/DIGEST.jpg|png|webp|avif`: the derived images, named by the photo's content and the settings; the site
///   gets hard links to them (copies across file systems).
///
/// Every file is written to a temporary name and renamed, so a killed build leaves nothing half-written
/// under a real name. Nothing read from the cache is trusted blindly: an entry that does not parse is
/// ignored, and an image is used only when it is a regular file (never a link) whose content hash is the
/// one its entry recorded; anything else is made again. Caches merge by copying their folders into one:
/// names never collide unless they hold the same thing.
///
/// Without a key, whoever can write the cache can write an entry and an image that pass those checks (the
/// content hash is public). In keyed mode (`RecordKey`) every entry, and the index, carries a MAC under
/// the key, and one without a valid MAC is treated as absent (its photo is read and its images made
/// again); content hashes are keyed, so an image no entry's MAC vouches for cannot be made to match.
struct BuildCache: Sendable {
    // Model values (a photo holds its entry); the old names stay for the cache's own code and tests.
    typealias Entry = CacheEntry
    typealias Derived = StoredImage

    let folder: CacheFolder
    /// The content hash of photos and images: keyed in keyed mode.
    let hasher: ContentHasher
    /// Keyed mode's MACs of entries and of the index; nil without a key.
    private let entryMAC: RecordMAC?
    private let indexMAC: RecordMAC?
    private let sidecarMAC: RecordMAC?
    /// The last build's readings of XMP sidecars (`SidecarMemo`), for the scan.
    private(set) var sidecars = SidecarMemo()
    /// Entries in `photos/` that keyed mode found without a valid MAC (made without the key, or with
    /// another, or forged): ignored.
    private(set) var unsigned = 0
    /// Entries by the digest of the photo's path (byte for byte: Swift's String equality would merge the
    /// NFC and NFD spellings of one name, which are two files). Boxed, and the box is what a photo found
    /// unchanged holds: one copy of each entry, not one here and one in the photo (100,000 entries inline
    /// in a table sized for them cost some 50 MB).
    private(set) var entries: [UInt64: CachedEntry] = [:]
    /// Entries by content hash, for photos whose time stamps differ (another checkout of the same files).
    /// (Their keys in `entries`: a second copy of every entry would cost some 200 bytes a photo.)
    private var byContent: [String: UInt64] = [:]
    /// The entries this build recorded, for the index it writes at the end.
    private let saved = SavedEntries()
    /// The state of `photos/` the index that was read describes; nil when the entries were read one by one.
    private var indexed: CacheIndex.Stamp?

    static let version = Versions.cache
    /// An entry holds a photo's path, header, facts and its derived images' records: some 1.7 KB for a photo
    /// made in three formats. A larger file is not one (and is not read).
    static let maximumEntryBytes = 1 << 20
    /// The version file holds one short line.
    static let maximumVersionBytes = 64
    /// The most entries a cache may hold, by file or in its index: one a photo (those of photos gone are
    /// removed by every whole build), so two million photos; each takes a few hundred bytes here. Over it,
    /// the entries are ignored as damaged (millions of small files that look like entries cannot take
    /// gigabytes).
    static let maximumEntries = 2_000_000

    /// Record files of the cache ignored as damaged (over their limits), one line each, for the build to say.
    private(set) var warnings: [String] = []

    /// Reads every entry that parses from the cache (a cache of another layout is read as empty), `jobs` at a
    /// time: a cache of 100,000 photos holds 70 MB of entries. With `key`, only entries whose MAC it verifies.
    init(folder: CacheFolder, jobs: Int = 1, key: RecordKey? = nil) {
        self.folder = folder
        hasher = key?.content ?? .plain
        entryMAC = key?.entries
        indexMAC = key?.index
        sidecarMAC = key?.sidecars
        sidecars = SidecarMemo.read(from: folder, mac: sidecarMAC, warnings: &warnings)
        guard let stored = Self.storedVersion(in: folder, warnings: &warnings), stored == Array((Self.version + "\n").utf8) else { return }
        guard let index = CacheIndex.read(from: folder, mac: indexMAC, warnings: &warnings) else {
            add(Self.readEntries(in: folder, jobs: jobs, mac: entryMAC, warnings: &warnings))
            return
        }
        indexed = index.stamp
        // Only what the check found is handed back, not the entries: 100,000 of them copied twice cost
        // a tenth of a second.
        let checked = Self.checked(index.entries, in: folder, jobs: jobs, mac: entryMAC)
        entries.reserveCapacity(index.entries.count)
        var changed: [EntryRead] = []
        for (item, found) in zip(index.entries, checked) {
            switch found {
            case .same: add(item.entry)
            case .changed(let read):
                // An entry file changed since: the index is rewritten at the end, to spare the next build the read.
                indexed = nil
                changed.append(read)
            }
        }
        add(changed)
    }

    /// The cache's `version` file, when it is there; nil (with a warning) when it is over its limit.
    private static func storedVersion(in folder: CacheFolder, warnings: inout [String]) -> [UInt8]? {
        guard let file = try? folder.root.openFile("version") else { return nil }
        guard file.size <= maximumVersionBytes else {
            warnings.append("\(PathText.display(file.path)): larger than the \(maximumVersionBytes) bytes a cache's version may hold; "
                + "the cache is ignored as damaged")
            return nil
        }
        return try? file.read(limit: maximumVersionBytes)
    }

    /// Adds the entries read, counts those keyed mode found unsigned, and says in one line which were over
    /// their limit (naming the first).
    private mutating func add(_ all: [EntryRead]) {
        entries.reserveCapacity(entries.count + all.count)
        var oversized: [String] = []
        for read in all {
            switch read {
            case .entry(let entry): add(entry)
            case .unsigned: unsigned += 1
            case .oversized(let name): oversized.append(name)
            case .none: break
            }
        }
        guard let first = oversized.min() else { return }
        let others = oversized.count - 1
        warnings.append("\(PathText.display(folder.photos.display(first)))\(others > 0 ? " and \(others) more" : ""): "
            + "larger than the \(ByteCount.text(Self.maximumEntryBytes)) a cache entry may hold; ignored as damaged")
    }

    private mutating func add(_ entry: Entry) {
        let key = Self.digestValue(entry.name)
        entries[key] = CachedEntry(entry)
        byContent[entry.content] = key
    }

    /// The entries of `photos/`, one file each, `jobs` at a time (none, with a warning, when there are more than
    /// a cache may hold).
    private static func readEntries(in folder: CacheFolder, jobs: Int, mac: RecordMAC?, warnings: inout [String]) -> [EntryRead] {
        let names = ((try? folder.photos.list()) ?? []).compactMap { entry -> String? in
            guard let name = entry.text, entry.kind == .file, name.hasSuffix(".json") else { return nil }
            return name
        }
        guard names.count <= maximumEntries else {
            warnings.append("\(PathText.display(folder.photos.path)): more than \(maximumEntries) entries; ignored as damaged")
            return []
        }
        let photos = folder.photos
        return names.parallelMap(jobs: jobs) { name in readEntry(name, in: photos, mac: mac) }
    }

    /// What reading an entry's file found.
    private enum EntryRead {
        case entry(Entry)
        /// A file keyed mode finds without a valid MAC (made without the key, or with another, or forged).
        case unsigned
        /// A file over the limit (not read), by name.
        case oversized(String)
        /// No entry: gone, not a regular file, not JSON, or not that photo's.
        case none
    }

    /// The entry in the file `name` of `photos/`, when it parses and is that photo's (and, with `mac`, when its
    /// MAC verifies).
    private static func readEntry(_ name: String, in photos: FolderHandle, mac: RecordMAC?) -> EntryRead {
        guard let file = try? photos.openFile(name) else { return .none }
        guard file.size <= Self.maximumEntryBytes else { return .oversized(name) }
        guard let bytes = try? file.read(limit: Self.maximumEntryBytes) else { return .none }
        var text = bytes[...]
        if let mac {
            guard let payload = mac.opened(bytes) else { return .unsigned }
            text = payload
        }
        guard let json = try? JSONParser.parse(bytes: Array(text)),
              let parsed = Entry(json: json), name == Self.digest(parsed.name) + ".json" else { return .none }
        return .entry(parsed)
    }

    /// Whether each index entry's file in `photos/` is still the one it was written from (same inode,
    /// size and time stamp: one status each, no read); a file changed since is read again, one gone is
    /// left out. (The index's own MAC vouches for the entries it holds.)
    private static func checked(_ indexed: [CacheIndex.Item], in folder: CacheFolder, jobs: Int, mac: RecordMAC?) -> [Checked] {
        let photos = folder.photos
        return indexed.parallelMap(jobs: jobs) { item -> Checked in
            let name = Self.digest(item.entry.name) + ".json"
            guard let info = photos.status(name), EntryKind(info.st_mode) == .file else { return .changed(.none) }
            return CacheIndex.FileStamp(info) == item.file ? .same : .changed(readEntry(name, in: photos, mac: mac))
        }
    }

    /// What the check of an index entry's file found: the file the index was written from, or another
    /// (what reading it found).
    private enum Checked {
        case same
        case changed(EntryRead)
    }

    /// Records this version's layout (claiming an older cache's folder for it) before anything is stored.
    func prepare() throws(FileSystemError) {
        let wanted = Array((Self.version + "\n").utf8)
        if (try? folder.root.openFile("version").read(limit: Self.maximumVersionBytes)) == wanted { return }
        let temporary = temporaryName("version")
        folder.tmp.remove(temporary)
        try folder.tmp.writeNew(temporary, wanted)
        try folder.tmp.rename(temporary, to: folder.root, as: "version")
    }

    /// The photo's own entry, when its file has the size and time stamp the entry recorded (no byte read).
    func unchangedEntry(for name: String, status: FileStatus) -> CachedEntry? {
        guard let own = entries[Self.digestValue(name)], Self.sameBytes(own.entry.name, name), own.entry.size == status.size,
              own.entry.modified == status.modified else { return nil }
        return own
    }

    /// The entry for a photo whose file has content hash `content`: its own entry when that recorded the same
    /// content, else any photo's with that content (the same photo moved or copied, or another checkout).
    func entry(for name: String, content: String, status: FileStatus) -> CachedEntry? {
        let own = entries[Self.digestValue(name)].flatMap { Self.sameBytes($0.entry.name, name) ? $0 : nil }
        guard var entry = own.flatMap({ $0.entry.content == content ? $0.entry : nil })
            ?? byContent[content].flatMap({ entries[$0]?.entry }) else { return nil }
        entry.name = name
        entry.size = status.size
        entry.modified = status.modified
        return CachedEntry(entry)
    }

    /// Whether the store holds the derived image as its entry describes it: a regular file (never a link)
    /// of its recorded size whose content hash is the recorded one. A file the output's records show was
    /// proven before and has not changed since (`trusted`: the same identity and time stamps, in keyed mode
    /// the change time too, which no one can set) is taken on its status alone; any other is opened and
    /// hashed. false means: make it again.
    func holds(_ derived: Derived, trusting trusted: ProvenFiles) -> Bool {
        guard let info = folder.images.status(derived.file), EntryKind(info.st_mode) == .file,
              Int(info.st_size) == derived.bytes else { return false }
        guard let digest = derived.hash else { return false }
        let changed = hasher.isKeyed ? FileChange(info).nanoseconds : nil
        if trusted.contains(ProvenFile(identity: FileIdentity(info), status: FileStatus(info), hash: digest, changed: changed)) { return true }
        guard let file = try? folder.images.openFile(derived.file), file.size == derived.bytes else { return false }
        return (try? hasher.digest(file)) == digest
    }

    /// Whether the store's file of an original is the photo's own file, hard-linked in (`originals` `link`,
    /// or the albums' archives), as the scan saw it: the same device and inode, size and time stamp, for a
    /// photo whose entry the cache found by that size and time stamp (`content`, its content hash). Its
    /// content is then the photo's, as far as the cache trusts any unchanged photo, and no byte is read: the
    /// originals the albums' archives need are not in the site, where the output's records would prove them,
    /// and hashing them all again would cost every rebuild a read of the whole input.
    func holdsLinkedInput(_ derived: Derived, identity: FileIdentity, status: FileStatus, content: String) -> Bool {
        guard let info = folder.images.status(derived.file), EntryKind(info.st_mode) == .file, Int(info.st_size) == derived.bytes,
              let hash = derived.hash, hash == ContentDigest(hex: content) else { return false }
        return FileIdentity(info) == identity && FileStatus(info) == status
    }

    /// Removes a stored file found not to be what its entry says (an original edited in place, its time stamp
    /// set back, after the store linked it): the photo's next build, not finding it, reads the photo again.
    /// Only a name the store gives (a digest and a known suffix) is removed.
    func drop(stored name: String) {
        guard Self.isOwnName(name, suffixes: Self.imageSuffixes) else { return }
        folder.images.remove(name)
    }

    /// The endings of the store's names.
    private static let imageSuffixes = [".jpg", ".png", ".webp", ".avif", ".mp4", ".webm", originalSuffix]

    /// A path for a new temporary file in the cache (on its file system, so a rename moves it in); the
    /// C encoders create it exclusively.
    func temporaryPath(_ label: String) -> String { folder.tmp.childPath(temporaryName(label)) }

    func temporaryName(_ label: String) -> String { "\(CacheFolder.temporaryPrefix)\(getpid())-\(label)" }

    /// An original's name in the store ends so, whatever its format.
    static let originalSuffix = ".original"

    /// Moves a file made at `temporaryName(label)` (a video by ffmpeg, an original) into the store, named with
    /// its format's extension or `suffix`; returns its record. A failure is the storage's (the file was made
    /// here a moment ago).
    func store(_ label: String, content: String, key: String, image: DerivedImage,
               suffix: String? = nil) throws(FileSystemError) -> Derived {
        let temporary = temporaryName(label)
        let file = Self.digest(content + "|" + key) + (suffix ?? image.format.fileExtension)
        do {
            let made = try folder.tmp.openFile(temporary)
            let hash = try hasher.digest(made)
            try folder.tmp.rename(temporary, to: folder.images, as: file)
            return Derived(key: key, file: file, bytes: made.size, hash: hash, width: image.width, height: image.height,
                           format: image.format, averageColor: image.averageColor, sketch: image.sketch)
        } catch {
            folder.tmp.remove(temporary)
            throw error
        }
    }

    /// Writes an image made in memory into the store (a temporary file, renamed in); returns its record. A failure
    /// is the storage's: a full disk, say.
    func store(_ encoded: EncodedImage, label: String, content: String, key: String) throws(FileSystemError) -> Derived {
        let temporary = temporaryName(label)
        let file = Self.digest(content + "|" + key) + encoded.image.format.fileExtension
        folder.tmp.remove(temporary)
        do {
            try folder.tmp.writeNew(temporary, encoded.bytes)
            try folder.tmp.rename(temporary, to: folder.images, as: file)
        } catch {
            folder.tmp.remove(temporary)
            throw error
        }
        let image = encoded.image
        return Derived(key: key, file: file, bytes: encoded.bytes.count, hash: hasher.digest(encoded.bytes), width: image.width,
                       height: image.height, format: image.format, averageColor: image.averageColor, sketch: image.sketch)
    }

    /// Removes a temporary file that was not stored.
    func discard(_ label: String) { folder.tmp.remove(temporaryName(label)) }

    /// Records an entry (atomically; in keyed mode, sealed with its MAC). A failure is the storage's: the index
    /// is then not written.
    func save(_ entry: Entry) throws(FileSystemError) {
        let temporary = temporaryName("entry-" + Self.digest(entry.name))
        folder.tmp.remove(temporary)
        do {
            let text = Array(entry.json.rendered().utf8)
            try folder.tmp.writeNew(temporary, entryMAC.map { $0.sealed(text) } ?? text)
            try folder.tmp.rename(temporary, to: folder.photos, as: Self.digest(entry.name) + ".json")
        } catch {
            folder.tmp.remove(temporary)
            saved.fail()
            throw error
        }
        saved.add(entry, as: Self.digestValue(entry.name))
    }

    /// The entry this build saved for `name`, if it saved one: a Live Photo's clip made again in the same
    /// build keeps what the first making stored.
    func savedEntry(named name: String) -> Entry? {
        saved.entry(Self.digestValue(name)).flatMap { Self.sameBytes($0.name, name) ? $0 : nil }
    }

    /// After a whole build (and `prune`): writes the index of the entries of `names`, the photos whose
    /// entries `photos/` now holds, so the next build reads one file. Not when an entry could not be
    /// saved: the index would not be what `photos/` holds.
    func writeIndex(photos names: [String]) {
        guard let saved = saved.all else { return }
        // The index read is still the truth when nothing was saved or removed since.
        if saved.isEmpty, let indexed, CacheIndex.Stamp(folder.photos) == indexed { return }
        // Lazily: a whole second copy of 100,000 entries would raise the build's peak memory.
        let photos = folder.photos
        let indexed = names.lazy.compactMap { name -> CacheIndex.Item? in
            let key = Self.digestValue(name)
            guard let entry = saved[key] ?? entries[key]?.entry, Self.sameBytes(entry.name, name),
                  let info = photos.status(Self.digest(name) + ".json"), EntryKind(info.st_mode) == .file else { return nil }
            return CacheIndex.Item(entry: entry, file: CacheIndex.FileStamp(info))
        }
        CacheIndex.write(indexed, to: folder, temporary: temporaryName("index"), mac: indexMAC)
    }

    /// After a whole build: records the readings of the sidecars it saw (`SidecarMemo`), unless they are
    /// the memo it read.
    func writeSidecars(_ items: [SidecarMemo.Item]) {
        guard sidecars.isDamaged || items.count != sidecars.items.count
            || !items.allSatisfy({ sidecars.items[Array($0.name.utf8)] == $0 }) else { return }
        SidecarMemo.write(items, to: folder, temporary: temporaryName("sidecars"), mac: sidecarMAC)
    }

    /// Lets go of the entries read (after `writeIndex`, which needs them): the rest of a build only stores
    /// and opens images.
    mutating func forgetEntries() {
        entries = [:]
        byContent = [:]
    }

    /// After a whole build: removes the entries of photos that are gone and the images nothing uses any
    /// more (made with older settings), so a cache a pipeline keeps does not grow without end. Only names
    /// the cache's own naming could have made are touched, inside a folder proven to be the cache.
    func prune(keepingPhotos names: [String], images stored: [String]) -> Int {
        // Entries by their digests' values, not their file names: no name made for each of 100,000 photos.
        let entries = Set(names.map(Self.digestValue))
        let images = Set(stored)
        var removed = 0
        for name in Self.ownNames(in: folder.photos, suffixes: [".json"]) where !entries.contains(UInt64(name.prefix(16), radix: 16)!) {
            if folder.photos.remove(name) { removed += 1 }
        }
        for name in Self.ownNames(in: folder.images, suffixes: Self.imageSuffixes) where !images.contains(name) {
            if folder.images.remove(name) { removed += 1 }
        }
        return removed
    }

    /// Entries (not folders) of `folder` named as the cache names its files: sixteen hex digits and a suffix.
    private static func ownNames(in folder: FolderHandle, suffixes: [String]) -> [String] {
        ((try? folder.list()) ?? []).compactMap { entry in
            guard entry.kind != .folder, let name = entry.text, isOwnName(name, suffixes: suffixes) else { return nil }
            return name
        }
    }

    /// Whether `name` is one the cache gives its files: sixteen hex digits and one of `suffixes`.
    private static func isOwnName(_ name: String, suffixes: [String]) -> Bool {
        guard let suffix = suffixes.first(where: { name.hasSuffix($0) }) else { return false }
        let stem = name.dropLast(suffix.count)
        // By bytes: a cache of 100,000 photos lists some 400,000 names.
        return stem.utf8.count == 16 && stem.utf8.allSatisfy(isLowerHex)
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    /// A stable 64-bit FNV-1a digest of a string's bytes, as 16 hex digits: file names for entries and images.
    static func digest(_ text: String) -> String { ContentHash.hex(digestValue(text)) }

    static func digestValue(_ text: String) -> UInt64 { Checksum.of(text.utf8) }

    /// Byte-for-byte equality (not Swift's canonical equivalence).
    static func sameBytes(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }
}

/// The entries a build saved, from every core, by the digest of the photo's path; whether one failed.
private final class SavedEntries: Sendable {
    private let state = Mutex<(entries: [UInt64: BuildCache.Entry], failed: Bool)>(([:], false))

    func add(_ entry: BuildCache.Entry, as key: UInt64) { state.withLock { $0.entries[key] = entry } }

    func fail() { state.withLock { $0.failed = true } }

    func entry(_ key: UInt64) -> BuildCache.Entry? { state.withLock { $0.entries[key] } }

    /// nil when a save failed.
    var all: [UInt64: BuildCache.Entry]? { state.withLock { $0.failed ? nil : $0.entries } }
}
