import CImageIO
import Foundation
import Testing
@testable import WaterfallKit

/// One GIF fixture of Fixtures/formats/gif and what its expected.json says of it (made, and checked with
/// Pillow, by Tests/Tools/make_gif_fixtures.py).
struct GIFFixture: Sendable, CustomTestStringConvertible {
    typealias Failure = ExpectedRefusal

    struct Entry: Decodable, Sendable {
        var file: String
        var format: String?
        var width: Int?
        var height: Int?
        var frames: Int?
        var animated: Bool?
        var alpha: Bool?
        var interlaced: Bool?
        /// Every frame's canvas as browsers compose it, RGBA in hex (the hand-written fixtures only).
        var canvases: [String]?
        var durations: [Int]?
        var loopCount: Int?
        var error: Failure?
        var decodeError: Failure?
        /// The animated view's refusal, where the tile is made.
        var viewError: Failure?
    }

    var entry: Entry
    var path: String { Fixtures.root.appendingPathComponent("formats/gif/\(entry.file)").path }
    var testDescription: String { entry.file }

    /// The canvases as bytes.
    var canvases: [[UInt8]]? {
        entry.canvases?.map { hex in
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(UInt8(hex[index..<next], radix: 16)!)
                index = next
            }
            return bytes
        }
    }

    static let all: [GIFFixture] = {
        struct File: Decodable { var fixtures: [Entry] }
        let url = Fixtures.root.appendingPathComponent("formats/gif/expected.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
        return file.fixtures.map { GIFFixture(entry: $0) }
    }()

    static func named(_ file: String) -> GIFFixture { all.first { $0.entry.file == file }! }
    static var readable: [GIFFixture] { all.filter { $0.entry.error == nil } }
    static var decodable: [GIFFixture] { readable.filter { $0.entry.decodeError == nil } }
    static var composed: [GIFFixture] { all.filter { $0.entry.canvases != nil } }
}

/// An animation's frames through CImageIO (the wf_frames the animated-view writer reads), each canvas copied.
struct GIFFrames {
    var width = 0, height = 0, loopCount = 0
    var canvases: [[UInt8]] = []
    var durations: [Int] = []
    var failure: (kind: wf_derive_status, message: String)?

    init(_ path: String) {
        var info = wf_animation_info()
        guard let animation = wf_animation_open(path, &info) else {
            failure = (info.status, Self.message(info))
            return
        }
        defer { wf_animation_close(animation) }
        (width, height, loopCount) = (Int(info.width), Int(info.height), Int(info.loop_count))
        var rgba: UnsafePointer<UInt8>?
        var duration: Int32 = 0
        while true {
            let got = wf_animation_next(animation, &rgba, &duration, &info)
            if got == 1, let rgba {
                canvases.append(Array(UnsafeBufferPointer(start: rgba, count: width * height * 4)))
                durations.append(Int(duration))
                continue
            }
            if got < 0 { failure = (info.status, Self.message(info)) }
            return
        }
    }

