/// A photo found in the input: where it is, what its header says, and its size and time stamp (which
/// say whether cached facts about it still hold).
struct Photo: Sendable {
    /// The source file.
    var source: String
    /// Its file name in the input folder.
    var name: String
    var header: ImageHeader
    var status: FileStatus

    /// Where the original goes when originals are published.
    var originalPath: String { "originals/" + name }

    /// Alt text from a file name, for photos without a caption: `coffee-cup_2.jpg` reads "coffee cup 2".
    static func readableName(_ fileName: String) -> String {
        var stem = Substring(fileName)
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
        let words = stem.split { $0 == "-" || $0 == "_" || $0 == " " || $0 == "." }
        return words.isEmpty ? fileName : words.joined(separator: " ")
    }

    /// Extensions of files the scanner treats as photos. Everything with one of these is read (so a GIF
    /// gets a clear "unsupported format" warning); files without one (captions, notes, configs) are ignored.
    static let extensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "pjpeg", "png", "apng", "gif", "webp", "heic", "heif", "avif", "bmp",
        "tif", "tiff", "jxl", "jp2", "j2k", "ico", "psd", "dng", "qoi",
    ]

    static func looksLikePhoto(_ fileName: String) -> Bool {
        guard let dot = fileName.lastIndex(of: ".") else { return false }
        return extensions.contains(fileName[fileName.index(after: dot)...].lowercased())
    }
}

/// A photo with its derived images, ready for the page.
struct PublishedPhoto: Sendable {
    var photo: Photo
    /// Tile images, smallest first, then the view image.
    var images: [DerivedFile]

    var tiles: [DerivedFile] { images.filter { $0.role == .tile } }
    var view: DerivedFile { images.first { $0.role == .view }! }
}

/// One derived image in the site: made now (`staged` holds it until the writer moves it into place) or
/// kept from the last build (`staged` is nil).
struct DerivedFile: Sendable, Equatable {
    var label: String
    var role: Derivation.Role
    var key: String
    var path: String
    var width: Int
    var height: Int
    var staged: String?
}
