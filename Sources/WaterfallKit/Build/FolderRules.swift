/// What the input, output and cache folders may be to one another, checked before anything is opened
/// for writing: the output is never the input nor holds it (the site would be written among the photos),
/// and the cache never overlaps the photos (it deletes what it no longer needs).
struct FolderRules {
    var options: BuildOptions

    func check() throws(BuildError) {
        guard FolderWalker.isDirectory(options.input) else {
            throw BuildError("\(PathText.display(options.input)): not a folder")
        }
        let input = RealPath.resolved(options.input)
        let output = RealPath.resolved(options.output)
        if output == input {
            throw BuildError("the output folder \(PathText.display(options.output)) is the input folder; choose another, such as _site")
        }
        if RealPath.isInside(input, output) {
            throw BuildError("the output folder \(PathText.display(options.output)) contains the input folder; "
                + "choose one beside or inside it, such as \(PathText.display(FolderPath.join(options.input, "_site")))")
        }
        guard let directory = options.cacheDirectory else { return try checkTheme(against: [("output", output)]) }
        let cache = RealPath.resolved(directory)
        let shown = PathText.display(directory)
        if cache == input || RealPath.isInside(input, cache) {
            throw BuildError("the cache folder \(shown) \(cache == input ? "is" : "contains") the input folder; choose another")
        }
        if RealPath.isInside(cache, input) && !RealPath.isHidden(cache, under: input) && !RealPath.isInside(cache, output) {
            throw BuildError("the cache folder \(shown) is inside the input folder, where it would be taken for an album; "
                + "put it outside, or in a hidden folder such as \(PathText.display(FolderPath.join(options.input, ".cache/waterfall")))")
        }
        if cache == output || RealPath.isInside(output, cache) {
            throw BuildError("the cache folder \(shown) \(cache == output ? "is" : "contains") the output folder; choose another")
        }
        // Inside the output, only within its state folder (not the state folder itself, nor its staging folder).
        let state = Self.state(of: output), staging = state + Array("/tmp".utf8)
        if RealPath.isInside(cache, output) && (!RealPath.isInside(cache, state) || cache == staging || RealPath.isInside(cache, staging)) {
            throw BuildError("the cache folder \(shown) is inside the output folder, where it would be published; "
                + "put it outside, or leave --cache-dir out to use \(PathText.display(FolderPath.join(options.output, ".waterfall/cache")))")
        }
        try checkTheme(against: [("output", output), ("cache", cache)])
    }

    /// The output's state folder (its records, lock, staging and default cache), from the output's real path.
    static func state(of output: [UInt8]) -> [UInt8] {
        output + (output == [UInt8(ascii: "/")] ? [] : [UInt8(ascii: "/")]) + Array(SiteWriter.stateFolder.utf8)
    }

    /// A theme given with `--templates` is read and published as it is: the site and the cache must not be
    /// inside it (each build would publish the last one), nor contain it.
    private func checkTheme(against folders: [(label: String, path: [UInt8])]) throws(BuildError) {
        guard let templates = options.templates else { return }
        let theme = RealPath.resolved(templates)
        for (label, path) in folders where path == theme || RealPath.isInside(path, theme) || RealPath.isInside(theme, path) {
            throw BuildError("the \(label) folder \(PathText.display(label == "output" ? options.output : options.cacheDirectory ?? "")) "
                + "and the theme folder \(PathText.display(templates)) overlap; keep them apart")
        }
    }
}
