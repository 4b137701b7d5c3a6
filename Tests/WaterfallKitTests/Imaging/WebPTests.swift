import CImageIO
import Foundation
import Testing
@testable import WaterfallKit

/// One WebP fixture of Fixtures/formats/webp and what its expected.json says of it (made, and checked with
/// Pillow, webpinfo and dwebp, by Tests/Tools/make_webp_fixtures.py).
struct WebPFixture: Sendable, CustomTestStringConvertible {
    struct Exif: Decodable, Sendable {
        var description: String
        var make: String
        var gps: Bool
    }

    struct Entry: Decodable, Sendable {
        var format: String?
        var width: Int?
        var height: Int?
        var alpha: Bool?
        var animated: Bool?
        var frames: Int?
        var durations: [Int]?
        var loop: Int?
        var icc: Int?
        var exif: Exif?
        /// Set when the header reads but deriving fails ("corrupt": damaged image data), or the animated view
        /// alone is refused ("tooLarge": over the animation budget).
        var derive: String?
        var view: String?
        /// "png" when the first frame (as Pillow decodes it) has a transparent pixel, else "jpeg".
        var tile: String?
        var error: String?
        var message: String?
    }

    var file: String
    var entry: Entry
    var path: String { Self.folder.appendingPathComponent(file).path }
    var testDescription: String { file }

    static let folder = Fixtures.root.appendingPathComponent("formats/webp")

    static let all: [WebPFixture] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("expected.json")),
              let table = try? JSONDecoder().decode([String: Entry].self, from: data) else { return [] }
        return table.keys.sorted().map { WebPFixture(file: $0, entry: table[$0]!) }
    }()

    static func named(_ prefix: String) -> WebPFixture { all.first { $0.file.hasPrefix(prefix) }! }
    static var readable: [WebPFixture] { all.filter { $0.entry.error == nil } }
    /// Readable, and a still (tile-sized) image can be derived from them.
    static var derivable: [WebPFixture] { readable.filter { $0.entry.derive == nil } }
    static var animated: [WebPFixture] { readable.filter { $0.entry.animated == true && $0.entry.view == nil } }
}

/// The chunks of a RIFF WebP, read here (not by CImageIO) to check what Waterfall wrote.
func webpChunks(_ bytes: [UInt8]) -> [(tag: String, payload: ArraySlice<UInt8>)] {
    func le32(_ i: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[i + $1]) << (8 * $1) } }
    guard bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) else { return [] }
    var out: [(String, ArraySlice<UInt8>)] = []
    var at = 12
    let end = min(bytes.count, 8 + le32(4))
    while at + 8 <= end {
        let size = le32(at + 4)
        guard at + 8 + size <= end else { break }
        out.append((String(decoding: bytes[at..<(at + 4)], as: UTF8.self), bytes[(at + 8)..<(at + 8 + size)]))
        at += 8 + size + (size & 1)
    }
    return out
}

/// Frame durations (ms) and loop count of an animated WebP, from its ANMF and ANIM chunks.
func webpAnimation(_ bytes: [UInt8]) -> (durations: [Int], loop: Int?) {
    let chunks = webpChunks(bytes)
    let durations = chunks.filter { $0.tag == "ANMF" }.map { chunk -> Int in
        let p = chunk.payload, s = p.startIndex
        return Int(p[s + 12]) | Int(p[s + 13]) << 8 | Int(p[s + 14]) << 16
    }
    let loop = chunks.first { $0.tag == "ANIM" }.map { Int($0.payload[$0.payload.startIndex + 4]) | Int($0.payload[$0.payload.startIndex + 5]) << 8 }
    return (durations, loop)
}

/// `webpmux -info`'s frame count (Debian's webp package), nil when the tool is not installed.
func webpmuxFrames(_ path: String) throws -> Int? {
    let tool = "/usr/bin/webpmux"
    guard FileManager.default.isExecutableFile(atPath: tool) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["-info", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("Number of frames:") }) else { return 1 }
    return Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
}

