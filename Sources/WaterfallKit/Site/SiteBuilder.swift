#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The whole pipeline of `waterfall build`: scan → headers → derived images → layout → render → write.
public struct SiteBuilder: Sendable {
    public var options: BuildOptions
    public var observe: @Sendable (BuildEvent) -> Void

    public init(options: BuildOptions, observe: @escaping @Sendable (BuildEvent) -> Void = { _ in }) {
        self.options = options
        self.observe = observe
    }

    public func build() throws(BuildError) -> BuildReport {
        var timer = StageTimer()
        try checkFolders()
        let configuration = try loadConfiguration()
        let (theme, templates) = try loadTheme()
        let cache = BuildCache(folder: options.cacheFolder)

        let scanner = PhotoScanner(input: options.input, excluding: excludedFolders(),
                                   reader: HeaderReader(maxPixels: configuration.maxPixels), jobs: options.jobs)
        var scanned = scanner.scan(cache: cache, observe: observe)
        if let shard = options.shard {
            scanned.photos = scanned.photos.filter { Self.shard(of: $0.name, count: shard.count) == shard.index - 1 }
        }
        var skipped = scanned.skipped
        try failIfStrict(skipped)
        let albumSettings = try loadAlbumSettings(scanned.albumSettings)
        do {
            try cache.prepare()
        } catch {
            throw BuildError("\(error)")
        }
        timer.lap("scan")

        let sizes = ImageSizes(configuration: configuration)
        let deriver = ImageDeriver(cache: cache, sizes: sizes, quality: configuration.quality,
                                   maxPixels: configuration.maxPixels, jobs: options.jobs)
        let derived = deriver.derive(scanned.photos, observe: observe)
        skipped += derived.skipped
        try failIfStrict(skipped)
        timer.lap("images")
        if options.shard != nil {
            // A shard only fills the cache; the build that merges the caches writes the site.
            return finish(timer: timer, photos: derived.photos.count, skipped: skipped, removed: [], derived: derived,
                          scanned: scanned, albums: 0, pages: 0)
        }
        if derived.photos.isEmpty { observe(.warning("no photos in \(options.input); the gallery is empty")) }

        let root = Album.tree(of: derived.photos, configuration: configuration, rootTitle: Self.folderName(options.input),
                              settings: albumSettings)
        let pages = SitePages(configuration: configuration, sizes: sizes, templates: templates)
        let pageCount = pages.paths(root).count
        let removed = try write(pages: pages, root: root, photos: derived.photos, theme: theme, originals: configuration.originals)
        // Photos that failed this build keep their entries (their images may come back with a fix).
        _ = cache.prune(keepingPhotos: scanned.photos.map(\.name), images: derived.photos.flatMap { $0.images.map(\.stored) })
        timer.lap("pages")  // rendered and written together, one page at a time
        return finish(timer: timer, photos: derived.photos.count, skipped: skipped, removed: removed, derived: derived,
                      scanned: scanned, albums: root.all.count, pages: pageCount)
    }

    private func finish(timer: StageTimer, photos: Int, skipped: [(path: String, reason: String)], removed: [String],
                        derived: ImageDeriver.Outcome, scanned: PhotoScanner.Result, albums: Int, pages: Int) -> BuildReport {
        var report = BuildReport(photos: photos, skipped: skipped, removed: removed,
                                 imagesMade: derived.made, imagesKept: derived.kept, seconds: timer.total)
        report.albums = albums
        report.pages = pages
        report.cachedHeaders = scanned.cachedHeaders
        report.timings = timer.laps
        return report
    }

    /// Which shard (from 0) a photo belongs to: by its path, so every machine agrees.
    static func shard(of name: String, count: Int) -> Int {
        Int(UInt64(BuildCache.digest(name), radix: 16)! % UInt64(count))
    }

    /// The output folder and the cache folder, when they sit inside the input: never scanned.
    private func excludedFolders() -> Set<FileIdentity> {
        Set([options.output, options.cacheFolder].compactMap { FileIdentity(path: $0) })
    }

    /// Wall-clock time per stage.
    struct StageTimer {
        private let clock = ContinuousClock()
        private let start: ContinuousClock.Instant
        private var last: ContinuousClock.Instant
        private(set) var laps: [(stage: String, seconds: Double)] = []

        init() {
            start = clock.now
            last = start
        }

