#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The whole pipeline of `waterfall build`: scan → headers → sort → layout → render → write.
/// Only the first and last steps touch the disk.
public struct SiteBuilder: Sendable {
    public var options: BuildOptions
    public var observe: @Sendable (BuildEvent) -> Void

    public init(options: BuildOptions, observe: @escaping @Sendable (BuildEvent) -> Void = { _ in }) {
        self.options = options
        self.observe = observe
    }

    public func build() throws(BuildError) -> BuildReport {
        let clock = ContinuousClock()
        let start = clock.now
        try checkFolders()
        let configuration = try loadConfiguration()
        let theme: Theme
        let templates: TemplateLibrary
        do {
            theme = try Theme.locate(explicit: options.templates)
            templates = try TemplateLibrary(folder: theme.folder)
        } catch {
            throw BuildError("\(error)")
        }

        let (photos, skipped) = readPhotos(maxPixels: configuration.maxPixels)
        if options.strict && !skipped.isEmpty {
            throw BuildError("\(skipped.count) file\(skipped.count == 1 ? "" : "s") could not be read (--strict); nothing was written")
        }
        if photos.isEmpty { observe(.warning("no photos in \(options.input); the gallery is empty")) }
        let ordered = configuration.reverse ? Array(photos.reversed()) : photos

        let page = try render(ordered, configuration: configuration, templates: templates)
        let assets = try theme.assets().map { asset throws(BuildError) in
            guard let bytes = SiteWriter.contents(of: asset.source) else { throw BuildError("\(asset.source): cannot read") }
            return (path: asset.path, bytes: bytes)
        }
        let files = ["index.html"] + assets.map(\.path) + ordered.map(\.sitePath)
        observe(.writing(files: files.count))
        let removed: [String]
        do {
            var writer = try SiteWriter(output: options.output, files: files)
            try writer.write(page, to: "index.html")
            for asset in assets { try writer.write(asset.bytes, to: asset.path) }
            for photo in ordered { try writer.publish(photo: photo.source, as: photo.sitePath) }
            removed = try writer.finish()
        } catch {
            throw BuildError("\(error)")
        }
        let elapsed = clock.now - start
        return BuildReport(photos: ordered.count, skipped: skipped, removed: removed,
                           seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
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
        return configuration
    }

    /// Every photo-like file directly in INPUT, read in parallel, in natural name order.
    private func readPhotos(maxPixels: Int) -> (photos: [Photo], skipped: [(path: String, reason: String)]) {
        let output = FileIdentity(path: options.output).map { Set([$0]) } ?? []
        let walker = FolderWalker(recursive: false, excluding: output)
        let entries = walker.files(under: options.input).filter { entry in
            Photo.looksLikePhoto(String(entry.path.split(separator: "/").last ?? ""))
        }
        observe(.reading(total: entries.count))
        let reader = HeaderReader(maxPixels: maxPixels)
        let done = Atomic<Int>(0)
        let observe = self.observe
        let results = entries.parallelMap(jobs: options.jobs) { entry -> HeaderResult in
            let result = HeaderResult(reading: entry, with: reader)
            observe(.read(done: done.add(1, ordering: .relaxed).newValue, total: entries.count))
            return result
        }
        var photos: [Photo] = []
        var skipped: [(path: String, reason: String)] = []
        let prefix = FolderWalker.join(options.input, "")
        for result in results {
            switch result.header {
            case .success(let header):
                photos.append(Photo(source: result.path, name: String(result.path.dropFirst(prefix.count)), header: header))
            case .failure(let error):
                skipped.append((result.path, error.reason))
                observe(.skipped(path: result.path, reason: error.reason))
            }
        }
        return (photos, skipped)
    }

    private func render(_ photos: [Photo], configuration: SiteConfiguration,
                        templates: TemplateLibrary) throws(BuildError) -> String {
        let board: BoardStyle
        do {
            let sizes = photos.map { Size(width: Double($0.header.width), height: Double($0.header.height)) }
            let items = try SizedItems(displaySizes: sizes)
            let layout = try ResponsiveLayout(bands: configuration.layoutBands,
                                              configuration: configuration.layoutConfiguration, items: items)
            board = BoardStyle(layout: layout, aspectRatios: items.aspectRatios,
                               footerHeight: configuration.footerHeight)
        } catch {
            throw BuildError("layout: \(error)")
        }
        let title = configuration.title ?? Self.folderName(options.input)
        let tiles: [TemplateValue] = photos.enumerated().map { index, photo in
            let url = URLPath.encode(path: photo.sitePath)
            return [
                "index": .int(index),
                "href": .string(url),
                "src": .string(url),
                "width": .int(photo.header.width),
                "height": .int(photo.header.height),
                "alt": .string(Photo.readableName(photo.name)),
                "style": .string(board.tileStyles[index]),
                "eager": .bool(board.firstScreen[index]),
                "name": .string(photo.name),
            ]
        }
        let count = photos.count
        let context: TemplateValue = [
            "language": "en",
            "generator": .string("Waterfall \(WaterfallCLI.version)"),
            "title": .string(title),
            "description": configuration.description.map { .string($0) } ?? .null,
            "assets": "assets/",
            "layoutCSS": .string(board.css),
            "tiles": .list(tiles),
            "photoCount": .int(count),
            "photoCountText": .string(count == 0 ? "No photos" : count == 1 ? "1 photo" : "\(count) photos"),
            "footerText": .string(configuration.footerText),
        ]
        do {
            return try templates.render(name: "page", value: context)
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
