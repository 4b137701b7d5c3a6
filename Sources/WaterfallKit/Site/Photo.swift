/// A photo found in the input: where it is, what its header says, and its size and time stamp (which
/// say whether cached facts about it still hold).
struct Photo: Sendable {
    /// The source file.
    var source: String
    /// Its path relative to the input folder (`Trips/Rome/IMG_2.jpg`): unique, and the cache's key.
    var name: String
    var header: ImageHeader
    var status: FileStatus
    /// A caption (from a sidecar text file, or the photo's own description), if any.
    var caption: Caption?
    /// What the photo's own metadata says (camera, exposure, date taken, description): never GPS.
    var facts = PhotoFacts()
    /// When it was taken, as `YYYYMMDDhhmmss` (EXIF DateTimeOriginal), if the photo says.
    var taken: Int? { facts.taken }
    /// What the cache knows of this file (its header came from there), if it knows it.
    var cached: BuildCache.Entry? {
        get { cachedEntry?.entry }
        set { cachedEntry = newValue.map(CachedEntry.init) }
    }
    /// `cached`, boxed: a photo without one (every published photo, 100,000 of them in a large site's album
    /// tree) does not carry an entry's worth of room inline.
    var cachedEntry: CachedEntry? = nil
    /// The file's content hash (from the cache, or computed when the file is new or changed).
    var content: String = ""

    /// A cache entry for this photo with no derived images yet.
    var freshEntry: BuildCache.Entry {
        BuildCache.Entry(name: name, size: status.size, modified: status.modified, content: content, header: header, facts: facts)
    }

    /// The album folder it belongs to, relative to the input ("" for the top).
    var album: String {
        guard let slash = name.lastIndex(ofASCII: "/") else { return "" }
        return String(name[..<slash])
    }

    /// Its file name.
    var fileName: String {
        guard let slash = name.lastIndex(ofASCII: "/") else { return name }
        return String(name[name.index(after: slash)...])
    }

    /// The text a tile and an `alt` attribute use: the caption's title, else a readable form of the file name.
    var label: String { caption?.title ?? Self.readableName(fileName) }

    /// Alt text from a file name, for photos without a caption: `coffee-cup_2.jpg` reads "coffee cup 2".
    static func readableName(_ fileName: String) -> String {
        if let ascii = readableASCIIName(fileName) { return ascii }
        var stem = Substring(fileName)
        if let dot = stem.lastIndex(ofASCII: "."), dot != stem.startIndex { stem = stem[..<dot] }
        let words = stem.split { $0 == "-" || $0 == "_" || $0 == " " || $0 == "." }
        return words.isEmpty ? fileName : words.joined(separator: " ")
    }

    /// `readableName` of an all-ASCII name, by bytes (each byte a character): the common case, asked for
    /// by every tile and photo page. nil for any other name.
    private static func readableASCIIName(_ fileName: String) -> String? {
        var fileName = fileName
        return fileName.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var end = bytes.count
            if let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot != 0 { end = dot }
            var words: [UInt8] = []
            words.reserveCapacity(end)
            var pendingSpace = false
            for byte in bytes[..<end] {
                if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: ".") {
                    pendingSpace = !words.isEmpty
                    continue
                }
                if pendingSpace { words.append(UInt8(ascii: " ")) }
                pendingSpace = false
                words.append(byte)
            }
            return words.isEmpty ? String(decoding: bytes, as: UTF8.self) : String(decoding: words, as: UTF8.self)
        }
    }

    /// Extensions of files the scanner treats as photos. Everything with one of these is read (so a GIF
    /// gets a clear "unsupported format" warning); files without one (captions, notes, configs) are ignored.
    static let extensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "pjpeg", "png", "apng", "gif", "webp", "heic", "heif", "avif", "bmp",
        "tif", "tiff", "jxl", "jp2", "j2k", "ico", "psd", "dng", "qoi",
    ]

    /// Extensions of video files (read by `VideoProbe`): phones' MP4 and MOV, the web's WebM and Ogg, and the
    /// containers cameras and camcorders wrote (AVI, MPEG transport and program streams, Windows Media, Flash).
    static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "qt", "3gp", "3g2", "webm", "mkv", "avi", "ogv", "mts", "m2ts",
                                                "mpg", "mpeg", "vob", "wmv", "asf", "flv"]

    /// A video by its extension (what it is comes from its first bytes).
    static func isVideoName(_ fileName: String) -> Bool {
        guard let dot = fileName.lastIndex(ofASCII: ".") else { return false }
        return videoExtensions.contains(fileName[fileName.index(after: dot)...].lowercased())
    }

    /// A photo or a video, by its extension: the files the scanner reads.
    static func looksLikePhoto(_ fileName: String) -> Bool {
        guard let dot = fileName.lastIndex(ofASCII: ".") else { return false }
        let ext = fileName[fileName.index(after: dot)...].lowercased()
        return extensions.contains(ext) || videoExtensions.contains(ext)
    }
}

/// A cache entry held by reference: by the cache's table, and by the photo found unchanged (`Photo.cached`).
final class CachedEntry: Sendable {
    let entry: BuildCache.Entry

    init(_ entry: BuildCache.Entry) { self.entry = entry }
}

/// The few facts a photo page shows from the photo's metadata, as the cache keeps them.
struct PhotoFacts: Sendable, Equatable {
    /// "Canon EOS R5 · RF24-105mm F4 L IS USM · 50 mm · ƒ/4 · 1/250 s · ISO 400".
    var summary: String?
    /// "2024-05-17 08:30:12" and its `YYYYMMDDhhmmss` number for sorting.
    var takenText: String?
    var taken: Int?
    /// The embedded description (EXIF ImageDescription, PNG Description), for a caption.
    var description: String?

