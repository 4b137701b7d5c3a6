/// Paths inside the site (relative to the output folder, `/`-separated) and the relative URLs between
/// them: every link in the site is relative, so it works from a server, a sub-folder of one, or `file://`.
enum SitePath {
    /// The output's own folder (records, cache, lock): never a page's or an image's.
    static let stateFolder = ".waterfall"
    /// The longest file name most file systems hold, in bytes.
    static let maximumNameBytes = 255

    /// `join("Trips", "index.html")` is `Trips/index.html`; the top album is "".
    static func join(_ folder: String, _ path: String) -> String {
        folder.isEmpty ? path : folder + "/" + path
    }

    /// The folder part of a file path ("" at the top).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(ofASCII: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The URL of `target` as seen from a page at `page` (both site paths), percent-encoded:
    /// `relative(from: "Trips/photos/a.html", to: "Trips/images/view/a.jpg")` is `../images/view/a.jpg`.
    static func url(from page: String, to target: String) -> String {
        // On the UTF-8 bytes, in one buffer: a site of 100,000 photos asks for millions of these.
        var page = page, target = target
        return page.withUTF8 { from in target.withUTF8 { to in relative(from: from, to: to) } }
    }

    private static func relative(from page: UnsafeBufferPointer<UInt8>, to target: UnsafeBufferPointer<UInt8>) -> String {
        let slash = UInt8(ascii: "/")
        // The page's folder (up to its last slash) and the longest run of whole folders it shares with the target.
        let folderEnd = page.lastIndex(of: slash) ?? 0
        var common = 0  // bytes of the shared folders, each with its slash
        var index = 0
        while index < folderEnd, index < target.count, page[index] == target[index] {
            if page[index] == slash { common = index + 1 }
            index += 1
        }
        if index == folderEnd, folderEnd > 0, index < target.count, target[index] == slash { common = index + 1 }
        var ups = 0  // the page's folders below the shared ones
        if folderEnd > 0, common <= folderEnd {
            ups = 1
            for position in common..<folderEnd where page[position] == slash { ups += 1 }
        }
        var url: [UInt8] = []
        url.reserveCapacity(ups * 3 + (target.count - common) * 3 / 2)
        for _ in 0..<ups { url.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "."), slash]) }
        URLPath.appendEncoded(UnsafeBufferPointer(rebasing: target[common...]), to: &url, keepingSlashes: true)
        return String(decoding: url, as: UTF8.self)
    }

    /// A path that stays inside the output folder: relative, no `..`, `.` or empty segments, no NUL.
    static func isSafeRelativePath(_ path: String) -> Bool { isSafeRelativePath(path.utf8) }

    /// `isSafeRelativePath` of a path's UTF-8 bytes.
    static func isSafeRelativePath<Bytes: Sequence<UInt8>>(_ path: Bytes) -> Bool {
        var segment = 0, dots = 0  // the current segment's length, and how many of its bytes are dots
        for byte in path {
            switch byte {
            case 0: return false
            case UInt8(ascii: "/"):
                if segment == 0 || (segment <= 2 && dots == segment) { return false }
                segment = 0
                dots = 0
            default:
                segment += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return segment > 0 && !(segment <= 2 && dots == segment)
    }
}
