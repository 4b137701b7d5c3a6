import CImageIO
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// What earlier builds learned, so that a build with nothing changed reads no header and decodes no pixel,
/// and a build on another machine (a CI runner with the cache restored, or the merge after sharded builds)
/// reuses what was made elsewhere.
///
/// A folder (`--cache-dir`, by default `OUTPUT/.waterfall/cache`):
/// - `version`: the layout of the rest; a cache from another version is ignored, never trusted;
/// - `photos/HASH.json`: one entry per photo (its path relative to the input, size, modification time,
///   content hash, header, and its derived images with the settings each was made with);
/// - `images/DIGEST.jpg|png`: the derived images, named by the photo's content and the settings; the site
///   gets hard links to them (copies across file systems).
///
/// Every file is written to a temporary name and renamed, so a killed build leaves nothing half-written
/// under a real name; an entry that does not parse, or an image whose size is not the recorded one, is
/// ignored and made again. Caches merge by copying their folders into one: names never collide unless
/// they hold the same thing.
struct BuildCache: Sendable {
    struct Entry: Sendable, Equatable {
        var name: String
        var size: Int
        var modified: Int
        var content: String
        var header: ImageHeader
        var facts = PhotoFacts()
        var derived: [String: Derived] = [:]
    }

    struct Derived: Sendable, Equatable {
        var key: String
        /// The file in the cache's `images/` folder.
        var file: String
        var bytes: Int
        var width: Int
        var height: Int
        var format: ImageFormat
    }

    let folder: String
    /// Entries by photo path (relative to the input).
    private(set) var entries: [String: Entry] = [:]
    /// Entries by content hash, for photos whose time stamps differ (another checkout of the same files).
    private var byContent: [String: Entry] = [:]

    static let version = "waterfall-cache-3"

    /// Reads every entry that parses from the cache in `folder` (nothing is created: see `prepare`).
    init(folder: String) {
        self.folder = folder
        let stored = SiteWriter.contents(of: SiteWriter.join(folder, "version")).map { String(decoding: $0, as: UTF8.self) }
        // An unknown or older layout: start empty; its files are not read.
        guard stored == Self.version + "\n" else { return }
        for name in Self.list(SiteWriter.join(folder, "photos")) where name.hasSuffix(".json") {
            guard let bytes = SiteWriter.contents(of: SiteWriter.join(folder, "photos/" + name)),
                  let json = try? JSONParser.parse(String(decoding: bytes, as: UTF8.self)),
                  let entry = Entry(json: json) else { continue }
            entries[entry.name] = entry
            byContent[entry.content] = entry
        }
    }

    /// Creates the cache's folders (claiming an older cache's folder for this version) before anything is
    /// stored, and clears what a killed build left in `tmp`.
    func prepare() throws(SiteWriter.Error) {
        for sub in ["photos", "images", "tmp"] { try SiteWriter.makeFolder(SiteWriter.join(folder, sub)) }
        for name in Self.list(SiteWriter.join(folder, "tmp")) { unlink(SiteWriter.join(folder, "tmp/" + name)) }
        let versionFile = SiteWriter.join(folder, "version")
        if SiteWriter.contents(of: versionFile) != Array((Self.version + "\n").utf8) {
            try SiteWriter.writeFile(Array((Self.version + "\n").utf8), to: versionFile)
        }
    }

    /// The entry for a photo, if its file is the one the entry describes: same size and time stamp, or
    /// (hashing the file only then) the same content.
    func entry(for name: String, path: String, status: FileStatus) -> Entry? {
        if let entry = entries[name], entry.size == status.size, entry.modified == status.modified { return entry }
        guard let content = Self.contentHash(path), var entry = entries[name].flatMap({ $0.content == content ? $0 : nil })
            ?? byContent[content] else { return nil }
        entry.name = name
        entry.size = status.size
        entry.modified = status.modified
        return entry
    }

    /// Whether a derived image is still in the cache, whole.
    func holds(_ derived: Derived) -> Bool {
        FileStatus(path: imagePath(derived.file)).map { $0.size == derived.bytes } ?? false
    }

    func imagePath(_ file: String) -> String { SiteWriter.join(folder, "images/" + file) }

    /// A fresh temporary path inside the cache (on its file system, so a rename moves it in).
    func temporaryPath(_ label: String) -> String { SiteWriter.join(folder, "tmp/\(getpid())-\(label)") }

    /// Moves a made image into the store; returns its file name there.
    func store(_ temporary: String, content: String, key: String, format: ImageFormat) -> String? {
        let file = Self.digest(content + "|" + key) + (format == .png ? ".png" : ".jpg")
        return rename(temporary, imagePath(file)) == 0 ? file : nil
    }

