/// What the input, output and cache folders may be to one another, checked before anything is opened
/// for writing: the output is never the input nor holds it (the site would be written among the photos),
/// and the cache never overlaps the photos (it deletes what it no longer needs).
struct FolderRules {
    var options: BuildOptions

    func check() throws(BuildError) {
        guard FolderWalker.isDirectory(options.input) else {
            throw BuildError("\(PathText.display(options.input)): not a folder")
        }
        let input = Self.resolved(options.input)
        let output = Self.resolved(options.output)
        if output == input {
            throw BuildError("the output folder \(PathText.display(options.output)) is the input folder; choose another, such as _site")
        }
        if Self.isInside(input, output) {
            throw BuildError("the output folder \(PathText.display(options.output)) contains the input folder; "
                + "choose one beside or inside it, such as \(PathText.display(FolderPath.join(options.input, "_site")))")
        }
        guard let directory = options.cacheDirectory else { return try checkTheme(against: [("output", output)]) }
        let cache = Self.resolved(directory)
        let shown = PathText.display(directory)
        if cache == input || Self.isInside(input, cache) {
            throw BuildError("the cache folder \(shown) \(cache == input ? "is" : "contains") the input folder; choose another")
        }
        if Self.isInside(cache, input) && !Self.isHidden(cache, under: input) && !Self.isInside(cache, output) {
            throw BuildError("the cache folder \(shown) is inside the input folder, where it would be taken for an album; "
                + "put it outside, or in a hidden folder such as \(PathText.display(FolderPath.join(options.input, ".cache/waterfall")))")
        }
        if cache == output || Self.isInside(output, cache) {
            throw BuildError("the cache folder \(shown) \(cache == output ? "is" : "contains") the output folder; choose another")
        }
        // Inside the output, only within its state folder (not the state folder itself, nor its staging folder).
        let state = FolderPath.join(output, SiteWriter.stateFolder), staging = FolderPath.join(state, "tmp")
        if Self.isInside(cache, output) && (!Self.isInside(cache, state) || cache == staging || Self.isInside(cache, staging)) {
            throw BuildError("the cache folder \(shown) is inside the output folder, where it would be published; "
                + "put it outside, or leave --cache-dir out to use \(PathText.display(FolderPath.join(options.output, ".waterfall/cache")))")
        }
        try checkTheme(against: [("output", output), ("cache", cache)])
    }

    /// A theme given with `--templates` is read and published as it is: the site and the cache must not be
    /// inside it (each build would publish the last one), nor contain it.
    private func checkTheme(against folders: [(label: String, path: String)]) throws(BuildError) {
        guard let templates = options.templates else { return }
        let theme = Self.resolved(templates)
        for (label, path) in folders where path == theme || Self.isInside(path, theme) || Self.isInside(theme, path) {
            throw BuildError("the \(label) folder \(PathText.display(label == "output" ? options.output : options.cacheDirectory ?? path)) "
                + "and the theme folder \(PathText.display(templates)) overlap; keep them apart")
        }
    }

    /// Whether `inner` is strictly inside `outer` (both resolved).
    static func isInside(_ inner: String, _ outer: String) -> Bool {
        inner != outer && inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }

    /// Whether a folder inside `outer` is under a dot-folder of it (never scanned).
    private static func isHidden(_ inner: String, under outer: String) -> Bool {
        inner.dropFirst(outer.count).split(separator: "/").contains { $0.hasPrefix(".") }
    }

    /// The real path of `path`: of the part of it that exists, with the rest appended as making the folders
    /// would resolve it (`in/nosuch/..` is `in`: `nosuch` would be made, then left).
    static func resolved(_ path: String) -> String {
        var existing = path
        var rest: [Substring] = []
        while LinkPolicy.realPath(existing) == nil {
            let parent = FolderPath.parent(of: existing)
            guard parent != existing else { break }
            rest.insert(Substring(FolderPath.lastComponent(of: existing)), at: 0)
            existing = parent
        }
        var components = (LinkPolicy.realPath(existing) ?? existing).split(separator: "/", omittingEmptySubsequences: true)
        for component in rest {
            switch component {
            case ".", "": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}
