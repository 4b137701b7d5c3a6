// FoundationEssentials: half the start-up time of all of Foundation, which matters for a CLI run per file.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `waterfall inspect PATH...`: what the header reader sees in each file.
struct InspectCommand {
    static let name = "inspect"

    static let help = """
        Usage: waterfall inspect PATH... [--json] [--metadata] [--max-pixels N] [--jobs N]

        Reads the header of every image and video given (a folder means every file in it,
        recursively, skipping dot-files) and prints its format, stored size, EXIF orientation (a
        video's display rotation) and display size; for a video also its codec and duration
        (through FFmpeg's ffprobe). Only headers are read: no pixel data is decoded.

        Options:
          --json            one JSON array, one object per file, in the order given
          --metadata        also each file's title, description, keywords, rating, creator, rights
                            and date, each with its source (sidecars beside it, XMP, IPTC, EXIF:
                            docs/metadata.md), and a Live Photo's content identifier
          --max-pixels N    refuse images of more than N pixels (default 250000000)
          --jobs N          read N files at a time (default: the number of cores)
          -h, --help        show this help

        Exit status: 0 when every file was read, 1 when any was not (all are still reported),
        64 for a usage error.

        """

    var paths: [PathArgument] = []
    var json = false
    var metadata = false
    var maxPixels = HeaderReader.defaultMaxPixels
    var jobs = Parallelism.available

    /// Parses the arguments after `inspect`; nil means help was asked for.
    static func parse(_ arguments: [[UInt8]]) throws -> InspectCommand? {
        var command = InspectCommand()
        var scanner = ArgumentScanner(arguments, command: name)
        while let argument = try scanner.next() {
            switch argument {
            case .positional(let path): command.paths.append(path)
            case .option("--json"): command.json = true
            case .option("--metadata"): command.metadata = true
            case .option("--max-pixels"): command.maxPixels = try scanner.integer(in: 1...Int.max)
            case .option("--jobs"), .option("-j"): command.jobs = try scanner.integer(in: 1...1024)
            case .option("--help"), .option("-h"): return nil
            case .option(let other): throw scanner.unknown(other)
            }
        }
        if command.paths.isEmpty { throw UsageError("inspect needs at least one file or folder", command: name) }
        return command
    }

    func run(console: Console, paths arguments: ArgumentPaths, decoder: DecoderProgram) -> ExitCode {
        let reader = MediaReader(images: HeaderReader(maxPixels: maxPixels), videos: VideoTools.find(),
                                 decoders: DecoderPool(program: decoder, maxPixels: maxPixels))
        // A path that cannot be reached at all (one that is not UTF-8 and does not exist) is reported as any
        // unreadable file, in its place.
        let usable = paths.map { path in Result { () throws(FileSystemError) in try arguments.usable(path) } }
        let reachable = usable.compactMap { try? $0.get() }
        var read = HeaderResult.read(reachable, with: reader, facts: metadata, jobs: jobs).makeIterator()
        let direct = zip(paths, usable).map { path, found -> HeaderResult in
            guard case .failure(let error) = found else { return read.next()! }
            return HeaderResult(path: path.shown, header: .failure(ImageReadError(.io, error.reason)))
        }
        let expanded = Self.expand(direct, with: reader, jobs: jobs, facts: metadata)
        let results = expanded.map { HeaderResult(path: arguments.shown($0.path), header: $0.header) }
        for result in results {
            if case .failure(let error) = result.header { console.error("\(result.path): \(error.reason)") }
        }
        guard metadata else {
            console.out(json ? HeaderResult.json(results) : HeaderResult.table(results))
            return results.allSatisfy(\.succeeded) ? .success : .failure
        }
        let readings = expanded.parallelMap(jobs: jobs) { result in
            result.facts.flatMap { facts in
                InspectMetadata(path: result.path, facts: facts, isVideo: (try? result.header.get())?.isVideo ?? false, reader: reader)
            }
        }
        for (result, reading) in zip(results, readings) {
            reading?.warnings.forEach { console.error("warning: \(result.path): \($0)") }
        }
        console.out(json ? Self.json(results, readings) : HeaderResult.table(results) + Self.text(results, readings))
        return results.allSatisfy(\.succeeded) ? .success : .failure
    }

    /// Each file's object with its `metadata`.
    static func json(_ results: [HeaderResult], _ readings: [InspectMetadata?]) -> String {
        JSONValue.array(zip(results, readings).map { result, reading in
            guard let reading, case .object(let pairs) = result.jsonValue else { return result.jsonValue }
            return .object(pairs + [("metadata", reading.json)])
        }).renderedOnePerLine()
    }

    /// A block a file after the table: its name, then a line a field.
    static func text(_ results: [HeaderResult], _ readings: [InspectMetadata?]) -> String {
        zip(results, readings).compactMap { result, reading in
            guard let reading else { return nil }
            let lines = reading.lines.isEmpty ? ["no metadata"] : reading.lines
            return "\n\(result.path):\n" + lines.map { "  " + $0 + "\n" }.joined()
        }.joined()
    }

    /// Reads every path in parallel, in the order given.
    static func read(_ paths: [String], with reader: MediaReader, jobs: Int) -> [HeaderResult] {
        expand(paths.parallelMap(jobs: jobs) { HeaderResult(path: $0, header: reader.read(path: $0)) }, with: reader, jobs: jobs)
    }

    /// A path that turned out to be a folder replaced by the files under it: checking for folders first
    /// would cost every file an extra stat.
    static func expand(_ direct: [HeaderResult], with reader: MediaReader, jobs: Int, facts: Bool = false) -> [HeaderResult] {
        guard direct.contains(where: \.isDirectory) else { return direct }
        return direct.flatMap { result -> [HeaderResult] in
            guard result.isDirectory else { return [result] }
            let entries = FolderWalker().files(under: result.path)
            let files = entries.compactMap { entry -> String? in if case .file(let path) = entry { path } else { nil } }
            var read = HeaderResult.read(files, with: reader, facts: facts, jobs: jobs).makeIterator()
            return entries.map { entry in
                if case .file = entry { return read.next()! }
                return HeaderResult(reading: entry, with: reader)
            }
        }
    }
}