    /// Records an entry (atomically).
    func save(_ entry: Entry) {
        let path = SiteWriter.join(folder, "photos/" + Self.digest(entry.name) + ".json")
        let temporary = temporaryPath("entry-" + Self.digest(entry.name))
        guard (try? SiteWriter.writeFile(Array(entry.json.rendered().utf8), to: temporary)) != nil else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// After a whole build: removes the entries of photos that are gone and the images nothing uses any
    /// more (made with older settings), so a cache a pipeline keeps does not grow without end. Only files
    /// the cache's own naming could have made are considered.
    func prune(keepingPhotos names: [String], images stored: [String]) -> Int {
        let entries = Set(names.map { Self.digest($0) + ".json" })
        let images = Set(stored.map { String($0.split(separator: "/").last ?? "") })
        var removed = 0
        for name in Self.list(SiteWriter.join(folder, "photos")) where Self.isOwn(name, suffixes: [".json"]) && !entries.contains(name) {
            if unlink(SiteWriter.join(folder, "photos/" + name)) == 0 { removed += 1 }
        }
        for name in Self.list(SiteWriter.join(folder, "images")) where Self.isOwn(name, suffixes: [".jpg", ".png"]) && !images.contains(name) {
            if unlink(SiteWriter.join(folder, "images/" + name)) == 0 { removed += 1 }
        }
        return removed
    }

    /// Sixteen hex digits and one of the suffixes: a name this cache gives its files.
    private static func isOwn(_ name: String, suffixes: [String]) -> Bool {
        guard let suffix = suffixes.first(where: { name.hasSuffix($0) }) else { return false }
        let stem = name.dropLast(suffix.count)
        return stem.count == 16 && stem.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// The file's 128-bit content hash as hex; nil when it cannot be read.
    static func contentHash(_ path: String) -> String? {
        var hash: (UInt64, UInt64) = (0, 0)
        let status = withUnsafeMutableBytes(of: &hash) { wf_hash_file(path, $0.baseAddress!.assumingMemoryBound(to: UInt64.self)) }
        return status == 0 ? hex(hash.0) + hex(hash.1) : nil
    }

    /// A stable 64-bit FNV-1a digest of a string, as 16 hex digits: file names for entries and images.
    static func digest(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hex(value)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func list(_ folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }
}

extension BuildCache.Entry {
    init?(json: JSONValue) {
        guard case .object(let members) = json else { return nil }
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        guard case .string(let name)? = fields["name"], case .int(let size)? = fields["size"],
              case .int(let modified)? = fields["modified"], case .string(let content)? = fields["content"],
              case .string(let format)? = fields["format"], let imageFormat = ImageFormat(rawValue: format),
              case .int(let width)? = fields["pixelWidth"], case .int(let height)? = fields["pixelHeight"],
              case .int(let orientation)? = fields["orientation"], case .object(let derived)? = fields["derived"] else {
            return nil
        }
        self.name = name
        self.size = size
        self.modified = modified
        self.content = content
        header = ImageHeader(format: imageFormat, pixelWidth: width, pixelHeight: height,
                             orientation: Orientation(rawValue: orientation))
        if case .string(let text)? = fields["summary"] { facts.summary = text }
        if case .string(let text)? = fields["takenText"] { facts.takenText = text }
        if case .int(let number)? = fields["taken"] { facts.taken = number }
        if case .string(let text)? = fields["description"] { facts.description = text }
        for (label, value) in derived {
            guard case .object(let parts) = value else { return nil }
            let part = Dictionary(parts, uniquingKeysWith: { first, _ in first })
            guard case .string(let key)? = part["key"], case .string(let file)? = part["file"],
                  case .int(let bytes)? = part["bytes"], case .int(let w)? = part["width"], case .int(let h)? = part["height"],
                  case .string(let kind)? = part["format"], let derivedFormat = ImageFormat(rawValue: kind),
                  !file.contains("/"), !file.hasPrefix(".") else { return nil }
            self.derived[label] = BuildCache.Derived(key: key, file: file, bytes: bytes, width: w, height: h, format: derivedFormat)
        }
    }

    var json: JSONValue {
        .object([
            ("name", .string(name)), ("size", .int(size)), ("modified", .int(modified)), ("content", .string(content)),
            ("format", .string(header.format.rawValue)), ("pixelWidth", .int(header.pixelWidth)),
            ("pixelHeight", .int(header.pixelHeight)), ("orientation", .int(header.orientation.rawValue)),
            ("summary", facts.summary.map { .string($0) } ?? .null), ("takenText", facts.takenText.map { .string($0) } ?? .null),
            ("taken", facts.taken.map { .int($0) } ?? .null), ("description", facts.description.map { .string($0) } ?? .null),
            ("derived", .object(derived.keys.sorted().map { label in
                let item = derived[label]!
                return (label, .object([("key", .string(item.key)), ("file", .string(item.file)), ("bytes", .int(item.bytes)),
                                        ("width", .int(item.width)), ("height", .int(item.height)),
                                        ("format", .string(item.format.rawValue))]))
            })),
        ])
    }
}
