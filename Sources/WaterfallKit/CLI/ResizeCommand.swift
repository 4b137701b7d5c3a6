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
                                [--key-file FILE]

        Makes one image per photo (a folder means every photo file in it, recursively) into DIR, fitting the
        box W×H (either may be left out; never upscaled; a side left out is at most 65500, what a JPEG
        holds: a photo that would be taller is made narrower), turned upright by its EXIF orientation, with
        its colour profile kept and every other piece of metadata (GPS above all) stripped. JPEG when
        the result is opaque, PNG when it has transparency; DIR/NAME keeps the photo's name (.jpg or
        .png is added when the format differs), and photos found in a folder keep their path under it.
        Only files resize wrote before are ever replaced (DIR/.waterfall keeps the record); a photo in
        the way, two photos that would make one file, or DIR inside a folder being resized stop it
        before anything is written.

        Options:
          -o, --output DIR   where the images go (required)
          --width W          the box's width
          --height H         the box's height
          --quality Q        JPEG quality, 1-100 (default 82)
          --max-pixels N     skip photos of more than N pixels (default 250000000)
          -j, --jobs N       images made at a time (default: the number of cores)
          --key-file FILE    keyed mode: DIR's records carry a MAC under the key in FILE (64 hex
                             digits, outside DIR), and records without a valid one prove nothing;
                             the WATERFALL_KEY environment variable gives it too
          -h, --help         show this help

        Exit status: 0 when every photo was resized, 1 when any was not, 64 for a usage error.

        """

    var paths: [PathArgument] = []
    var output = PathArgument("")
    var request = ThumbnailRequest()
    var jobs = Parallelism.available
    /// Keyed mode's key file (`--key-file`); without it, `WATERFALL_KEY` may give the key.
    var keyFile: String?

    static func parse(_ arguments: [[UInt8]]) throws -> ResizeCommand? {
        var command = ResizeCommand()
        var keyFile: String?
        var scanner = ArgumentScanner(arguments, command: name)
        while let argument = try scanner.next() {
            switch argument {
            case .positional(let path): command.paths.append(path)
            case .option("--key-file"): keyFile = try scanner.value()
            case .option("-o"), .option("--output"): command.output = try scanner.path()
            case .option("--width"): command.request.maxWidth = try scanner.integer(in: 1...DeliveryFormat.fallbackSide)
            case .option("--height"): command.request.maxHeight = try scanner.integer(in: 1...DeliveryFormat.fallbackSide)
            case .option("--quality"): command.request.quality = try scanner.integer(in: 1...100)
            case .option("--max-pixels"): command.request.maxPixels = try scanner.integer(in: 1...Int.max)
            case .option("--jobs"), .option("-j"): command.jobs = try scanner.integer(in: 1...1024)
            case .option("--help"), .option("-h"): return nil
            case .option(let other): throw scanner.unknown(other)
            }
        }
        if command.paths.isEmpty { throw UsageError("resize needs at least one photo or folder", command: name) }
        if command.output.bytes.isEmpty { throw UsageError("resize needs -o DIR", command: name) }
        if command.request.maxWidth == nil && command.request.maxHeight == nil {
            throw UsageError("resize needs --width or --height", command: name)
        }
        // The side left free is held to what a JPEG (or a PNG) holds, so that a 100×100000 capture resized to
        // a width of 100 is 66×65500, not refused by the encoder.
        command.request.maxWidth = command.request.maxWidth ?? DeliveryFormat.fallbackSide
        command.request.maxHeight = command.request.maxHeight ?? DeliveryFormat.fallbackSide
        command.keyFile = keyFile
        return command
    }

    func run(console: Console, paths arguments: ArgumentPaths, decoder: DecoderProgram) throws -> ExitCode {
        let output: String
        do {
            output = try arguments.usable(self.output, creating: true)
        } catch {
            throw UsageError("\(error)", command: Self.name)
        }
        let key = try KeySource(file: keyFile).key(outside: [("output", output)], command: Self.name)
        let (sources, unusable) = try collectSources(arguments, output: output)
        for (path, reason) in unusable { console.error("\(PathText.display(path)): skipped: \(reason)") }
        if let inTheWay = firstForeignFile(for: sources, output: output) {
            console.error("\(PathText.display(inTheWay)): exists and was not written by Waterfall; move it away or choose "
                + "another output folder; nothing was written")
            return .failure
        }
        var writer: SiteWriter
        do {
            writer = try SiteWriter(output: output, key: key)
        } catch {
            throw UsageError("\(error)", command: Self.name)
        }
        for warning in writer.warnings { console.error("warning: \(warning)") }
        let scratch = sources.map { _ in writer.scratch() }
        let reader = MediaReader(images: HeaderReader(maxPixels: request.maxPixels), videos: nil,
                                 decoders: DecoderPool(program: decoder, maxPixels: request.maxPixels))
        if let failure = reader.decoders.start() { throw BuildError(failure.detail) }
        let request = self.request, staging = writer
        let made = zip(sources, scratch).map { ($0, $1) }.parallelMap(jobs: jobs) { source, scratch in
            Self.resize(source, into: scratch.name, of: staging, request: request, reader: reader)
        }
        var failed = unusable.count
        var outputs: [(scratch: String, path: String, source: Source)] = []
        for ((source, scratch), result) in zip(zip(sources, scratch), made) {
            switch result {
            case .success(let image):
                outputs.append((scratch.name, Derivation.fileName(source.name, format: image.format), source))
            case .failure(let error):
                failed += 1
                console.error("\(PathText.display(source.path)): \(error.reason)")
            }
        }
        do {
            try place(outputs, sources: sources, into: &writer, output: output)
        } catch {
            outputs.forEach { writer.discard(scratch: $0.scratch) }
            console.error("\(error); nothing was written")
            return .failure
        }
        return failed == 0 ? .success : .failure
    }

    /// One photo's image, made in a decoder process from the photo opened once, into the scratch file `name`.
    private static func resize(_ source: Source, into name: String, of staging: SiteWriter, request: ThumbnailRequest,
                               reader: MediaReader) -> Result<DerivedImage, DeriveError> {
        let file: OpenFile
        do {
            file = try source.open()
        } catch {
            return .failure(DeriveError(.io, error.reason))
        }
        let sniffed: SniffedFormat
        switch reader.sniff(file) {
        case .failure(let error): return .failure(DeriveError(error))
        case .success(let format) where format.isVideo: return .failure(DeriveError(.unsupported, "a video; resize makes images of photos"))
        case .success(let format): sniffed = format
        }
        var split = WorkSplit()
        let made = Thumbnailer().make(from: file, requests: [request], pixels: request.maxPixels, decoders: reader.decoders,
                                      format: sniffed.name, split: &split)[0]
        return made.flatMap { encoded in
            do throws(FileSystemError) {
                try staging.fill(scratch: name, with: encoded.bytes)
                return .success(encoded.image)
            } catch {
                return .failure(DeriveError(.write, error.description))
            }
        }
    }

    /// In a folder Waterfall has never written to, a file where an output would go: found before anything
    /// (not even Waterfall's records) is put into someone else's folder.
    private func firstForeignFile(for sources: [Source], output: String) -> String? {
        guard FolderWalker.isDirectory(output),
              (try? FolderHandle.open(output, create: false).kind(SiteWriter.stateFolder)) == nil else { return nil }
        for source in sources {
            for name in [source.name, Derivation.fileName(source.name, format: .jpeg), Derivation.fileName(source.name, format: .png),
                         Derivation.fileName(source.name, format: .webp)] {
                var info = stat()
                let path = FolderPath.join(output, name)
                if lstat(path, &info) == 0 { return path }
            }
        }
        return nil
    }

    /// One photo to resize: its path, and its name in the output folder (its path under the folder it was
    /// found in, so photos of the same name in two sub-folders stay two files).
    struct Source: Sendable {
        var path: String
        var name: String
        var identity: FileIdentity?
        /// The folder it was found in (a path named on the command line: none), which it is opened through.
        var folder: InputFolder? = nil

        /// Opened once: a path the user named as given (a link at its end is followed: they chose it), a
        /// photo found in a folder never through a link the folder's rules would not follow.
        func open() throws(FileSystemError) -> OpenFile {
            if let folder { return try folder.open(path) }
            return try OpenFile.open(path)
        }
    }

    /// The photos the paths name (folders: every photo file in them), and what was left out of them (a path
    /// that cannot be reached at all: one that is not UTF-8 and does not exist).
    private func collectSources(_ arguments: ArgumentPaths, output: String) throws -> ([Source], [(String, String)]) {
        var sources: [Source] = [], unusable: [(String, String)] = []
        let outputReal = RealPath.resolved(output)
        for argument in paths {
            let path: String
            do {
                path = try arguments.usable(argument)
            } catch {
                unusable.append((argument.shown, error.reason))
                continue
            }
            // A photo named by bytes that are not UTF-8 cannot name its image (as in a folder, where it is skipped).
            if !FolderWalker.isDirectory(path), PathText.text(argument.lastComponent) == nil {
                unusable.append((argument.shown, "the name is not valid UTF-8 (rename it to resize it)"))
                continue
            }
            guard FolderWalker.isDirectory(path) else {
                sources.append(Source(path: path, name: FolderPath.lastComponent(of: path), identity: FileIdentity(path: path)))
                continue
            }
            let real = RealPath.resolved(path)
            if RealPath.isWithin(outputReal, real) {
                throw UsageError("the output folder \(PathText.display(output)) is \(real == outputReal ? "" : "inside ")the input "
                    + "folder \(PathText.display(path)); choose one outside it", command: Self.name)
            }
            let prefix = FolderPath.join(path, "").count
            let folder = try InputFolder(path: path, label: "the folder", followsAllLinks: false)
            let walker = FolderWalker(links: folder.links)
            for entry in walker.files(under: path) {
                guard Photo.looksLikePhoto(FolderPath.lastComponent(of: entry.path)) else { continue }
                switch entry {
                case .file(let file):
                    sources.append(Source(path: file, name: String(file.dropFirst(prefix)), identity: FileIdentity(path: file), folder: folder))
                case .skipped(let shown, let reason, _), .note(let shown, let reason): unusable.append((shown, reason))
                }
            }
        }
        return (sources, unusable)
    }

    /// Plans the outputs (two photos that would make one file, or an output that is one of the photos,
    /// stop it before anything is written), then puts them in place.
    private func place(_ outputs: [(scratch: String, path: String, source: Source)], sources: [Source],
                       into writer: inout SiteWriter, output outputFolder: String) throws {
        var claimed: [String: Source] = [:]
        for output in outputs {
            if let other = claimed.updateValue(output.source, forKey: NameAllocator.fold(output.path)) {
                throw FileSystemError(output.source.path, "and \(PathText.display(other.path)) would both be resized to "
                    + "\(PathText.display(FolderPath.join(outputFolder, output.path)))")
            }
        }
        try writer.plan(outputs.map(\.path))
        let inputs = Set(sources.compactMap(\.identity))
        for output in outputs {
            if let identity = FileIdentity(path: FolderPath.join(outputFolder, output.path)), inputs.contains(identity) {
                throw FileSystemError(FolderPath.join(outputFolder, output.path), "is one of the photos being resized; not replaced")
            }
        }
        for output in outputs { try writer.adopt(scratch: output.scratch, as: output.path) }
        _ = try writer.commit(removingStale: false)
    }
}
