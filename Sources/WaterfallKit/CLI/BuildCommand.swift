/// `waterfall build [INPUT] [-o OUTPUT] ...`: a folder of photos in, a gallery page out.
struct BuildCommand {
    static let name = "build"

    static let help = """
        Usage: waterfall build [INPUT] [-o OUTPUT] [--config FILE] [--templates DIR] [--jobs N]
                               [--strict] [--quiet] [--report json|FILE] [--cache-dir DIR]
                               [--key-file FILE] [--shard K/N] [--watch] [--follow-symlinks]
                               [SETTINGS]

        Builds a waterfall gallery of the photos and videos in INPUT (default: the current
        folder) into OUTPUT (default: _site). Open OUTPUT/index.html in any browser, from a
        server or from disk.

        Options:
          -o, --output DIR     where the site goes (default _site); never the input folder itself
          --config FILE        settings file (default: INPUT/waterfall.json, if there is one)
          --templates DIR      a theme folder: a copy of Waterfall's Templates folder, edited
          -j, --jobs N         photos read and images made at a time (default: the number of cores)
          --strict             an unreadable photo fails the build (exit 1) instead of being skipped
          -q, --quiet          only warnings and errors
          --report R           a JSON report of the build: 'json' (or '-') prints it on stdout,
                               anything else is a file to write it to: new, or an earlier report
                               (never a file of the input, the theme, the cache or OUTPUT/.waterfall)
          --cache-dir DIR      keep headers and derived images in DIR (default OUTPUT/.waterfall/cache),
                               e.g. one that CI restores between runs
          --key-file FILE      keyed mode: sign the cache's entries and the output's records with the
                               key in FILE (64 hex digits, from 'openssl rand -hex 32'; outside the
                               output and the cache), and treat any without a valid signature as
                               absent; the WATERFALL_KEY environment variable gives it too (a CI secret)
          --shard K/N          only read and make images for the K-th of N parts of the photos, into
                               the cache; no pages. A build with the merged caches writes the site.
          --watch              after building, watch INPUT, the theme and the config (polling once a
                               second) and build again when anything changes; Ctrl-C stops
          --follow-symlinks    follow symbolic links wherever they lead; by default a link is followed
                               only when it stays inside INPUT (inside the theme, for theme files),
                               and any other is skipped with a warning
          -h, --help           show this help

        Settings (each overrides the settings file's key of the same name; the file may set more,
        see docs/configuration.md):
        \(Setting.all.filter { $0.flag != nil }.map(\.helpLines).joined(separator: "\n"))

        Exit status: 0 when the site was written, 1 when it could not be (or --strict found a bad
        photo), 64 for a usage error. Progress goes to stderr: a live bar on a terminal, plain lines
        otherwise; no colour is ever used.

        """

    var options = BuildOptions()
    /// The paths the command line named, as given (bytes); `run` makes them `options`' paths.
    var input = PathArgument(".")
    var output = PathArgument("_site")
    var configFile: PathArgument?
    var templates: PathArgument?
    var cacheDirectory: PathArgument?
    /// Keyed mode's key file (`--key-file`); without it, `WATERFALL_KEY` may give the key.
    var keyFile: String?
    var quiet = false
    /// Where the JSON report goes: nil for none.
    var report: ReportTarget?
    var watch = false

    enum ReportTarget: Equatable {
        case standardOutput
        case file(PathArgument)
    }

    static func parse(_ arguments: [[UInt8]]) throws -> BuildCommand? {
        var command = BuildCommand()
        var inputs: [PathArgument] = []
        // The flags' settings, read as they come so a bad value is a usage error; the build applies them
        // again, over the settings file's.
        var given = SiteConfiguration()
        var scanner = ArgumentScanner(arguments, command: name)
        while let argument = try scanner.next() {
            switch argument {
            case .positional(let path): inputs.append(path)
            case .option("-o"), .option("--output"): command.output = try scanner.path()
            case .option("--config"): command.configFile = try scanner.path()
            case .option("--templates"): command.templates = try scanner.path()
            case .option("--jobs"), .option("-j"): command.options.jobs = try scanner.integer(in: 1...1024)
            case .option("--strict"): command.options.strict = true
            case .option("--quiet"), .option("-q"): command.quiet = true
            case .option("--watch"): command.watch = true
            case .option("--follow-symlinks"): command.options.followSymlinks = true
            case .option("--cache-dir"): command.cacheDirectory = try scanner.path()
            case .option("--key-file"): command.keyFile = try scanner.value()
            case .option("--shard"):
                let text = try scanner.value()
                let parts = text.split(separator: "/").map { Int($0) }
                guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, (1...count).contains(index) else {
                    throw UsageError("--shard needs K/N with 1 ≤ K ≤ N, such as 2/4 (got '\(text)')", command: name)
                }
                command.options.shard = (index, count)
            case .option("--report"):
                let target = try scanner.path()
                switch target.text {
                case "json", "-": command.report = .standardOutput
                case "": throw UsageError("--report needs json, or a file to write the report to", command: name)
                default: command.report = .file(target)
                }
            case .option("--help"), .option("-h"): return nil
            case .option(let flag):
                guard let setting = Setting.flagged(flag) else { throw scanner.unknown(flag) }
                command.options.settings.append((setting.key, try scanner.setting(setting, into: &given)))
            }
        }
        guard inputs.count <= 1 else { throw UsageError("build takes one input folder, got \(inputs.count)", command: name) }
        if let input = inputs.first { command.input = input }
        guard !command.output.bytes.isEmpty else { throw UsageError("--output needs a folder", command: name) }
        return command
    }