        mutating func lap(_ stage: String) {
            let now = clock.now
            laps.append((stage, Self.seconds(now - last)))
            last = now
        }

        var total: Double { Self.seconds(clock.now - start) }

        static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        }
    }

    // MARK: - Steps

    /// INPUT must be a folder; OUTPUT must not be INPUT (it may be inside it: it is never scanned).
    private func checkFolders() throws(BuildError) {
        guard FolderWalker.isDirectory(options.input) else {
            throw BuildError("\(options.input): not a folder")
        }
        if let input = FileIdentity(path: options.input), input == FileIdentity(path: options.output) {
            throw BuildError("the output folder \(options.output) is the input folder; choose another, such as _site")
        }
    }

    private func loadConfiguration() throws(BuildError) -> SiteConfiguration {
        var configuration = SiteConfiguration()
        let file = options.configFile ?? SiteWriter.join(options.input, "waterfall.json")
        if let bytes = SiteWriter.contents(of: file) {
            do {
                configuration = try configuration.applying(json: String(decoding: bytes, as: UTF8.self), file: file)
            } catch {
                throw BuildError("\(error)")
            }
        } else if options.configFile != nil {
            throw BuildError("\(file): cannot read the configuration file")
        }
        if let title = options.title { configuration.title = title }
        if let originals = options.originals { configuration.originals = originals }
        return configuration
    }

    /// Each album's own `waterfall.json`, by album folder.
    private func loadAlbumSettings(_ files: [String: String]) throws(BuildError) -> [String: SiteConfiguration.AlbumSettings] {
        var settings: [String: SiteConfiguration.AlbumSettings] = [:]
        for (album, file) in files {
            guard let bytes = SiteWriter.contents(of: file) else { throw BuildError("\(file): cannot read") }
            do {
                settings[album] = try SiteConfiguration.albumSettings(json: String(decoding: bytes, as: UTF8.self), file: file)
            } catch {
                throw BuildError("\(error)")
            }
        }
        return settings
    }

    private func loadTheme() throws(BuildError) -> (Theme, TemplateLibrary) {
        do {
            let theme = try Theme.locate(explicit: options.templates)
            return (theme, try TemplateLibrary(folder: theme.folder))
        } catch {
            throw BuildError("\(error)")
        }
    }

    private func failIfStrict(_ skipped: [(path: String, reason: String)]) throws(BuildError) {
        guard options.strict && !skipped.isEmpty else { return }
        throw BuildError("\(skipped.count) file\(skipped.count == 1 ? "" : "s") could not be read (--strict); nothing was written",
                         skipped: skipped)
    }

    private func write(pages: SitePages, root: Album, photos: [PublishedPhoto], theme: Theme,
                       originals: SiteConfiguration.OriginalsPolicy) throws(BuildError) -> [String] {
        let assets = try theme.assets().map { asset throws(BuildError) in
            guard let bytes = SiteWriter.contents(of: asset.source) else { throw BuildError("\(asset.source): cannot read") }
            return (path: asset.path, bytes: bytes)
        }
        let images = photos.flatMap(\.images)
        let originalPaths = originals == .none ? [] : photos.map(\.photo.originalPath)
        let files = pages.paths(root) + assets.map(\.path) + images.map(\.path) + originalPaths
        observe(.writing(files: files.count))
        do {
            var writer = try SiteWriter(output: options.output, files: files)
            try pages.render(root) { path, html throws(BuildError) in
                do {
                    try writer.write(html, to: path)
                } catch {
                    throw BuildError("\(error)")
                }
            }
            for asset in assets { try writer.write(asset.bytes, to: asset.path) }
            for image in images { try writer.publish(photo: image.stored, as: image.path) }
            if originals != .none {
                for photo in photos {
                    try writer.publish(photo: photo.photo.source, as: photo.photo.originalPath, copy: originals == .copy)
                }
            }
            return try writer.finish()
        } catch {
            throw BuildError("\(error)")
        }
    }

    /// The last path component of a folder, for a default title ("." becomes the current folder's name).
    static func folderName(_ path: String) -> String {
        let components = path.split(separator: "/").filter { $0 != "." }
        if let last = components.last, last != ".." { return String(last) }
        let current = FileManager.default.currentDirectoryPath
        return String(current.split(separator: "/").last ?? "Photos")
    }
}
