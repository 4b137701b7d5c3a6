import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `waterfall resize PATH... -o DIR --width W`: one derived image per photo, as the build makes them
/// (DCT-scaled decode, Lanczos-3, upright, ICC kept, metadata stripped). For scripts and benchmarks.
struct ResizeCommand {
    static let name = "resize"

    static let help = """
        Usage: waterfall resize PATH... -o DIR [--width W] [--height H] [--quality Q] [--jobs N]

        Makes one image per photo (a folder means every photo file in it, recursively) into DIR, fitting the
        box W×H (either may be left out; never upscaled), turned upright by its EXIF orientation, with
        its colour profile kept and every other piece of metadata (GPS above all) stripped. JPEG when
        the result is opaque, PNG when it has transparency; DIR/NAME keeps the photo's name (.jpg or
        .png is added when the format differs).

        Options:
          -o, --output DIR   where the images go (required)
          --width W          the box's width
          --height H         the box's height
          --quality Q        JPEG quality, 1-100 (default 82)
          --max-pixels N     skip photos of more than N pixels (default 250000000)
          -j, --jobs N       images made at a time (default: the number of cores)
          -h, --help         show this help

        Exit status: 0 when every photo was resized, 1 when any was not, 64 for a usage error.

        """

    var paths: [String] = []
    var output = ""
    var request = ThumbnailRequest()
    var jobs = Parallelism.available

    static func parse(_ arguments: [String]) throws -> ResizeCommand? {
        var command = ResizeCommand()
        var scanner = ArgumentScanner(arguments, command: name)
        while let argument = try scanner.next() {
            switch argument {
            case .positional(let path): command.paths.append(path)
            case .option("-o"), .option("--output"): command.output = try scanner.value()
            case .option("--width"): command.request.maxWidth = try scanner.integer(in: 1...65_500)
            case .option("--height"): command.request.maxHeight = try scanner.integer(in: 1...65_500)
            case .option("--quality"): command.request.quality = try scanner.integer(in: 1...100)
            case .option("--max-pixels"): command.request.maxPixels = try scanner.integer(in: 1...Int.max)
            case .option("--jobs"), .option("-j"): command.jobs = try scanner.integer(in: 1...1024)
            case .option("--help"), .option("-h"): return nil
            case .option(let other): throw scanner.unknown(other)
            }
        }
        if command.paths.isEmpty { throw UsageError("resize needs at least one photo or folder", command: name) }
        if command.output.isEmpty { throw UsageError("resize needs -o DIR", command: name) }
        if command.request.maxWidth == nil && command.request.maxHeight == nil {
            throw UsageError("resize needs --width or --height", command: name)
        }
        return command
    }

    func run(console: Console) throws -> ExitCode {
        let files = paths.flatMap { path -> [String] in
            guard FolderWalker.isDirectory(path) else { return [path] }
            return FolderWalker().files(under: path).map(\.path).filter { Photo.looksLikePhoto(String($0.split(separator: "/").last ?? "")) }
        }
        do {
            try SiteWriter.makeFolder(output)
        } catch {
            throw UsageError("\(error)", command: Self.name)
        }
        let request = self.request, output = self.output
        let thumbnailer = Thumbnailer()
        let staged = Atomic<Int>(0)
        let failures = files.parallelMap(jobs: jobs) { source -> String? in
            let name = String(source.split(separator: "/").last ?? Substring(source))
            let temporary = SiteWriter.join(output, ".waterfall-resize-\(staged.add(1, ordering: .relaxed).newValue)")
            switch Result(catching: { () throws(DeriveError) in try thumbnailer.make(from: source, to: temporary, request: request) }) {
            case .success(let image):
                let destination = SiteWriter.join(output, Derivation.fileName(name, format: image.format))
                return rename(temporary, destination) == 0 ? nil : "cannot write \(destination)"
            case .failure(let error):
                return error.reason
            }
        }
        var failed = 0
        for (source, failure) in zip(files, failures) {
            guard let failure else { continue }
            failed += 1
            console.error("\(source): \(failure)")
        }
        return failed == 0 ? .success : .failure
    }
}