    func run(console: Console, paths: ArgumentPaths, decoder: DecoderProgram) throws -> ExitCode {
        try run(console: console, paths: paths, decoder: decoder, afterEachBuild: nil)
    }

    /// `run`, calling `afterEachBuild` (with the options built with) after every build that wrote the site.
    func run(console: Console, paths: ArgumentPaths, decoder: DecoderProgram,
             afterEachBuild: ((BuildOptions) -> Void)?) throws -> ExitCode {
        var options: BuildOptions
        var reportFile: ReportFile?
        do {
            options = try usableOptions(paths)
            if case .file(let path) = report { reportFile = try ReportFile(path, options: options, paths: paths) }
        } catch {
            console.error("\(error)")
            return .failure
        }
        options.decoder = decoder
        options.key = try KeySource(file: keyFile).key(outside: [("output", options.output), ("cache", options.cacheFolder)],
                                                       command: Self.name)
        let delivery = Delivery(target: report, file: reportFile, paths: paths)
        guard watch else { return buildOnce(options, delivery: delivery, console: console) }
        var watcher = FolderWatcher(options: options)
        while true {
            if buildOnce(options, delivery: delivery, console: console) == .success { afterEachBuild?(options) }
            watcher.waitForChange()
            console.writeError("change seen: building again\n")
        }
    }

    /// The options with the paths the command line named, each one that is not UTF-8 made usable (the
    /// output and cache folders made, when missing, for such a path: there is no other way to name them).
    private func usableOptions(_ paths: ArgumentPaths) throws(FileSystemError) -> BuildOptions {
        var options = self.options
        options.input = try paths.usable(input)
        if input.text == nil, PathText.text(input.lastComponent) == nil {
            // The default title is the top folder's name, which the usable path no longer shows.
            options.inputName = String(decoding: input.lastComponent, as: UTF8.self)
        }
        options.output = try paths.usable(output, creating: true)
        options.configFile = try configFile.map { (path) throws(FileSystemError) in try paths.usable(path) }
        options.templates = try templates.map { (path) throws(FileSystemError) in try paths.usable(path) }
        options.cacheDirectory = try cacheDirectory.map { (path) throws(FileSystemError) in try paths.usable(path, creating: true) }
        return options
    }

    private func buildOnce(_ options: BuildOptions, delivery: Delivery, console: Console) -> ExitCode {
        let progress = ProgressPrinter(console: console, quiet: quiet)
        do {
            let built = try SiteBuilder(options: options, observe: progress.handle).build()
            let destination = options.shard.map { "the cache (shard \($0.index)/\($0.count): images, no pages)" }
                ?? PathText.display(FolderPath.join(options.output, "index.html"))
            progress.finish(built, destination: destination)
            return delivery.deliver(BuildReportJSON.success(built, options: options, shown: delivery.paths.shown), console: console)
                ? .success : .failure
        } catch {
            console.error("\(error)")
            _ = delivery.deliver(BuildReportJSON.failure(error, options: options, shown: delivery.paths.shown), console: console)
            return .failure
        }
    }

    /// Where `--report` said the report goes.
    private struct Delivery {
        var target: ReportTarget?
        var file: ReportFile?
        var paths: ArgumentPaths

        /// Writes the report; false when the file could not be written.
        func deliver(_ json: String, console: Console) -> Bool {
            switch target {
            case nil: return true
            case .standardOutput:
                console.out(json)
                return true
            case .file:
                do {
                    try file?.write(Array(json.utf8))
                    return true
                } catch {
                    console.error("\(error)")
                    return false
                }
            }
        }
    }
}