struct WebPHeaderTests {
    @Test func everyFixtureIsListed() throws {
        let files = try Fixtures.files(in: "formats/webp").filter { $0 != "expected.json" }
        #expect(files == WebPFixture.all.map(\.file))
        #expect(WebPFixture.all.count >= 30)
    }

    /// Canvas size, alpha and frames from the chunk headers; the EXIF orientation never applied (browsers show a
    /// WebP as stored); errors one line, naming the format.
    @Test(arguments: WebPFixture.all)
    func header(_ fixture: WebPFixture) throws {
        let result = HeaderReader().read(path: fixture.path)
        if let kind = fixture.entry.error, let message = fixture.entry.message {
            let failure = try #require(result.failureValue, "\(fixture.file) read, but should fail: \(message)")
            #expect("\(failure.kind)" == kind, "\(failure.reason)")
            #expect(failure.reason.hasPrefix(message), "\(failure.reason)")
            #expect(!failure.reason.contains("\n"))
            return
        }
        let header = try result.get()
        #expect(header.format == .webp)
        #expect(header.width == fixture.entry.width && header.height == fixture.entry.height, "\(header.width)×\(header.height)")
        #expect(header.orientation == .up)
        #expect(header.frames == fixture.entry.frames && header.isAnimated == fixture.entry.animated)
        #expect((header.components == 4) == fixture.entry.alpha)
        // Chunk headers only, in the stream's 4 KiB blocks: a still's first block, an animation's frames seeked
        // over (frames under a block apart are read with the block).
        let blocks = header.frames > 1 ? header.frames + 1 : 1
        #expect(header.bytesRead <= 4096 * blocks, "\(header.bytesRead) bytes read")
    }

    /// A still large enough to tell: one block read of a 45 KB lossless file, one of a 300 KB animation.
    @Test func headerReadsOneBlockOfALargeFile() throws {
        let still = try HeaderReader().read(path: WebPFixture.named("W02").path).get()
        #expect(still.bytesRead == 4096, "\(still.bytesRead) bytes")
        var animation: [UInt8] = Array("RIFF....WEBP".utf8)
        func chunk(_ tag: String, _ payload: [UInt8]) -> [UInt8] {
            let n = payload.count
            return Array(tag.utf8) + [UInt8(n & 255), UInt8(n >> 8 & 255), UInt8(n >> 16 & 255), 0] + payload + (n % 2 == 1 ? [0] : [])
        }
        animation += chunk("VP8X", [0x02, 0, 0, 0, 99, 0, 0, 99, 0, 0]) + chunk("ANIM", [0, 0, 0, 0, 0, 0])
        let frame = try webpChunks(Fixtures.bytes(WebPFixture.named("W02").path)).first { $0.tag == "VP8L" }!
        for _ in 0..<6 { animation += chunk("ANMF", [0, 0, 0, 0, 0, 0, 99, 0, 0, 99, 0, 0, 100, 0, 0, 0] + chunk("VP8L", Array(frame.payload))) }
        let size = animation.count - 8
        animation.replaceSubrange(4..<8, with: [UInt8(size & 255), UInt8(size >> 8 & 255), UInt8(size >> 16 & 255), 0])
        let folder = try TemporaryFolder()
        try Data(animation).write(to: URL(fileURLWithPath: folder.path + "/six.webp"))
        let header = try HeaderReader().read(path: folder.path + "/six.webp").get()
        #expect(header.frames == 6 && header.width == 100)
        #expect(header.bytesRead <= 7 * 4096, "\(header.bytesRead) of \(animation.count) bytes read")
    }

