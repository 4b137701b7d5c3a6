/// A photo that made it into the gallery: where it came from, what its header says, where it goes.
struct Photo: Sendable {
    /// The source file.
    var source: String
    /// Its file name in the input folder, also its name in the site's `photos/`.
    var name: String
    var header: ImageHeader

    /// The photo's path in the site.
    var sitePath: String { "photos/" + name }

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
