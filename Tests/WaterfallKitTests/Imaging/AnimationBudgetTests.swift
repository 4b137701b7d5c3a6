import CImageIO
import Foundation
import Testing
@testable import WaterfallKit

/// One file of Fixtures/formats/animation-budgets (Tests/Tools/make_animation_budget_fixtures.py): animations
/// of tiny frames whose cost is all in the canvas, which must be refused from their headers, GIF and WebP alike.
struct AnimationBudgetFixture: Sendable, CustomTestStringConvertible {
    struct Entry: Decodable, Sendable {
        var file: String
        var format: String
        var width: Int
        var height: Int
        var frames: Int
        /// The still (first frame) tile's refusal, where it is refused.
        var tileError: ExpectedRefusal?
        var viewError: ExpectedRefusal
    }

    var entry: Entry
    var path: String { Fixtures.root.appendingPathComponent("formats/animation-budgets/\(entry.file)").path }
    var testDescription: String { entry.file }

    static let all: [AnimationBudgetFixture] = {
        struct File: Decodable { var fixtures: [Entry] }
        let url = Fixtures.root.appendingPathComponent("formats/animation-budgets/expected.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
        return file.fixtures.map { AnimationBudgetFixture(entry: $0) }
    }()

    static func named(_ file: String) -> AnimationBudgetFixture { all.first { $0.entry.file == file }! }
}

/// Issue 26: a 188-byte WebP whose 240-megapixel canvas cost 1.9 GB and 45 s to build, and a 230 KB GIF of
/// 9,999 one-pixel frames that ran for 10 s before its pixel budget was noticed, are refused from their
/// headers before a frame is decoded, with the same words as their twins in the other format.
struct AnimationBudgetTests {
    @Test func everyFixtureIsListed() throws {
        let files = try Fixtures.files(in: "formats/animation-budgets").filter { $0 != "expected.json" }
        #expect(files == AnimationBudgetFixture.all.map(\.entry.file).sorted())
        #expect(AnimationBudgetFixture.all.count >= 3)
    }

    /// The headers read: the budgets are the derived images', not the header's.
    @Test(arguments: AnimationBudgetFixture.all)
    func headerReads(_ fixture: AnimationBudgetFixture) throws {
        let header = try HeaderReader().read(path: fixture.path).get()
        #expect(header.format.rawValue == fixture.entry.format)
        #expect(header.width == fixture.entry.width && header.height == fixture.entry.height && header.frames == fixture.entry.frames)
    }

    @Test(arguments: AnimationBudgetFixture.all)
    func tileIsMadeOrRefusedBeforeDecoding(_ fixture: AnimationBudgetFixture) throws {
        let folder = try TemporaryFolder()
        let output = folder.path + "/tile"
        guard let refusal = fixture.entry.tileError else {
            let tile = try Thumbnailer().make(from: fixture.path, to: output, request: .width(50))
            #expect(tile.width == 50)
            return
        }
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: fixture.path, to: output, request: .width(50))
        }
        #expect("\(error.kind)" == refusal.kind && error.reason.hasPrefix(refusal.message), "\(error.reason)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test(arguments: AnimationBudgetFixture.all)
    func viewIsRefusedBeforeDecoding(_ fixture: AnimationBudgetFixture) throws {
        let folder = try TemporaryFolder()
        var request = ThumbnailRequest.longEdge(400)
        request.animate = true
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: fixture.path, to: folder.path + "/view.webp", request: request)
        }
        #expect("\(error.kind)" == fixture.entry.viewError.kind, "\(error.reason)")
        #expect(error.reason.hasPrefix(fixture.entry.viewError.message) && !error.reason.contains("\n"), "\(error.reason)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/view.webp"))
    }

    /// The same numbers in either format are refused with the same words: one budget, stated once.
    @Test func gifAndWebPOfTheSameNumbersAreRefusedAlike() throws {
        let folder = try TemporaryFolder()
        var request = ThumbnailRequest.longEdge(400)
        request.animate = true
        let reasons = try ["frames-budget.gif", "frames-budget.webp"].map { name in
            try #require(throws: DeriveError.self) {
                try Thumbnailer().make(from: AnimationBudgetFixture.named(name).path, to: folder.path + "/" + name, request: request)
            }.reason
        }
        #expect(reasons[0].hasPrefix("GIF frames of ") && reasons[1].hasPrefix("WebP frames of "))
        #expect(reasons[0].dropFirst(3) == reasons[1].dropFirst(4), "\(reasons)")
    }

    /// In a build next to good photos: the build succeeds, each file is named with its reason on one line,
    /// and the photos are published.
    @Test func aBuildSkipsEachWithItsReasonAndPublishesThePhotos() throws {
        let input = try Trust.input(["coffee-cup.jpg", "Album/hubble-tall.jpg"])
        for fixture in AnimationBudgetFixture.all {
            try Trust.copy(fixture.path, to: input.path + "/Album/" + fixture.entry.file)
        }
        let output = try TemporaryFolder()
        let run = try Watchdog.run(["build", input.path, "-o", output.path])
        #expect(run.exited && run.status == 0, "\(run.stderr)")
        for fixture in AnimationBudgetFixture.all {
            let path = input.path + "/Album/" + fixture.entry.file
            let lines = Trust.lines(run, naming: path)
            let reason = (fixture.entry.tileError ?? fixture.entry.viewError).message
            #expect(lines.count == 1 && lines[0].hasPrefix("waterfall: \(path): skipped: \(reason)"), "\(lines)")
        }
        #expect(try Fixtures.siteFiles(in: output.path).filter { $0.hasSuffix(".html") }
            == ["Album/index.html", "Album/photos/hubble-tall.jpg.html", "index.html", "photos/coffee-cup.jpg.html"])
        Trust.expectSoundSite(output.path)
    }

    /// A GIF keeps a second canvas only for a frame after the first that restores what was under it: the canvas
    /// starts transparent, so restoring what was under the first frame is clearing it. Under a limit of a canvas
    /// and a half, both files make their tile (one frame); the animated view of the one whose second frame
    /// restores is refused from its blocks, the other's is made.
    @Test func aGIFsSecondCanvasIsBudgetedFromItsBlocks() throws {
        let folder = try TemporaryFolder()
        let first = try GeneratedImages.bomb("bombs.gif_restoring(1024, 1024, 1)", folder.path + "/first.gif")
        let second = try GeneratedImages.bomb("bombs.gif_restoring(1024, 1024, 2)", folder.path + "/second.gif")
        var tile = ThumbnailRequest.width(100), view = ThumbnailRequest.longEdge(1024)
        tile.maxDecoderMemory = 6 << 20 // a canvas is 4 MiB
        view.maxDecoderMemory = 6 << 20
        view.animate = true
        for (index, file) in [first, second].enumerated() {
            #expect(try Thumbnailer().make(from: file, to: folder.path + "/tile\(index)", request: tile).width == 100)
        }
        #expect(try Thumbnailer().make(from: first, to: folder.path + "/first.webp", request: view).source.frames == 3)
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: second, to: folder.path + "/second.webp", request: view)
        }
        #expect(error.kind == .limit && error.reason == "a 1024×1024 GIF canvas would need 8 MiB, over the 6 MiB limit")
    }
}