    init() {}

    /// A video's: when it was recorded, as its container says (`creation_time`, UTC), if it says.
    init(video: VideoFacts) {
        guard let date = video.creationTime.flatMap(Self.recordingDate) else { return }
        takenText = date.text
        taken = date.number
    }

    /// `2024-05-17T08:30:12.000000Z` as the text and number a photo's date has.
    static func recordingDate(_ text: String) -> (text: String, number: Int)? {
        let digits = text.utf8.map { $0 }
        guard digits.count >= 19 else { return nil }
        func field(_ from: Int, _ length: Int) -> Int? {
            var value = 0
            for byte in digits[from..<(from + length)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = field(0, 4), let month = field(5, 2), let day = field(8, 2), let hour = field(11, 2),
              let minute = field(14, 2), let second = field(17, 2), (1900...9999).contains(year), (1...12).contains(month),
              (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let shown = String(decoding: digits[0..<10], as: UTF8.self) + " " + String(decoding: digits[11..<19], as: UTF8.self)
        return (shown, ((year * 100 + month) * 100 + day) * 1_000_000 + hour * 10_000 + minute * 100 + second)
    }

    init(_ exif: ExifFacts) {
        summary = exif.summary
        if let date = exif.dateTaken {
            takenText = date.description
            taken = ((date.year * 100 + date.month) * 100 + date.day) * 1_000_000 + date.hour * 10_000 + date.minute * 100 + date.second
        }
        description = exif.caption
    }
}

/// A photo's caption: the first line of its sidecar text file (or its embedded description) and the rest.
struct Caption: Sendable, Equatable {
    var title: String
    var description: String?

    /// First line the title, the rest (trimmed) the description; nil for a file with no text. Lines end
    /// at LF, CRLF or CR (a sidecar written on Windows reads the same as one written anywhere else).
    init?(text: String) {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { String($0).trimmed }
        guard let first = lines.firstIndex(where: { !$0.isEmpty }) else { return nil }
        title = lines[first]
        let rest = lines[(first + 1)...].joined(separator: "\n").trimmed
        description = rest.isEmpty ? nil : rest
    }

    init(title: String, description: String? = nil) {
        self.title = title
        self.description = description
    }
}

/// A photo with its derived images, ready for the page.
struct PublishedPhoto: Sendable {
    /// The photo, which nothing changes once it is published, held by reference: the album tree, the
    /// sort, the names and the pages each copy 100,000 of these, and a copy is then a handful of
    /// reference counts instead of one for each of the photo's strings.
    var photo: Photo { box.photo }
    private let box: PhotoBox
    /// Tile images, smallest first, then the view image.
    var images: [DerivedFile]
    /// Its page in the site (`ALBUM/photos/NAME.html`), and where its original goes when originals are
    /// published (`ALBUM/originals/NAME`): given by `SiteNames`.
    var page = ""
    var original = ""

    init(photo: Photo, images: [DerivedFile]) {
        box = PhotoBox(photo)
        self.images = images
    }

    /// The fallback's tile images (JPEG or PNG), smallest first.
    var tiles: [DerivedFile] { tiles(in: .jpeg) }
    /// The fallback's view image.
    var view: DerivedFile { images.first { $0.role == .view && $0.delivery == .jpeg }! }

    /// A video's published file.
    var video: DerivedFile? { images.first { $0.role == .video } }

    /// The original, when it is published (from the store, where it was taken from the photo's one open).
    var originalFile: DerivedFile? { images.first { $0.role == .original } }

    func tiles(in format: DeliveryFormat) -> [DerivedFile] { images.filter { $0.role == .tile && $0.delivery == format } }
    func view(in format: DeliveryFormat) -> DerivedFile? { images.first { $0.role == .view && $0.delivery == format } }

    /// The images a photo page may show in the view's place, in one format, narrowest first: the tiles
    /// narrower than the view (the same picture, at the widths a phone needs), then the view. An animation's
    /// view alone: its tiles are stills.
    func viewSet(in format: DeliveryFormat) -> [DerivedFile] {
        guard let view = view(in: format) else { return [] }
        guard !photo.header.isAnimated else { return [view] }
        return tiles(in: format).filter { $0.width < view.width } + [view]
    }
}

/// A published photo's `Photo`, held by reference.
private final class PhotoBox: Sendable {
    let photo: Photo

    init(_ photo: Photo) { self.photo = photo }
}

/// One derived image in the site: `path` there (given by `SiteNames`), `stored` in the cache's image
/// store (the site gets a hard link to it, or a copy) with its content `hash`; `made` when this build
/// decoded it.
struct DerivedFile: Sendable, Equatable {
    var label: String
    /// The size's name and folder (`Derivation.size`), and the entry of `formats` it was made for.
    var size: String
    var delivery: DeliveryFormat
    var role: Derivation.Role
    var key: String
    var path: String
    var width: Int
    var height: Int
    var format: ImageFormat
    /// The file's name in the cache's `images/` folder.
    var stored: String
    var hash: ContentDigest?
    var made: Bool
    /// Its mean colour (stills), shown while it loads.
    var averageColor: AverageColor? = nil
    /// Its sketch (an opaque still's smallest image), shown inline on the first screen while it loads.
    var sketch: Sketch? = nil
}

extension String {
    /// Without leading and trailing white space (spaces, tabs, line breaks, a byte-order mark).
    var trimmed: String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