    static func message(_ info: wf_animation_info) -> String {
        withUnsafeBytes(of: info.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

struct GIFHeaderTests {
    @Test func everyFixtureIsListed() throws {
        let files = try Fixtures.files(in: "formats/gif").filter { $0 != "expected.json" }
        #expect(files == GIFFixture.all.map(\.entry.file).sorted())
        #expect(GIFFixture.all.count >= 25)
    }

    /// The logical screen's size, the frame count from the block walk, or a one-line error.
    @Test(arguments: GIFFixture.all)
    func header(_ fixture: GIFFixture) throws {
        let result = HeaderReader().read(path: fixture.path)
        if let error = fixture.entry.error {
            try error.check(result, file: fixture.entry.file)
            return
        }
        let header = try result.get()
        #expect(header.format == .gif)
        #expect(header.width == fixture.entry.width && header.height == fixture.entry.height, "\(header.width)×\(header.height)")
        #expect(header.frames == fixture.entry.frames)
        #expect(header.isAnimated == fixture.entry.animated)
        #expect(header.orientation == .up)
        #expect((header.components == 4) == fixture.entry.alpha)
        #expect(header.progressive == (fixture.entry.interlaced ?? false))
    }

    @Test func inspectReportsGIFsAndTheirFrames() throws {
        let run = try WaterfallProcess.run(["inspect", "--json", Fixtures.root.appendingPathComponent("formats/gif").path])
        #expect(run.status == 1)  // the hostile fixtures
        let all = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let rows = all.filter { !(($0["path"] as? String) ?? "").hasSuffix("expected.json") }
        #expect(rows.count == GIFFixture.all.count)
        for fixture in GIFFixture.all {
            let row = try #require(rows.first { ($0["path"] as? String) == fixture.path })
            if let error = fixture.entry.error {
                #expect((row["error"] as? String)?.hasPrefix(error.message) == true, "\(fixture.entry.file): \(row)")
                continue
            }
            #expect(row["format"] as? String == "gif")
            #expect(row["width"] as? Int == fixture.entry.width && row["height"] as? Int == fixture.entry.height)
            if fixture.entry.animated == true {
                #expect(row["animated"] as? Bool == true, "\(fixture.entry.file)")
                #expect(row["frames"] as? Int == fixture.entry.frames, "\(fixture.entry.file)")
            } else {
                #expect(row["animated"] == nil && row["frames"] == nil, "\(fixture.entry.file)")
            }
        }
    }

    /// Every prefix of the small fixtures, and every 61st of the photo animation: a clean one-line error or
    /// (past the first whole frame) a header; never a crash or a hang.
    @Test(arguments: GIFFixture.decodable)
    func truncatedAtEveryPrefixFailsCleanly(_ fixture: GIFFixture) throws {
        let bytes = try Fixtures.bytes(fixture.path)
        let step = bytes.count > 2000 ? 61 : 1
        var failures = 0
        for length in stride(from: 0, to: bytes.count, by: step) {
            switch HeaderReader().read(bytes: Array(bytes[..<length])) {
            case .failure(let error):
                failures += 1
                #expect(!error.reason.isEmpty && !error.reason.contains("\n"))
                if length >= 6 { #expect(error.kind == .truncated || error.kind == .corrupt, "\(length): \(error)") }
            case .success(let header):
                #expect(header.width == fixture.entry.width && header.frames <= fixture.entry.frames!)
            }
        }
        #expect(failures > 0)
    }

    /// The walk skips the LZW data it does not decode, but a frame count cannot be had without it.
    @Test func headerReadsAStillsScreenAndWalksAnAnimationsBlocks() throws {
        let still = try HeaderReader().read(path: GIFFixture.named("still.gif").path).get()
        let animated = try HeaderReader().read(path: GIFFixture.named("photo-animated.gif").path).get()
        let size = try Fixtures.bytes(GIFFixture.named("photo-animated.gif").path).count
        #expect(still.bytesRead <= 20 * 1024)
        #expect(animated.bytesRead <= size, "\(animated.bytesRead) of \(size) bytes")
    }
}

struct GIFFrameTests {
    /// Disposal (none, keep, background, previous), transparency, interlace, local palettes and clipping:
    /// every canvas as the script's own compositor, and browsers, compose it.
    @Test(arguments: GIFFixture.composed)
    func framesAreComposedAsBrowsersComposeThem(_ fixture: GIFFixture) throws {
        let frames = GIFFrames(fixture.path)
        #expect(frames.failure == nil, "\(frames.failure?.message ?? "")")
        #expect(frames.width == fixture.entry.width && frames.height == fixture.entry.height)
        let expected = try #require(fixture.canvases)
        #expect(frames.canvases.count == expected.count)
        for (index, (got, want)) in zip(frames.canvases, expected).enumerated() {
            #expect(got == want, "\(fixture.entry.file): frame \(index + 1) differs")
        }
        if let durations = fixture.entry.durations { #expect(frames.durations == durations) }
        if let loops = fixture.entry.loopCount { #expect(frames.loopCount == loops) }
    }

    @Test func aPillowAnimationHasItsFramesDelaysAndLoop() throws {
        let fixture = GIFFixture.named("photo-animated.gif")
        let frames = GIFFrames(fixture.path)
        #expect(frames.failure == nil)
        #expect(frames.canvases.count == 6 && frames.durations == fixture.entry.durations)
        #expect(frames.loopCount == 0)
        // Pillow stores later frames as offset rectangles: composed, every canvas is whole and opaque.
        for canvas in frames.canvases { #expect(stride(from: 3, to: canvas.count, by: 4).allSatisfy { canvas[$0] == 255 }) }
        #expect(Set(frames.canvases.map { $0.hashValue }).count == 6)
    }

    @Test func aCutAnimationPlaysItsWholeFrames() throws {
        let frames = GIFFrames(GIFFixture.named("truncated-mid-animation.gif").path)
        #expect(frames.failure == nil)
        #expect(frames.canvases.count == 2)
    }

    @Test func bombsAreRefusedBeforeTheyCost() throws {
        // The first frame is small and shown; the second, declaring 65535×65535, is refused before decoding.
        let huge = GIFFrames(GIFFixture.named("bomb-huge-frames.gif").path)
        #expect(huge.failure?.kind == WF_DERIVE_ERR_TOO_LARGE && huge.canvases.count == 1, "\(huge.failure?.message ?? "")")
        // The frame-count bomb stops the header walk (the compositor's own limit meets it under make sanitize).
        let many = GIFFrames(GIFFixture.named("bomb-frame-count.gif").path)
        #expect(many.failure?.message.hasPrefix("unsupported GIF: more than 10000 frames") == true && many.canvases.isEmpty)
    }
}

struct GIFImageTests {
    /// The tile's decode is the first frame composed onto the screen: exactly the first canvas.
    @Test(arguments: GIFFixture.composed)
    func theStillIsTheFirstFrameComposed(_ fixture: GIFFixture) throws {
        let decoded = try TestPixels.decode(fixture.path)
        #expect(decoded.width == fixture.entry.width && decoded.height == fixture.entry.height && decoded.channels == 4)
        let first = try #require(fixture.canvases?.first)
        #expect(decoded.rgba == first)
    }

    /// A first frame that is the whole picture (at the screen's corner and size, no transparent colour) goes
    /// to the tile as rows, with no canvas: RGB when its colour table is full (still.gif, Pillow's interlaced
    /// photo, and every GIF of make bench-thumbs), RGBA when short (an index past it shows the canvas). It
    /// must be the first canvas the composing reader makes, pixel for pixel, for every decodable fixture.
    @Test(arguments: GIFFixture.decodable)
    func aPlainFirstFrameIsTheComposedOne(_ fixture: GIFFixture) throws {
        let frames = GIFFrames(fixture.path)
        let first = try #require(frames.canvases.first, "\(fixture.entry.file)")
        let decoded = try TestPixels.decode(fixture.path)
        #expect(decoded.rgba == first, "\(fixture.entry.file)")
        if fixture.entry.file == "still.gif" { #expect(decoded.channels == 3, "the full-table path") }
    }

    /// Tiles of every readable GIF: the screen's size fitted, PNG where the first frame shows transparency.
    @Test(arguments: GIFFixture.decodable)
    func derived(_ fixture: GIFFixture) throws {
        let folder = try TemporaryFolder()
        let output = folder.path + "/out"
        let made = try Thumbnailer().make(from: fixture.path, to: output, request: .width(120))
        let width = try #require(fixture.entry.width), height = try #require(fixture.entry.height)
        #expect(made.width == min(120, width))
        #expect(abs(made.height - Int((Double(height) * Double(made.width) / Double(width)).rounded())) <= 1)
        let transparent = fixture.canvases.map { c in stride(from: 3, to: c[0].count, by: 4).contains { c[0][$0] < 255 } } ?? false
        #expect(made.format == (transparent ? .png : .jpeg), "\(fixture.entry.file)")
        #expect(made.format != .webp)
    }

    @Test(arguments: GIFFixture.readable.filter { $0.entry.decodeError != nil })
    func damagedOrHostileImageDataIsAnError(_ fixture: GIFFixture) throws {
        let folder = try TemporaryFolder()
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: fixture.path, to: folder.path + "/out", request: .width(120))
        }
        #expect("\(error.kind)" == fixture.entry.decodeError?.kind)
        #expect(error.reason.hasPrefix(fixture.entry.decodeError!.message), "\(error.reason)")
        #expect(!error.reason.contains("\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
    }

    /// The view of an animated GIF is an animated WebP (ThumbnailRequest.animate, wf_write_animated_webp) with
    /// every frame, its delays and its loop count; the same input gives the same bytes.
    @Test func theViewOfAnAnimationIsAnAnimatedWebP() throws {
        let folder = try TemporaryFolder()
        var request = ThumbnailRequest.longEdge(2048)
        request.animate = true
        let fixture = GIFFixture.named("photo-animated.gif")
        let made = try Thumbnailer().make(from: fixture.path, to: folder.path + "/view", request: request)
        #expect(made.format == .webp && made.width == 120 && made.height == 72)
        let header = try HeaderReader().read(path: folder.path + "/view").get()
        #expect(header.format == .webp && header.frames == 6)
        let frames = GIFFrames(folder.path + "/view")  // wf_animation reads WebP too
        #expect(frames.failure == nil && frames.canvases.count == 6)
        #expect(frames.durations == fixture.entry.durations && frames.loopCount == 0)
        _ = try Thumbnailer().make(from: fixture.path, to: folder.path + "/again", request: request)
        #expect(try Fixtures.bytes(folder.path + "/again") == Fixtures.bytes(folder.path + "/view"))
    }

    /// Disposal survives into the animated view: the WebP's frames, decoded, are the composed canvases (within
    /// the encoder's loss; transparent pixels exactly transparent).
    @Test(arguments: GIFFixture.composed.filter { $0.entry.animated == true })
    func theAnimatedViewKeepsTheComposedFrames(_ fixture: GIFFixture) throws {
        let folder = try TemporaryFolder()
        var request = ThumbnailRequest.longEdge(2048)
        request.animate = true
        _ = try Thumbnailer().make(from: fixture.path, to: folder.path + "/view", request: request)
        let frames = GIFFrames(folder.path + "/view")
        let expected = try #require(fixture.canvases)
        #expect(frames.canvases.count == expected.count && frames.durations == fixture.entry.durations!)
        #expect(frames.loopCount == fixture.entry.loopCount!)
        for (index, (got, want)) in zip(frames.canvases, expected).enumerated() {
            let worst = stride(from: 0, to: want.count, by: 4).map { at -> Int in
                if want[at + 3] == 0 { return Int(got[at + 3]) }
                return (0..<4).map { abs(Int(got[at + $0]) - Int(want[at + $0])) }.max()!
            }.max()!
            #expect(worst <= 24, "\(fixture.entry.file): frame \(index + 1) differs by up to \(worst)")
        }
    }

    /// A tiny file whose later frames declare billions of pixels: its tile (the first frame) is made, its
    /// animated view refused before the huge frames are decoded, and nothing is left behind.
    @Test(arguments: GIFFixture.readable.filter { $0.entry.viewError != nil })
    func overBudgetAnimationsGetATileButNoView(_ fixture: GIFFixture) throws {
        let folder = try TemporaryFolder()
        let tile = try Thumbnailer().make(from: fixture.path, to: folder.path + "/tile", request: .width(50))
        #expect(tile.width == 50 && tile.format != .webp)
        var request = ThumbnailRequest.longEdge(2048)
        request.animate = true
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: fixture.path, to: folder.path + "/view", request: request)
        }
        #expect("\(error.kind)" == fixture.entry.viewError?.kind)
        #expect(error.reason.hasPrefix(fixture.entry.viewError!.message), "\(error.reason)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/view"))
    }

    /// A GIF in a photo folder is a photo, whatever its name says: stills, one named .jpg, and an animation
    /// whose view is an animated WebP while its tiles are stills.
    @Test func aFolderOfGIFsBuilds() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(GIFFixture.named("still.gif").path, as: "cat.gif")
        try input.copy(GIFFixture.named("transparency.gif").path, as: "ring.gif")
        try input.copy(GIFFixture.named("interlaced.gif").path, as: "stripes.jpg")
        try input.copy(GIFFixture.named("photo-animated.gif").path, as: "eyes.gif")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix("4 photos, 0 skipped") == true, "\(run.stderr)")
        let html = String(decoding: try Fixtures.bytes(output.path + "/index.html"), as: UTF8.self)
        #expect(html.contains(#"width="160" height="100""#) && html.contains(#"width="6" height="4""#))
        #expect(html.contains(#"width="120" height="72""#))
        var animatedViews = 0
        for file in try Fixtures.siteFiles(in: output.path) where file.hasPrefix("images/") {
            let header = try HeaderReader().read(path: output.path + "/" + file).get()
            if header.isAnimated {
                animatedViews += 1
                #expect(file.hasPrefix("images/view/") && header.format == .webp && header.frames == 6, "\(file)")
            }
        }
        #expect(animatedViews == 1)
    }
}
