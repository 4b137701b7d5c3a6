#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The file `--report FILE` names, held to the rules of every path Waterfall writes.
///
/// - It replaces only what it can prove is its own: nothing, or an earlier report, a regular file that
///   begins as every report does (`{"report": N, "waterfall": "`), so CI running `--report report.json` again
///   in the same folder replaces its last report; anything else there (a photo, a link, a FIFO) is left
///   alone, and the build does not start.
/// - It never goes where it would be read, or cleaned up, as something else: inside the input folder (it
///   could replace or add a photo, a caption or a settings file; a hidden file or folder of the input, or
///   an output folder inside it, is never read, and is fine), inside the theme, onto the settings file, inside the cache, or inside the
///   output's state folder (its records, lock and default cache). Locations are compared as real paths, by
///   bytes.
/// - It is written whole (under a temporary name beside it, then renamed), never through a link: a file that
///   appears at a new report's name meanwhile is not replaced.
///
/// Both are checked before the build (a refusal is one line and exit status 1, with nothing written), and
/// what is at the name is checked again when the report is written.
struct ReportFile {
    /// The folder the report goes in (it may not exist before the build: an output folder, say).
    private let parent: String
    private let name: [UInt8]
    /// For messages: the path as given, escaped.
    private let shown: String

    init(_ path: PathArgument, options: BuildOptions, paths: ArgumentPaths) throws(FileSystemError) {
        shown = path.shown
        name = path.lastComponent
        guard !name.isEmpty, name != Array(".".utf8), name != Array("..".utf8) else {
            throw FileSystemError(shown, "is a folder, not a file for the report")
        }
        parent = try paths.usable(path.parent)
        try Self.checkPlace(RealPath.resolved(parent, name: name), shown: shown, options: options)
        if FolderWalker.isDirectory(parent) { _ = try existing(in: try FolderHandle.open(parent, create: false)) }
    }

    /// Writes the report in place of what the name holds now: nothing, or an earlier report.
    func write(_ bytes: [UInt8]) throws(FileSystemError) {
        let folder = try FolderHandle.open(parent, create: false)
        let replacing = try existing(in: folder)
        let temporary = ".waterfall-report-\(getpid()).tmp"
        folder.remove(temporary)
        try folder.writeNew(temporary, bytes)
        do {
            try folder.rename(temporary, to: folder, asBytes: name, replacing: replacing)
        } catch {
            folder.remove(temporary)
            throw error
        }
    }

    /// Whether an earlier report is at the name (true) or nothing is (false); anything else is refused.
    private func existing(in folder: FolderHandle) throws(FileSystemError) -> Bool {
        guard let info = folder.status(bytes: name) else { return false }
        switch EntryKind(info.st_mode) {
        case .file:
            guard let file = try? folder.openFile(bytes: name), Self.isReport((try? file.read(upTo: 64)) ?? []) else {
                throw FileSystemError(shown, "exists and is not a report Waterfall wrote; not replaced (move it away, or give --report another file)")
            }
            return true
        case .link: throw FileSystemError(shown, "is a symbolic link; not replaced")
        case .folder, .other: throw FileSystemError(shown, "is not a regular file; not replaced")
        }
    }

    /// Whether `head` is how a report begins: `{"report": 1, "waterfall": "`.
    static func isReport(_ head: [UInt8]) -> Bool {
        let opening = Array(#"{"report": "#.utf8), next = Array(#", "waterfall": ""#.utf8)
        guard head.starts(with: opening) else { return false }
        let digits = head.dropFirst(opening.count).prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return !digits.isEmpty && head.dropFirst(opening.count + digits.count).starts(with: next)
    }

    /// Refuses a report whose real path `real` is where the build reads, or keeps its own files.
    private static func checkPlace(_ real: [UInt8], shown: String, options: BuildOptions) throws(FileSystemError) {
        let input = RealPath.resolved(options.input), output = RealPath.resolved(options.output)
        // An output folder inside the input is never scanned: a report in it is not read as the input's.
        if RealPath.isWithin(real, input) && !RealPath.isHidden(real, under: input) && !RealPath.isInside(real, output) {
            throw FileSystemError(shown, "the report may not go inside the input folder \(PathText.display(options.input)), where it could "
                + "replace or add a photo; choose a file outside it (or in a hidden folder of it)")
        }
        if let theme = options.templates ?? (try? Theme.locate(explicit: nil))?.folder, RealPath.isWithin(real, RealPath.resolved(theme)) {
            throw FileSystemError(shown, "the report may not go inside the theme folder \(PathText.display(theme)); choose a file outside it")
        }
        if let settings = options.configFile, real == RealPath.resolved(settings) {
            throw FileSystemError(shown, "is the settings file; the report may not replace it")
        }
        if RealPath.isWithin(real, RealPath.resolved(options.cacheFolder)) {
            throw FileSystemError(shown, "the report may not go inside the cache folder \(PathText.display(options.cacheFolder)); "
                + "choose a file outside it")
        }
        if RealPath.isWithin(real, FolderRules.state(of: output)) {
            throw FileSystemError(shown, "the report may not go inside \(PathText.display(FolderPath.join(options.output, SiteWriter.stateFolder))), "
                + "the output's records; choose a file outside it")
        }
    }
}
