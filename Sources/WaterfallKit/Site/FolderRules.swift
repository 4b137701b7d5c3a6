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
        guard let directory = options.cacheDirectory else { return }
        let cache = Self.resolved(directory)
        let shown = PathText.display(directory)
        if cache == input || Self.isInside(input, cache) {
            throw BuildError("the cache folder \(shown) \(cache == input ? "is" : "contains") the input folder; choose another")
        }
        if Self.isInside(cache, input) && !Self.isHidden(cache, under: input) && !Self.isInside(cache, output) {
            throw BuildError("the cache folder \(shown) is inside the input folder, where it would be taken for an album; "
                + "put it outside, or in a hidden folder such as \(PathText.display(FolderPath.join(options.input, ".cache/waterfall")))")
        }
        let state = FolderPath.join(output, SiteWriter.stateFolder)
        if cache == output || Self.isInside(output, cache) {
            throw BuildError("the cache folder \(shown) \(cache == output ? "is" : "contains") the output folder; choose another")
        }
        if Self.isInside(cache, output) && !(cache == state || Self.isInside(cache, state)) {
            throw BuildError("the cache folder \(shown) is inside the output folder, where it would be published; "
                + "put it outside, or leave --cache-dir out to use \(PathText.display(FolderPath.join(options.output, ".waterfall/cache")))")
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

    /// The real path of `path`, or of the part of it that exists with the rest appended (an output folder
    /// need not exist yet).
    static func resolved(_ path: String) -> String {
        if let real = LinkPolicy.realPath(path) { return real }
        let parent = FolderPath.parent(of: path)
        let name = FolderPath.lastComponent(of: path)
        if parent == path || name == "." || name == ".." || name.isEmpty { return path }
        return FolderPath.join(resolved(parent), name)
    }
}
