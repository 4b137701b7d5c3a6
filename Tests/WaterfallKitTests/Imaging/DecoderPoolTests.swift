import CImageIO
import Foundation
import Testing
@testable import WaterfallKit

/// Decoder processes (DecoderPool, cimageio_decoder.h): they answer as the library does in-process, and a
/// crash, an exit or a hang of one costs one job, never the caller; the next job gets a new process.
struct DecoderPoolTests {
    static func pool(readMilliseconds: UInt32 = 30_000) -> DecoderPool {
        var limits = DecoderLimits(maxPixels: HeaderReader.defaultMaxPixels)
        limits.readMilliseconds = readMilliseconds
        return DecoderPool(program: .standard, limits: limits)
    }

    @Test(arguments: ["J01-baseline-jfif.jpg", "J23-exif-thumbnail-before-sof-no-jfif.jpg", "P06-ihdr-2147483647-square.png",
                      "J46-text-named.jpg", "J43-truncated-inside-sof.jpg"])
    func headersAreTheLibrarysOwn(file: String) throws {
        let path = Fixtures.header(file)
        let opened = try OpenFile.open(path)
        let reader = HeaderReader()
        let (raw, metadata) = try Self.pool().read(opened, metadata: true).get()
        #expect(reader.interpret(raw) == reader.read(path: path))
        #expect(ExifReader().facts(from: try #require(metadata)) == ExifReader().read(path: path))
    }

    @Test func imagesAreTheLibrarysOwnByteForByte() throws {
        let folder = try TemporaryFolder()
        let source = Fixtures.inRepository("SampleGallery/chelsea-the-cat.jpg")
        let requests: [ThumbnailRequest] = [.width(300), .longEdge(120), ThumbnailRequest(maxWidth: 64, forcePNG: true)]
        var split = WorkSplit()
        let made = Thumbnailer().make(from: try OpenFile.open(source), requests: requests, pixels: 1, decoders: Self.pool(),
                                      format: "JPEG", split: &split)
        // The same set in this process, through the path wrapper (one decode for the set, as in the decoder).
        let outputs = requests.indices.map { (path: folder.path + "/\($0)", request: requests[$0]) }
        let direct = Thumbnailer().make(from: source, outputs: outputs)
        for ((output, result), expected) in zip(zip(outputs, made), direct) {
            let encoded = try result.get()
            #expect(encoded.image == (try expected.get()))
            #expect(encoded.bytes == (try Fixtures.bytes(output.path)))
        }
    }

    @Test func aCrashCostsOneJobAndTheNextGetsANewProcess() throws {
        let pool = Self.pool()
        let file = try OpenFile.open(Fixtures.header("J01-baseline-jfif.jpg"))
        #expect(pool.start() == nil)
        let first = try #require(pool.idleProcesses.first)
        #expect(kill(first, SIGSEGV) == 0)
        let failure = try #require(pool.read(file, metadata: false).failureValue)
        #expect(failure.kind == .crashed(signal: SIGSEGV))
        #expect(failure.reason(format: "JPEG") == "the JPEG decoder crashed (signal 11: segmentation fault)")
        #expect(kill(first, 0) != 0 && errno == ESRCH, "the crashed process is reaped")
        #expect(try pool.read(file, metadata: false).get().0.width == 64)
        #expect(pool.idleProcesses.count == 1 && pool.idleProcesses.first != first)
    }

    @Test func aHangIsStoppedAtItsTime() throws {
        let pool = Self.pool(readMilliseconds: 300)
        let file = try OpenFile.open(Fixtures.header("J01-baseline-jfif.jpg"))
        #expect(pool.start() == nil)
        let stuck = try #require(pool.idleProcesses.first)
        #expect(kill(stuck, SIGSTOP) == 0)
        let failure = try #require(pool.read(file, metadata: false).failureValue)
        #expect(failure.kind == .timedOut)
        #expect(failure.reason(format: "HEIC") == "the HEIC decoder took too long and was stopped")
        #expect(kill(stuck, 0) != 0 && errno == ESRCH, "the stopped process is killed and reaped")
        #expect(try pool.read(file, metadata: false).get().0.height == 48)
    }

    @Test func aDecoderThatCannotStartSaysWhy() {
        let pool = DecoderPool(program: DecoderProgram(path: "/nonexistent/waterfall"), limits: DecoderLimits(maxPixels: 1000))
        let failure = pool.start()
        #expect(failure?.kind == .notStarted)
        #expect(failure?.detail == "cannot start the decoder process /nonexistent/waterfall: No such file or directory")
    }

    @Test func theAddressSpaceIsCapped() throws {
        // A decoder under a cap too small for a 225-megapixel interlaced PNG (libpng holds it whole): the
        // allocation fails in the decoder, the job says so, and the next job is served.
        var limits = DecoderLimits(maxPixels: HeaderReader.defaultMaxPixels)
        limits.memoryBytes = 200 << 20
        let pool = DecoderPool(program: .standard, limits: limits)
        let folder = try TemporaryFolder()
        let big = try folder.write("big.png", try Self.interlacedPNG(width: 15_000, height: 15_000))
        let results = Thumbnailer().make(from: try OpenFile.open(big), requests: [.width(100)], pixels: 225_000_000, decoders: pool,
                                         format: "PNG", split: &Self.ignoredSplit)
        let failure = try #require(results[0].failureValue)
        #expect(failure.kind == .limit && failure.reason.contains("out of memory"), "\(failure)")
        let small = Thumbnailer().make(from: try OpenFile.open(Fixtures.header("J01-baseline-jfif.jpg")), requests: [.width(100)],
                                       pixels: 1, decoders: pool, format: "JPEG", split: &Self.ignoredSplit)
        #expect(try small[0].get().image.width == 64)
    }

    nonisolated(unsafe) static var ignoredSplit = WorkSplit()

    /// A gray, Adam7-interlaced PNG of the given size, one shade throughout (tiny on disk, a large canvas to
    /// decode), from zlib itself.
    static func interlacedPNG(width: Int, height: Int) throws -> [UInt8] {
        let script = """
            import struct, sys, zlib
            w, h = \(width), \(height)
            passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            data = bytearray()
            for x0, y0, dx, dy in passes:
                pw, ph = (w - x0 + dx - 1) // dx, (h - y0 + dy - 1) // dy
                if pw > 0 and ph > 0:
                    data += (b"\\0" + b"\\x7f" * pw) * ph
            raw = zlib.compress(bytes(data), 9)
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            sys.stdout.buffer.write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 1))
                                    + chunk(b"IDAT", raw) + chunk(b"IEND", b""))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }
}