    /// The real binary over the whole folder: one row per file (expected.json's own row left aside), animated
    /// files with their frames.
    @Test func inspectReportsEveryFixture() throws {
        let run = try WaterfallProcess.run(["inspect", "--json", WebPFixture.folder.path])
        #expect(run.status == 1)  // the hostile fixtures
        let all = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let rows = all.filter { !(($0["path"] as? String) ?? "").hasSuffix("expected.json") }
        #expect(rows.count == WebPFixture.all.count)
        for fixture in WebPFixture.all {
            let row = try #require(rows.first { ($0["path"] as? String) == fixture.path }, "\(fixture.file)")
            if let message = fixture.entry.message {
                #expect((row["error"] as? String)?.hasPrefix(message) == true, "\(fixture.file): \(row)")
                continue
            }
            #expect(row["format"] as? String == "webp")
            #expect(row["width"] as? Int == fixture.entry.width && row["height"] as? Int == fixture.entry.height)
            if fixture.entry.animated == true {
                #expect(row["animated"] as? Bool == true && row["frames"] as? Int == fixture.entry.frames, "\(fixture.file): \(row)")
            } else {
                #expect(row["animated"] == nil, "\(fixture.file): \(row)")
            }
        }
        // Only Waterfall speaks: one line per unreadable file, never a library's own output.
        let errors = run.stderr.split(separator: "\n")
        #expect(errors.count == WebPFixture.all.filter { $0.entry.error != nil }.count + 1)  // + expected.json
        #expect(errors.allSatisfy { $0.hasPrefix("waterfall: ") }, "\(run.stderr)")
    }

    /// Every prefix of a still with EXIF, a lossless still and an animation: refused as truncated (the RIFF
    /// says how long the file is), or as no format at all under 12 bytes.
    @Test(arguments: ["W06", "W04", "W08"])
    func truncatedAtEveryPrefixFailsCleanly(_ name: String) throws {
        let bytes = try Fixtures.bytes(WebPFixture.named(name).path)
        for length in 0..<bytes.count {
            let failure = try #require(HeaderReader().read(bytes: Array(bytes[..<length])).failureValue, "\(name), \(length) bytes")
            let expected = length == 0 ? "empty file" : length < 12 ? "not an image format" : "truncated WebP: the file ends after \(length) bytes"
            if !failure.reason.hasPrefix(expected) || failure.reason.contains("\n") {
                Issue.record("\(name), \(length) bytes: \(failure.reason)")
                return
            }
        }
    }
}

