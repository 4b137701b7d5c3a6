/// `waterfall layout DIR --width W ...`: the waterfall layout of a folder's photos at one width.
struct LayoutCommand {
    static let name = "layout"

    static let help = """
        Usage: waterfall layout DIR --width W [--columns C] [--column-spacing G] [--row-spacing R]
                                [--insets T,L,B,R] [--footer-height F]
                                [--placement balanced|shortest|round-robin] [--flow-tolerance T]
                                [--bottom natural|flush] [--max-crop S]
                                [--json] [--max-pixels N] [--jobs N]

        Lays out the photos directly in DIR (sub-folders are not included) as a waterfall board W
        pixels wide, in gallery order (natural file-name order: IMG_2 before IMG_10, case ignored),
        with each photo's display size read from its header. Files that cannot be read are skipped
        with a warning on stderr.

        Options:
          --width W              board width in CSS pixels, up to 100000 (required)
          --columns C            number of columns, 1–10000 (default 3)
          --json                 {"width", "columns", "contentHeight", "items": [...], "footer": {...},
                                 "placement", "flowTolerance", "bottom", "maxCrop", "flushLine",
                                 "spread", "spreadTileWidths"}; a reshaped item has "naturalHeight"
          --jobs N               headers read at a time (default: the number of cores)
          -h, --help             show this help

        Settings (as in waterfall.json, see docs/configuration.md; --max-crop only with --bottom flush):
        \(settingFlags.compactMap(Setting.flagged).map(\.helpLines).joined(separator: "\n"))

        """

    var folder = PathArgument(".")
    var width: Double?
    var configuration = WaterfallConfiguration()
    var json = false
    var reader = HeaderReader()
    var jobs = Parallelism.available

    /// The settings this command takes as the build does (`Setting.flag`).
    static let settingFlags = ["--column-spacing", "--row-spacing", "--insets", "--footer-height", "--placement", "--flow-tolerance",
                               "--bottom", "--max-crop", "--max-pixels"]

    static func parse(_ arguments: [[UInt8]]) throws -> LayoutCommand? {
        var command = LayoutCommand()
        var folders: [PathArgument] = []
        var columns = command.configuration.columnCount
        var settings = SiteConfiguration()
        var maxCropGiven = false
        var scanner = ArgumentScanner(arguments, command: name)
        while let argument = try scanner.next() {
            switch argument {
            case .positional(let path): folders.append(path)
            case .option("--width"): command.width = try scanner.number(above: 0, atMost: SettingLimits.minWidth.upperBound)
            case .option("--columns"): columns = try scanner.integer(in: 1...10_000)
            case .option("--json"): command.json = true
            case .option("--jobs"), .option("-j"): command.jobs = try scanner.integer(in: 1...1024)
            case .option("--help"), .option("-h"): return nil
            case .option(let flag):
                guard settingFlags.contains(flag), let setting = Setting.flagged(flag) else { throw scanner.unknown(flag) }
                _ = try scanner.setting(setting, into: &settings)
                maxCropGiven = maxCropGiven || setting.key == "maxCrop"
            }
        }
        guard folders.count == 1 else {
            throw UsageError(folders.isEmpty ? "layout needs a folder" : "layout takes one folder, got \(folders.count)",
                             command: name)
        }
        guard command.width != nil else { throw UsageError("layout needs --width W", command: name) }
        command.folder = folders[0]
        guard !maxCropGiven || settings.bottom == .flush else {
            throw UsageError("--max-crop only applies with --bottom flush", command: name)
        }
        command.configuration = settings.layoutConfiguration
        command.configuration.columnCount = columns
        command.reader.maxPixels = settings.maxPixels
        // Check the geometry before reading any file: a board too narrow for its columns is a usage error.
        if command.configuration.itemWidth(forContainerWidth: command.width!) <= 0 {
            throw UsageError("--width \(command.width!.readable) leaves no room for \(command.configuration.columnCount) "
                + "column(s) after spacing and insets (item width \((command.configuration.itemWidth(forContainerWidth: command.width!)).readable))",
                command: name)
        }
        return command
    }

    func run(console: Console, paths: ArgumentPaths, decoder: DecoderProgram) throws -> ExitCode {
        guard let folder = try? paths.usable(self.folder), FolderWalker.isDirectory(folder) else {
            throw UsageError("\(self.folder.shown): not a folder", command: Self.name)
        }
        let reader = MediaReader(images: self.reader, videos: VideoTools.find(),
                                 decoders: DecoderPool(program: decoder, maxPixels: self.reader.maxPixels))
        let photos = FolderWalker(recursive: false).files(under: folder)
            .parallelMap(jobs: jobs) { HeaderResult(reading: $0, with: reader) }
        var names: [String] = []
        var sizes: [Size] = []
        for photo in photos {
            switch photo.header {
            case .success(let header):
                names.append(String(photo.path.dropFirst(FolderWalker.join(folder, "").count)))
                sizes.append(Size(width: Double(header.width), height: Double(header.height)))
            case .failure(let error):
                console.error("\(photo.path): skipped: \(error.reason)")
            }
        }
        let layout: WaterfallLayout
        do {
            layout = try WaterfallLayout(containerWidth: width!, configuration: configuration,
                                         delegate: try SizedItems(displaySizes: sizes))
        } catch {
            throw UsageError("\(error)", command: Self.name)
        }
        let report = LayoutReport(layout: layout, files: names)
        console.out(json ? report.json() : report.table())
        return .success
    }
}
