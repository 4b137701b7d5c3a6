/// The output and cache folders of a build, each locked before anything in it is read. Those that exist
/// are opened before the scan (the cache serves it); those that do not are made only after it, so a build
/// that stops there (`--strict`) has written nothing at all.
struct BuildFolders {
    let options: BuildOptions
    private(set) var writer: SiteWriter?
    private(set) var cache: BuildCache?

    /// Opens what exists.
    init(existing options: BuildOptions) throws(BuildError) {
        self.options = options
        let opened = FolderWalker.isDirectory(options.output) ? try Self.openOutput(options, readingRecords: false) : nil
        let folder = try Self.openCache(options, opened, create: false)
        // The output's records and the cache's entries (each some 0.7 s for 100,000 photos) at once.
        (writer, cache) = Parallel.both({ () -> SiteWriter? in
            var writer = opened
            writer?.readRecords()
            return writer
        }, { folder.map { BuildCache(folder: $0, jobs: options.jobs, key: options.key) } })
        warnings = (writer?.warnings ?? []) + (cache?.warnings ?? [])
    }

    /// In keyed mode, one line for the cache's entries and one for the output's records found without a
    /// valid MAC (made without the key, or with another): treated as absent.
    var unsignedNotes: [String] {
        var notes: [String] = []
        if let cache, cache.unsigned > 0 {
            notes.append("\(PathText.display(options.cacheFolder)): \(cache.unsigned) cache entr\(cache.unsigned == 1 ? "y is" : "ies are") "
                + "not signed with this key (made without it, or with another): ignored, and made again from the photos")
        }
        if let writer, writer.records.unsigned > 0 {
            notes.append("\(PathText.display(FolderPath.join(options.output, SiteWriter.stateFolder))): \(writer.records.unsigned) "
                + "record\(writer.records.unsigned == 1 ? " is" : "s are") not signed with this key (made without it, or with another): "
                + "\(writer.records.unsigned == 1 ? "it proves" : "they prove") nothing")
        }
        return notes
    }

    /// Records of the output and the cache ignored as damaged, one line each.
    private(set) var warnings: [String] = []

    /// Opens (making them when missing) both, and hands them over: no copy stays here, so the cache's
    /// entries can be let go part way through the build.
    mutating func openAll() throws(BuildError) -> (SiteWriter, BuildCache) {
        if writer == nil { writer = try Self.openOutput(options) }
        guard let writer else { throw BuildError("\(PathText.display(options.output)): cannot open the output folder") }
        if cache == nil {
            cache = try Self.openCache(options, writer, create: true).map { BuildCache(folder: $0, jobs: options.jobs, key: options.key) }
        }
        guard let cache else { throw BuildError("\(PathText.display(options.cacheFolder)): cannot open the cache") }
        (self.writer, self.cache) = (nil, nil)
        return (writer, cache)
    }

    private static func openOutput(_ options: BuildOptions, readingRecords: Bool = true) throws(BuildError) -> SiteWriter {
        do {
            return try SiteWriter(output: options.output, readingRecords: readingRecords, key: options.key)
        } catch {
            throw BuildError(error)
        }
    }

    /// The cache folder, claimed and locked: the one `--cache-dir` names, or the default one inside the
    /// output's own state folder (never through a link). nil when it does not exist and `create` is off.
    private static func openCache(_ options: BuildOptions, _ writer: SiteWriter?, create: Bool) throws(BuildError) -> CacheFolder? {
        do {
            if let directory = options.cacheDirectory {
                if !create && !FolderWalker.isDirectory(directory) { return nil }
                return try CacheFolder.open(root: try FolderHandle.open(directory, create: true))
            }
            guard let writer, create || writer.state.kind("cache") != nil else { return nil }
            return try CacheFolder.open(root: try writer.state.folder("cache", create: true))
        } catch {
            throw BuildError(error)
        }
    }
}
