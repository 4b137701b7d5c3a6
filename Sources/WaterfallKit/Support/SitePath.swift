/// Paths inside the site (relative to the output folder, `/`-separated) and the relative URLs between
/// them: every link in the site is relative, so it works from a server, a sub-folder of one, or `file://`.
enum SitePath {
    /// `join("Trips", "index.html")` is `Trips/index.html`; the top album is "".
    static func join(_ folder: String, _ path: String) -> String {
        folder.isEmpty ? path : folder + "/" + path
    }

    /// The folder part of a file path ("" at the top).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The URL of `target` as seen from a page at `page` (both site paths), percent-encoded:
    /// `relative(from: "Trips/photos/a.html", to: "Trips/images/view/a.jpg")` is `../images/view/a.jpg`.
    static func url(from page: String, to target: String) -> String {
        let from = folder(of: page).split(separator: "/", omittingEmptySubsequences: true)
        let to = target.split(separator: "/", omittingEmptySubsequences: false)
        var common = 0
        while common < from.count && common < to.count - 1 && from[common].utf8.elementsEqual(to[common].utf8) { common += 1 }
        let up = Array(repeating: "..", count: from.count - common)
        let down = to[common...].map { URLPath.encode(segment: String($0)) }
        return (up + down).joined(separator: "/")
    }
}