struct WebPImageTests {
    /// Tiles and views of stills (and of animations' first frames): the size fitted, stored orientation, alpha
    /// kept as PNG, the ICC profile carried over, no metadata.
    @Test(arguments: WebPFixture.derivable)
    func derived(_ fixture: WebPFixture) throws {
        let folder = try TemporaryFolder()
        let output = folder.path + "/out"
        let made = try Thumbnailer().make(from: fixture.path, to: output, request: .width(60))
        let width = try #require(fixture.entry.width), height = try #require(fixture.entry.height)
        #expect(made.width == min(60, width))
        #expect(abs(made.height - Int((Double(height) * Double(made.width) / Double(width)).rounded())) <= 1)
        #expect(made.format.rawValue == fixture.entry.tile, "\(made.format)")
        let bytes = try Fixtures.bytes(output)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("Exif"))
        #expect(made.colorProfileLength == fixture.entry.icc ?? 0)
        #expect(iccProfile(output).count == fixture.entry.icc ?? 0)
        if fixture.entry.tile == "png" {
            let pixels = try TestPixels.decode(output)
            #expect(pixels.channels == 4 && stride(from: 3, to: pixels.bytes.count, by: 4).contains { pixels.bytes[$0] < 128 })
        }
    }

    /// The pixels are the photo's, as stored: the lossless WebP against the JPEG it was made from, and the
    /// orientation-6 file against the same image without EXIF (were the tag applied, the sizes would differ).
    @Test func pixelsAreThePhotosAsStored() throws {
        let folder = try TemporaryFolder()
        func derive(_ path: String, width: Int = 243) throws -> TestPixels {
            let output = folder.path + "/\(UUID().uuidString).png"
            var request = ThumbnailRequest.width(width)
            request.forcePNG = true
            _ = try Thumbnailer().make(from: path, to: output, request: request)
            return try TestPixels.decode(output)
        }
        // 120 wide: 120×80 from the 451×300 photo and from the 243×161 WebPs alike (scaled by libwebp by 1/2
        // while decoding, as JPEG is in its DCT).
        let photo = try derive(Fixtures.inRepository("SampleGallery/chelsea-the-cat.jpg"), width: 120)
        let lossless = try derive(WebPFixture.named("W02").path, width: 120), lossy = try derive(WebPFixture.named("W01").path, width: 120)
        #expect(psnr(photo, lossless) > 30, "\(psnr(photo, lossless)) dB")
        #expect(psnr(photo, lossy) > 28, "\(psnr(photo, lossy)) dB")
        #expect(try derive(WebPFixture.named("W06").path) == derive(WebPFixture.named("W01").path))
        // Alpha: the lossy and lossless cut-outs agree (colour under alpha 0 aside: psnr premultiplies).
        let cutout = try derive(WebPFixture.named("W03").path, width: 150), exact = try derive(WebPFixture.named("W04").path, width: 150)
        #expect(psnr(cutout, exact) > 28, "\(psnr(cutout, exact)) dB")
    }

    @Test func damagedImageDataIsAnError() throws {
        let folder = try TemporaryFolder()
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: WebPFixture.named("W39").path, to: folder.path + "/out", request: .width(60))
        }
        #expect(error.kind == .corrupt && error.reason.hasPrefix("corrupt WebP: "), "\(error.reason)")
        #expect(!error.reason.contains("\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
    }

    @Test(arguments: WebPFixture.all.filter { $0.entry.error != nil && $0.entry.error != "unsupported" })
    func unreadableFilesAreRefusedBeforeDecoding(_ fixture: WebPFixture) throws {
        let folder = try TemporaryFolder()
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: fixture.path, to: folder.path + "/out", request: .width(60))
        }
        #expect("\(error.kind)" == fixture.entry.error, "\(error.reason)")
        #expect(error.reason.hasPrefix(fixture.entry.message!), "\(error.reason)")
    }

    @Test func exifFactsAndCaptionButNeverTheOrientationOrGPS() throws {
        let facts = ExifReader().read(path: WebPFixture.named("W06").path)
        #expect(facts.make == "Canon" && facts.model == "Canon EOS R5")
        #expect(facts.caption == "Chelsea the cat, as a WebP")
        let text = "\(facts)"
        for secret in ["SECRET", "GPS", "WGS", "1999"] { #expect(!text.contains(secret), "\(text)") }
        // Behind JPEG's "Exif\0\0", big-endian.
        let prefixed = ExifReader().read(path: WebPFixture.named("W07").path)
        #expect(prefixed.make == "Canon" && prefixed.caption == "Prefixed by its writer")
        // A simple (VP8) file has no metadata.
        #expect(ExifReader().read(path: WebPFixture.named("W01").path).isEmpty)
    }
}

