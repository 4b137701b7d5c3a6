/// Path arithmetic on `/`-separated strings.
enum FolderPath {
    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The folder part ("." for a bare name, "/" at the root).
    static func parent(of path: String) -> String {
        let trimmed = path.utf8.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(ofASCII: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    static func lastComponent(of path: String) -> String {
        let trimmed = path.utf8.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(ofASCII: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }
}
