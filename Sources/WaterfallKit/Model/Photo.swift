/// A photo found in the input: where it is, what its header says, and its size and time stamp (which
/// say whether cached facts about it still hold).
struct Photo: Sendable {
    /// The source file.
    var source: String
    /// Its path relative to the input folder (`Trips/Rome/IMG_2.jpg`): unique, and the cache's key.
    var name: String
    var header: ImageHeader
    var status: FileStatus
    /// Its metadata from every source, sidecars and its own bytes, merged in the order of precedence.
    var metadata = PhotoMetadata()
    /// What the photo's own bytes say (camera, exposure, and their part of `metadata`): never GPS.
    var facts = PhotoFacts()
    /// Its caption (title and description), if any source gives one.
    var caption: Caption? { metadata.caption }
    /// When it was taken, as `YYYYMMDDhhmmss`, if any source says.
    var taken: Int? { metadata.taken?.value.number }
    /// What the cache knows of this file (its header came from there), if it knows it.
    var cached: CacheEntry? {
        get { cachedEntry?.entry }
        set { cachedEntry = newValue.map(CachedEntry.init) }
    }
    /// `cached`, boxed: a photo without one (every published photo, 100,000 of them in a large site's album
    /// tree) does not carry an entry's worth of room inline.
    var cachedEntry: CachedEntry? = nil
    /// The file's content hash (from the cache, or computed when the file is new or changed).
    var content: String = ""

    /// A cache entry for this photo with no derived images yet.
    var freshEntry: CacheEntry {
        CacheEntry(name: name, size: status.size, modified: status.modified, content: content, header: header, facts: facts)
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
        "jpg", "jpeg", "jpe", "jfif", "pjpeg", "png", "apng", "gif", "webp", "heic", "heif", "hif", "avif", "avifs", "heics", "bmp",
        "tif", "tiff", "jxl", "jp2", "j2k", "ico", "psd", "dng", "qoi",
    ]

    /// A video by its extension (what it is comes from its first bytes).
    static func isVideoName(_ fileName: String) -> Bool {
        guard let dot = fileName.lastIndex(ofASCII: ".") else { return false }
        return ImageFormat.videoExtensions.contains(fileName[fileName.index(after: dot)...].lowercased())
    }

    /// A photo or a video, by its extension: the files the scanner reads.
    static func looksLikePhoto(_ fileName: String) -> Bool {
        guard let dot = fileName.lastIndex(ofASCII: ".") else { return false }
        let ext = fileName[fileName.index(after: dot)...].lowercased()
        return extensions.contains(ext) || ImageFormat.videoExtensions.contains(ext)
    }
}
