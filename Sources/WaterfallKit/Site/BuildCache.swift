#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// What the last build learned, so that the next one with nothing changed reads no header and decodes no
/// pixel: per photo, the source's size and modification time, its header, and the derived images made
/// from it with the key of the settings they were made with.
///
/// Stored as JSON in `OUTPUT/.waterfall/cache.json`. A cache from another version, or one that cannot be
/// parsed, is ignored (everything is made again), never trusted.
struct BuildCache: Sendable {
    struct Entry: Sendable, Equatable {
        var size: Int
        var modified: Int
        var header: ImageHeader
        var derived: [String: Derived] = [:]
    }

    struct Derived: Sendable, Equatable {
        var key: String
        var path: String
        var width: Int
        var height: Int
    }

    var entries: [String: Entry] = [:]

    static let path = ".waterfall/cache.json"
    static let version = "waterfall-cache-1"

    /// The cache in `output`, or an empty one.
    static func load(output: String) -> BuildCache {
        guard let bytes = SiteWriter.contents(of: SiteWriter.join(output, path)),
              let root = try? JSONParser.parse(String(decoding: bytes, as: UTF8.self)),
              case .object(let members) = root,
              members.first(where: { $0.0 == "version" })?.1 == .string(version),
              case .object(let photos)? = members.first(where: { $0.0 == "photos" })?.1 else {
            return BuildCache()
        }
        var cache = BuildCache()
        for (name, value) in photos {
            if let entry = Entry(json: value) { cache.entries[name] = entry }
        }
        return cache
    }

    /// Writes the cache atomically (a half-written cache is never read: it fails to parse and is ignored).
    func save(output: String) {
        let photos = entries.keys.sorted().map { ($0, entries[$0]!.json) }
        let text = JSONValue.object([("version", .string(Self.version)), ("photos", .object(photos))]).rendered()
        let destination = SiteWriter.join(output, Self.path)
        let temporary = destination + ".tmp"
        if (try? SiteWriter.writeFile(Array(text.utf8), to: temporary)) != nil {
            _ = rename(temporary, destination)
        }
    }
}

extension BuildCache.Entry {
    init?(json: JSONValue) {
        guard case .object(let members) = json else { return nil }
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        guard case .int(let size)? = fields["size"], case .int(let modified)? = fields["modified"],
              case .string(let format)? = fields["format"], let imageFormat = ImageFormat(rawValue: format),
              case .int(let width)? = fields["pixelWidth"], case .int(let height)? = fields["pixelHeight"],
              case .int(let orientation)? = fields["orientation"], case .object(let derived)? = fields["derived"] else {
            return nil
        }
        self.size = size
        self.modified = modified
        header = ImageHeader(format: imageFormat, pixelWidth: width, pixelHeight: height,
                             orientation: Orientation(rawValue: orientation))
        for (label, value) in derived {
            guard case .object(let parts) = value else { return nil }
            let part = Dictionary(parts, uniquingKeysWith: { first, _ in first })
            guard case .string(let key)? = part["key"], case .string(let path)? = part["path"],
                  case .int(let w)? = part["width"], case .int(let h)? = part["height"],
                  SiteWriter.isSafeRelativePath(path) else { return nil }
            self.derived[label] = BuildCache.Derived(key: key, path: path, width: w, height: h)
        }
    }

    var json: JSONValue {
        .object([
            ("size", .int(size)), ("modified", .int(modified)), ("format", .string(header.format.rawValue)),
            ("pixelWidth", .int(header.pixelWidth)), ("pixelHeight", .int(header.pixelHeight)),
            ("orientation", .int(header.orientation.rawValue)),
            ("derived", .object(derived.keys.sorted().map { label in
                let item = derived[label]!
                return (label, .object([("key", .string(item.key)), ("path", .string(item.path)),
                                        ("width", .int(item.width)), ("height", .int(item.height))]))
            })),
        ])
    }
}
