#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#else
import Darwin
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
        var setup = try prepare()
        var found = try scan(&setup)
        timer.lap("scan")
        var derived = try deriveImages(&found, setup: setup)
        timer.lap("images")
        var report: BuildReport
        if options.shard != nil {
            // A shard only fills the cache (not the sidecars' memo: it sees only its photos); the build that
            // merges the caches writes the site.
            report = finish(timer: timer, photos: derived.photos.count, skipped: found.skipped, written: ([], [], 0), derived: derived,
                            albums: 0, pages: 0)
        } else {
            report = try publish(&derived, found: &found, setup: setup, timer: timer)
        }
        report.sidecarsRead = found.sidecarsParsed
        return report
    }

    /// What a build knows before it reads the input: its settings and theme, and its folders opened.
    private struct Setup {
        var folders: BuildFolders
        var configuration: SiteConfiguration
        /// The derived images' sizes: made once, from the layout's bands (the tile-width ladder lays them out).
        var sizes: ImageSizes
        var theme: Theme
        var templates: TemplateLibrary
        var assets: [(path: String, bytes: [UInt8])]
        var videoTools: VideoTools?
        var input: InputFolder
        /// The input's settings file, when it could not be used (a skipped file, for --strict).
        var unusableSettings: [(path: String, reason: String)]
    }

    /// What the scan found, and the folders the rest of the build writes: the photos' names only, once
    /// they are handed to the deriver (one copy of 100,000 photos is enough).
    private struct Found {
        var photos: [ScannedFile]
        var names: [String] = []
        var skipped: [(path: String, reason: String)]
        var albumSettings: [[UInt8]: SiteConfiguration.AlbumSettings]
        var writer: SiteWriter
        var cache: BuildCache
        /// The readings of the XMP sidecars seen, for the cache's memo; how many a decoder parsed.
        var sidecarMemo: [SidecarMemo.Item] = []
        var sidecarsParsed = 0
    }

    private func prepare() throws(BuildError) -> Setup {
        try FolderRules(options: options).check()
        let folders = try BuildFolders(existing: options)
        for note in folders.unsignedNotes { observe(.note(note)) }
        for warning in folders.warnings { observe(.warning(warning)) }
        let (configuration, unusableSettings) = try loadConfiguration()
        let (theme, templates, assets) = try loadTheme()
        let input: InputFolder
        do {
            input = try InputFolder(path: options.input, followsAllLinks: options.followSymlinks)
        } catch {
            throw BuildError(error)
        }
        return Setup(folders: folders, configuration: configuration, sizes: ImageSizes(configuration: configuration), theme: theme,
                     templates: templates, assets: assets, videoTools: VideoTools.find(), input: input,
                     unusableSettings: unusableSettings)
    }

    /// The photos to build (this shard's, with --shard), the albums' settings, and the output and the cache
    /// opened and ready (handed over: `setup` keeps no copy, so the cache's entries can be let go later).
    private func scan(_ setup: inout Setup) throws(BuildError) -> Found {
        let scanner = PhotoScanner(input: setup.input, excluding: excludedFolders(), jobs: options.jobs,
                                   maxPixels: setup.configuration.maxPixels,
                                   decoders: DecoderPool(program: options.decoder, maxPixels: setup.configuration.maxPixels))
        var scanned = scanner.scan(cache: setup.folders.cache, observe: observe)
        if let shard = options.shard {
            // A likely Live Photo's video goes with its still.
            let names = LivePhotoPairing.shardNames(scanned.photos.map(\.name))
            scanned.photos = scanned.photos.indices.filter { Self.shard(of: names[$0], count: shard.count) == shard.index - 1 }
                .map { scanned.photos[$0] }
        }
        let skipped = setup.unusableSettings + scanned.skipped
        try failIfStrict(skipped)
        var albumSettings = try loadAlbumSettings(scanned.albumSettings)
        SigalAlbumIndex.apply(scanned.albumIndexes, to: &albumSettings, configuration: setup.configuration, photos: scanned.photos,
                              warn: { observe(.warning($0)) })
        let (writer, cache) = try setup.folders.openAll()
        do {
            try cache.prepare()
        } catch {
            throw BuildError(error)
        }
        return Found(photos: scanned.photos, skipped: skipped, albumSettings: albumSettings, writer: writer, cache: cache,
                     sidecarMemo: scanned.sidecarMemo, sidecarsParsed: scanned.sidecarsParsed)
    }

    /// Every photo's derived images in the cache; `found` keeps the photos' names from here on.
    private func deriveImages(_ found: inout Found, setup: Setup) throws(BuildError) -> ImageDeriver.Outcome {
        let configuration = setup.configuration
        let decoders = DecoderPool(program: options.decoder, maxPixels: configuration.maxPixels)
        let reader = MediaReader(images: HeaderReader(maxPixels: configuration.maxPixels), videos: setup.videoTools, decoders: decoders)
        // No deriver is kept: it holds the cache's entries, which are let go before the site is written.
        let derived = try ImageDeriver(cache: found.cache, reader: reader, input: setup.input, sizes: setup.sizes,
                                       encoders: EncoderSettings(configuration: configuration),
                                       video: VideoSettings(tools: setup.videoTools, maxEdge: configuration.videoSize),
                                       originals: configuration.storedOriginals, jobs: options.jobs,
                                       ratings: RatingRule(configuration: configuration))
            .derive(found.photos, trusting: found.writer.records.proven, observe: observe)
        found.names = found.photos.map(\.name)
        found.photos = []
        found.skipped += derived.skipped
        derived.warnings.forEach { observe(.warning($0)) }
        try failIfStrict(found.skipped, cacheWritten: true)
        return derived
    }

    /// The site: kept as it is when the last build left it as this one would write it, else written.
    private func publish(_ derived: inout ImageDeriver.Outcome, found: inout Found, setup: Setup,
                         timer: StageTimer) throws(BuildError) -> BuildReport {
        var timer = timer
        let configuration = setup.configuration
        if derived.photos.isEmpty { observe(.warning("no photos in \(PathText.display(options.input)); the gallery is empty")) }
        for warning in Album.coverWarnings(of: derived.photos, settings: found.albumSettings, input: options.input) { observe(.warning(warning)) }
        warnAboutOversizedAlbums(derived.photos, configuration: configuration)
        var pages = SitePages(configuration: configuration, sizes: setup.sizes, templates: setup.templates)
        let rootTitle = options.inputName ?? Self.folderName(options.input)
        let inputs = SiteInputs.digest(photos: derived.photos, configuration: configuration, albumSettings: found.albumSettings,
                                       siteDigest: pages.siteDigest, galleryDigest: pages.galleryDigest, assets: setup.assets,
                                       rootTitle: rootTitle, input: options.input, jobs: options.jobs)
        // Nothing new, and the last build's site untouched: it is already the site this build would write.
        if derived.made == 0, let memo = found.writer.lastPlan(), memo.inputs == inputs, found.writer.lastBuildIsIntact(jobs: options.jobs) {
            found.cache.writeIndex(photos: found.names)  // at once, when nothing was saved
            found.cache.writeSidecars(found.sidecarMemo)
            warnAboutPhotosInOutput(found.writer)
            timer.lap("pages")
            var report = finish(timer: timer, photos: derived.photos.count, skipped: found.skipped, written: ([], [], 0), derived: derived,
                                albums: memo.albums, pages: memo.pages)
            report.unchanged = true
            return report
        }
        // The cache is brought up to date before the album tree is built and the site written, so that its
        // entries (some 50 MB for 100,000 photos) are not held meanwhile: nothing after this reads them.
        // Photos that failed this build keep their entries (their images may come back with a fix), and so do
        // photos their rating leaves out, with their images; so do images the site does not show.
        _ = found.cache.prune(keepingPhotos: found.names,
                              images: derived.photos.flatMap { $0.images.map(\.stored) } + derived.withheldImages + derived.hidden)
        found.cache.writeIndex(photos: found.names)
        found.cache.writeSidecars(found.sidecarMemo)
        found.sidecarMemo = []
        found.cache.forgetEntries()
        var root = Album.tree(of: derived.photos, configuration: configuration, rootTitle: rootTitle, settings: found.albumSettings)
        // The tree holds the photos now; what the end of the build needs of the list is kept apart.
        let photoCount = derived.photos.count
        derived.photos = []
        SiteNames.assign(&root)
        pages.keywords = configuration.keywordPages ? KeywordIndex(root.all) : nil
        warnAboutPhotosInOutput(found.writer)
        let pageCount = pages.paths(root).count
        let archives = planArchives(root.all, configuration: configuration, rootName: rootTitle)
        let written = try write(pages: pages, root: root, theme: setup.theme, assets: setup.assets, archives: archives,
                                cache: found.cache, into: &found.writer)
        found.writer.recordPlan(PlanMemo(inputs: inputs, albums: root.all.count, pages: pageCount))
        timer.lap("pages")  // rendered and written together, one page at a time
        return finish(timer: timer, photos: photoCount, skipped: found.skipped, written: written, derived: derived,
                      albums: root.all.count, pages: pageCount)
    }

    private func finish(timer: StageTimer, photos: Int, skipped: [(path: String, reason: String)],
                        written: (removed: [String], leftAlone: [String], rendered: Int), derived: ImageDeriver.Outcome,
                        albums: Int, pages: Int) -> BuildReport {
        var report = BuildReport(photos: photos, skipped: skipped, removed: written.removed,
                                 imagesMade: derived.made, imagesKept: derived.kept, seconds: timer.total)
        report.leftAlone = written.leftAlone
        report.pagesRendered = written.rendered
        report.albums = albums
        report.pages = pages
        report.cachedHeaders = derived.cachedHeaders
        report.timings = timer.laps
        report.work = derived.split
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

    /// The settings, and the input's settings file when it could not be used (a skipped file, for --strict).
    private func loadConfiguration() throws(BuildError) -> (SiteConfiguration, skipped: [(path: String, reason: String)]) {
        var configuration = SiteConfiguration()
        let (found, skipped) = try configurationBytes()
        if let bytes = found {
            let file = options.configFile ?? FolderPath.join(options.input, "waterfall.json")
            do {
                configuration = try configuration.applying(json: String(decoding: bytes, as: UTF8.self), file: file)
            } catch {
                throw BuildError(error)
            }
        }
        guard !options.settings.isEmpty else { return (configuration, skipped) }
        do {
            for (key, text) in options.settings {
                guard let setting = Setting.named(key) else { throw SettingProblem(message: "unknown setting '\(key)'") }
                try setting.apply(argument: text, to: &configuration)
            }
        } catch {
            throw BuildError(error)
        }
        do {
            try configuration.checkCombinations(file: "the command line")
        } catch {
            throw BuildError(error)
        }
        return (configuration, skipped)
    }

    /// The settings file's bytes: `--config FILE` (which must be readable), else the input's own
    /// `waterfall.json` when there is one that is the input's (a FIFO or a link out of the input is left
    /// out with a warning, and the defaults apply).
    private func configurationBytes() throws(BuildError) -> ([UInt8]?, skipped: [(path: String, reason: String)]) {
        if let file = options.configFile {
            do {
                return (try OpenFile.open(file).read(limit: SiteConfiguration.maximumFileBytes), [])
            } catch {
                throw BuildError(error)
            }
        }
        let file = FolderPath.join(options.input, "waterfall.json")
        var info = stat()
        guard lstat(file, &info) == 0 else { return (nil, []) }
        if EntryKind(info.st_mode) == .link,
           let refusal = LinkPolicy(root: options.input, label: "the input", followsAll: options.followSymlinks).refusal(forLinkAt: file) {
            leaveOut(settings: file, reason: refusal)
            return (nil, [(file, refusal)])
        }
        do {
            return (try OpenFile.open(file).read(limit: SiteConfiguration.maximumFileBytes), [])
        } catch {
            leaveOut(settings: file, reason: error.reason)
            return (nil, [(file, error.reason)])
        }
    }

    /// The input's settings file cannot be used: the defaults apply, with a warning; under `--strict` it is
    /// a skipped file like any other, and fails the build once the scan has found them all.
    private func leaveOut(settings file: String, reason: String) {
        if options.strict {
            observe(.skipped(path: file, reason: reason))
        } else {
            observe(.warning("\(PathText.display(file)): skipped: \(reason); the default settings apply"))
        }
    }

    /// Each album's own `waterfall.json`, by album folder.
    private func loadAlbumSettings(_ files: [[UInt8]: String]) throws(BuildError) -> [[UInt8]: SiteConfiguration.AlbumSettings] {
        var settings: [[UInt8]: SiteConfiguration.AlbumSettings] = [:]
        for (album, file) in files {
            let bytes: [UInt8]
            do {
                bytes = try OpenFile.open(file).read(limit: SiteConfiguration.maximumFileBytes)
            } catch {
                observe(.warning("\(error); the album's settings are not used"))
                continue
            }
            do {
                settings[album] = try SiteConfiguration.albumSettings(json: String(decoding: bytes, as: UTF8.self), file: file)
            } catch {
                throw BuildError(error)
            }
        }
        return settings
    }

    /// The theme, its templates and its assets; files that are not the theme's are left out with a warning.
    private func loadTheme() throws(BuildError) -> (Theme, TemplateLibrary, [(path: String, bytes: [UInt8])]) {
        do {
            let theme = try Theme.locate(explicit: options.templates)
            let links = theme.links(followingAll: options.followSymlinks)
            let templates = try TemplateLibrary(folder: theme.folder, links: links, warn: { observe(.warning($0)) })
            return (theme, templates, try theme.assets(links: links, warn: { observe(.warning($0)) }))
        } catch {
            throw BuildError(error)
        }
    }

    /// `cacheWritten`: the photos were read, and what was made of the good ones is in the cache (for the
    /// next build); the site itself is not touched.
    private func failIfStrict(_ skipped: [(path: String, reason: String)], cacheWritten: Bool = false) throws(BuildError) {
        guard options.strict && !skipped.isEmpty else { return }
        let outcome = cacheWritten ? "the site was not written (the other photos' images are in the cache)" : "nothing was written"
        let what = skipped.count == 1 ? "1 file or folder of the input" : "\(skipped.count) files or folders of the input"
        throw BuildError("\(what) could not be read (--strict); \(outcome)",
                         skipped: skipped)
    }

    /// When the output folder sits inside the input it is never scanned: photos someone put there are not
    /// in the gallery, which is worth a word.
    private func warnAboutPhotosInOutput(_ writer: SiteWriter) {
        guard let input = RealPath.of(options.input), let output = RealPath.of(options.output), RealPath.isInside(output, input) else { return }
        let own = Set(writer.records.paths.map(ExactPath.init))
        let prefix = FolderPath.join(options.output, "").count
        let foreign = FolderWalker(excluding: Set([FileIdentity(path: FolderPath.join(options.output, SiteWriter.stateFolder))].compactMap { $0 }))
            .files(under: options.output).filter { entry in
                guard case .file(let path) = entry else { return false }
                return Photo.looksLikePhoto(FolderPath.lastComponent(of: path)) && !own.contains(ExactPath(String(path.dropFirst(prefix))))
            }
        guard let first = foreign.first else { return }
        observe(.warning("\(PathText.display(options.output)) is the output folder, so it is not scanned: its \(foreign.count) "
            + "photo\(foreign.count == 1 ? "" : "s") (\(PathText.display(first.path))\(foreign.count > 1 ? ", …" : "")) "
            + "\(foreign.count == 1 ? "is" : "are") not in the gallery"))
    }

    /// Plans every file, stages them all (nothing in the site changes yet), then puts them in place.
    private func write(pages: SitePages, root: Album, theme: Theme, assets: [(path: String, bytes: [UInt8])],
                       archives: [AlbumArchive], cache: BuildCache,
                       into writer: inout SiteWriter) throws(BuildError) -> (removed: [String], leftAlone: [String], rendered: Int) {
        // The albums' photos are walked where they are, not gathered: a site of 100,000 photos would copy them.
        let albums = root.all
        let sharing = SharingFiles(baseURL: pages.configuration.baseURL, root: root)
        let originals = pages.configuration.originals
        var (files, publishing) = plannedFiles(pages: pages, root: root, albums: albums, assets: assets, sharing: sharing,
                                               cache: cache)
        // The archives last: they are written before the pages, which link them with their sizes.
        let archivePositions = files.count..<(files.count + archives.count)
        files += archives.map(\.path)
        observe(.writing(files: files.count))
        do {
            try writer.plan(files, publishing: publishing)
        } catch {
            throw BuildError(error)
        }
        publishing = [:]
        var rendered = 0
        // Files are handed over in the order of `files`, each with its place there: the writer finds its
        // plan by position, not by hashing the path (it checks the path is the one there).
        var position = 0
        func next() -> Int {
            defer { position += 1 }
            return position
        }
        do {
            var pages = pages
            pages.downloads = try writeArchives(archives, positions: archivePositions, cache: cache, into: &writer)
            try pages.render(root) { page throws(BuildError) in
                let at = next()
                do throws(FileSystemError) {
                    if let inputs = page.inputs, try writer.keep(page.path, at: at, madeFrom: inputs) { return }
                } catch {
                    throw Self.writing(error)
                }
                let html = try page.render()
                rendered += 1
                do throws(FileSystemError) {
                    try writer.write(html, to: page.path, at: at, inputs: page.inputs)
                } catch {
                    throw Self.writing(error)
                }
            }
            for asset in assets { try writer.write(asset.bytes, to: asset.path, at: next()) }
            for file in sharing.documents(pages: pages.paths(root)) { try writer.write(file.text, to: file.path, at: next()) }
            for album in albums {
                for photo in album.photos {
                    for image in photo.images where Self.isPublished(image, originals: originals) {
                        // A copied original is never the input's own file (an earlier build may have linked it).
                        let avoiding = image.role == .original && originals == .copy ? FileIdentity(path: photo.photo.source) : nil
                        try writer.publish(opening: { () throws(FileSystemError) in try cache.folder.images.openFile(image.stored) },
                                           hash: image.hash, as: image.path, at: next(), avoiding: avoiding)
                    }
                }
            }
            let outcome = try writer.commit()
            for path in outcome.leftAlone {
                observe(.warning("\(PathText.display(FolderPath.join(options.output, path))): left in place: Waterfall wrote it, "
                    + "but it has changed since, so it is not removed"))
            }
            return (outcome.removed, outcome.leftAlone, rendered)
        } catch let error as BuildError {
            writer.abandon()
            throw error
        } catch let error as FileSystemError {
            writer.abandon()
            throw Self.writing(error)
        } catch {
            writer.abandon()
            throw BuildError(error)
        }
    }

    /// Every path of the site but the archives', in the order `write` hands the files over (pages, assets,
    /// feed and sitemap, images), and the files that will be hard links to an input's own file (linked
    /// originals), by path.
    private func plannedFiles(pages: SitePages, root: Album, albums: [Album], assets: [(path: String, bytes: [UInt8])],
                              sharing: SharingFiles, cache: BuildCache) -> ([String], [String: FileIdentity]) {
        let originals = pages.configuration.originals
        var files = pages.paths(root) + assets.map(\.path) + sharing.paths
        var publishing: [String: FileIdentity] = [:]
        for album in albums {
            for photo in album.photos {
                files += photo.images.lazy.filter { Self.isPublished($0, originals: originals) }.map(\.path)
                // Linked, the original in the site is the very file of the input (the store holds a link to it): an
                // edit in place since does not make it a stranger.
                if let original = photo.originalFile, originals == .link, let info = cache.folder.images.status(original.stored) {
                    publishing[original.path] = FileIdentity(info)
                }
            }
        }
        return (files, publishing)
    }

    /// Whether a photo's file goes into the site: an original only with `originals` (the store may hold it
    /// for the albums' archives alone).
    private static func isPublished(_ image: DerivedFile, originals: SiteConfiguration.OriginalsPolicy) -> Bool {
        image.role != .original || originals != .none
    }

    /// A failure while the site is written: the storage's (a full disk) says that the build stopped and the last
    /// site stands, as a failure while the images were made does.
    static func writing(_ error: FileSystemError) -> BuildError {
        BuildError(error.isStorageFailure ? ImageDeriver.stopping(error.description) : error.description)
    }

    /// The last path component of a folder, for a default title ("." becomes the current folder's name).
    static func folderName(_ path: String) -> String {
        let components = path.split(separator: "/").filter { $0 != "." }
        if let last = components.last, last != ".." { return String(last) }
        let current = FileManager.default.currentDirectoryPath
        return String(current.split(separator: "/").last ?? "Photos")
    }
}
