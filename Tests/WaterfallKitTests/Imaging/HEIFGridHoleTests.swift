import Foundation
import Testing
@testable import WaterfallKit

/// Grids whose tiles leave part of the picture uncovered (Fixtures/formats/heif-holes, made by
/// Tests/Tools/make_heif_graph_fixtures.py): a grid taller than its one tile, and a tile coded at half the height
/// it declares. libheif 1.15 leaves those rows as the memory it got, so a decoder process that decoded other
/// photos first published their pixels there, different on every build (the hostile-folder test of issue 26
/// found a site that was not a fresh build's). They must come out black, the same bytes on every build.
struct HEIFGridHoleTests {
    static let files = ["grid-taller-than-tile.avif", "grid-taller-than-tile.heic", "tile-coded-smaller.heic"]
    /// Photos decoded before them by the one decoder process (`--jobs 1`, in name order): its heap holds their pixels.
    static let before = ["a-chelsea-the-cat.jpg", "b-coffee-cup.jpg", "c-retina-fundus.jpg"]

    @Test func everyFixtureIsListed() throws {
        #expect(try Fixtures.files(in: "formats/heif-holes") == Self.files)
    }

    @Test func uncoveredRowsAreBlackAndTheSameOnEveryBuild() throws {
        let input = try TemporaryFolder()
        for name in Self.before {
            try Trust.copy(Fixtures.inRepository("SampleGallery/" + name.dropFirst(2)), to: input.path + "/" + name)
        }
        for file in Self.files {
            try Trust.copy(Fixtures.root.appendingPathComponent("formats/heif-holes/\(file)").path, to: input.path + "/z-" + file)
        }
        var published: [[String: [UInt8]]] = []
        for _ in 0..<2 {
            let output = try TemporaryFolder()
            let run = try Watchdog.run(["build", input.path, "-o", output.path, "--jobs", "1"])
            #expect(run.exited && run.status == 0, "\(run.stderr)")
            var images: [String: [UInt8]] = [:]
            for file in Self.files {
                let path = output.path + "/images/view/z-\(file).jpg"
                images[file] = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                // The grid is 320×400; its tile covers the upper 200 rows. Below them, a row or two of JPEG
                // ringing aside, nothing but black.
                let pixels = try TestPixels.decode(path)
                #expect(pixels.width == 320 && pixels.height == 400, "\(file): \(pixels.width)×\(pixels.height)")
                let lower = pixels.bytes[(pixels.width * 208 * pixels.channels)...]
                let lit = lower.filter { $0 > 16 }.count
                #expect(lit == 0, "\(file): \(lit) of \(lower.count) samples below the tile are not black")
            }
            published.append(images)
        }
        #expect(published[0] == published[1], "two builds of the same folder published different images")
    }
}