struct WebPAnimationTests {
    /// The view of an animation is an animated WebP with the source's frames, timing and loop count, fitted to
    /// the box, with no metadata but the colour profile.
    @Test(arguments: WebPFixture.animated)
    func viewStaysAnimated(_ fixture: WebPFixture) throws {
        let folder = try TemporaryFolder()
        let output = folder.path + "/view.webp"
        var request = ThumbnailRequest.longEdge(60)
        request.animate = true
        let made = try Thumbnailer().make(from: fixture.path, to: output, request: request)
        let width = try #require(fixture.entry.width), height = try #require(fixture.entry.height)
        #expect(made.format == .webp)
        #expect(made.width == 60 && made.height == Int((Double(height) * 60 / Double(width)).rounded()))
        let bytes = try Fixtures.bytes(output)
        let animation = webpAnimation(bytes)
        #expect(animation.durations == fixture.entry.durations!)
        #expect(animation.loop == fixture.entry.loop)
        #expect(!webpChunks(bytes).contains { ["EXIF", "XMP "].contains($0.tag) })
        // The colour profile, the only metadata carried over.
        #expect(webpChunks(bytes).first { $0.tag == "ICCP" }?.payload.count == fixture.entry.icc)
        #expect(made.colorProfileLength == fixture.entry.icc ?? 0)
        if let frames = try webpmuxFrames(output) { #expect(frames == fixture.entry.frames) }
        let header = try HeaderReader().read(path: output).get()
        #expect(header.frames == fixture.entry.frames && header.width == made.width && header.height == made.height)
        // The same input gives the same bytes.
        let again = folder.path + "/again.webp"
        _ = try Thumbnailer().make(from: fixture.path, to: again, request: request)
        #expect(try Fixtures.bytes(again) == bytes)
    }

    /// A tile is the first frame, still, at the tile's size.
    @Test(arguments: WebPFixture.animated)
    func tileIsTheFirstFrameStill(_ fixture: WebPFixture) throws {
        let folder = try TemporaryFolder()
        let output = folder.path + "/tile"
        let made = try Thumbnailer().make(from: fixture.path, to: output, request: .width(45))
        #expect(made.format.rawValue == fixture.entry.tile)
        #expect(made.width == 45 && made.height == Int((Double(fixture.entry.height!) * 45 / Double(fixture.entry.width!)).rounded()))
        let header = try HeaderReader().read(path: output).get()
        #expect(!header.isAnimated && header.width == 45)
    }

    /// Over the animation budget (canvas × frames): the tile (first frame) is made, the animated view refused
    /// before any frame is decoded.
    @Test func frameBudgetRefusesTheViewButNotTheTile() throws {
        let fixture = WebPFixture.named("W43")
        let folder = try TemporaryFolder()
        let tile = try Thumbnailer().make(from: fixture.path, to: folder.path + "/tile", request: .width(50))
        #expect(tile.width == 50 && tile.height == 50)
        var request = ThumbnailRequest.longEdge(50)
        request.animate = true
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: fixture.path, to: folder.path + "/view.webp", request: request)
        }
        #expect(error.kind == .tooLarge && error.reason.contains("over the 2000000000-pixel limit"), "\(error.reason)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/view.webp"))
    }

    /// The real binary builds a gallery of WebP files: the animated one's view page gets an animated WebP,
    /// every tile is a still, and neither the pages nor the images carry the GPS position.
    @Test func galleryBuildOfWebPFiles() throws {
        let folder = try TemporaryFolder()
        let input = folder.path + "/photos", site = folder.path + "/site"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for name in ["W01", "W03", "W06", "W08"] {
            let fixture = WebPFixture.named(name)
            try FileManager.default.copyItem(atPath: fixture.path, toPath: input + "/" + fixture.file)
        }
        let run = try WaterfallProcess.run(["build", input, "-o", site])
        #expect(run.status == 0, "\(run.stderr)")
        let files = try Fixtures.siteFiles(in: site)
        var animatedViews = 0
        for file in files {
            let bytes = try Fixtures.bytes(site + "/" + file)
            let text = String(decoding: bytes, as: UTF8.self)
            for secret in ["SECRET", "WGS-84"] { #expect(!text.contains(secret), "\(file)") }
            guard file.hasSuffix(".webp") else { continue }
            // Only W08 is animated: its views have its 4 frames, any other WebP is a still.
            let frames = webpChunks(bytes).filter { $0.tag == "ANMF" }.count
            #expect(frames == 0 || frames == 4, "\(file): \(frames) frames")
            if frames == 4 { animatedViews += 1 }
        }
        #expect(animatedViews >= 1, "\(files)")
        #expect(files.contains { $0.hasSuffix(".html") && (try? String(contentsOfFile: site + "/" + $0, encoding: .utf8))?.contains("Chelsea the cat, as a WebP") == true })
    }
}
