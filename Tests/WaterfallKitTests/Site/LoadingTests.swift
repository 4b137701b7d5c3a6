import Foundation
import Testing
@testable import WaterfallKit

/// What a visitor sees before the images arrive: each tile in its photo's mean colour, and the first
/// screen's images asked for first.
struct LoadingTests {
    /// The mean colour of a decoded image, weighted by alpha, as the build computes it.
    static func mean(_ pixels: TestPixels) -> AverageColor? {
        let colour = pixels.channels >= 3 ? 3 : 1, alpha = pixels.channels == 2 || pixels.channels == 4
        var sum = [0, 0, 0], weight = 0
        for start in stride(from: 0, to: pixels.bytes.count, by: pixels.channels) {
            let a = alpha ? Int(pixels.bytes[start + pixels.channels - 1]) : 255
            for k in 0..<3 { sum[k] += a * Int(pixels.bytes[start + (colour == 3 ? k : 0)]) }
            weight += a
        }
        guard weight > 0 else { return nil }
        let value = sum.map { UInt8(($0 + weight / 2) / weight) }
        return AverageColor(red: value[0], green: value[1], blue: value[2])
    }

    /// Within 2 levels a channel: the build averages the pixels before they are encoded, the test after
    /// (JPEG is lossy).
    static func close(_ a: AverageColor?, _ b: AverageColor?) -> Bool {
        guard let a, let b else { return false }
        return abs(Int(a.red) - Int(b.red)) <= 2 && abs(Int(a.green) - Int(b.green)) <= 2 && abs(Int(a.blue) - Int(b.blue)) <= 2
    }

    @Test func aTileIsItsImagesMeanColourAndTransparencyDoesNotGreyACutOut() throws {
        let folder = try TemporaryFolder()
        for (source, name) in [("SampleGallery/chelsea-cutout.png", "cutout"), ("SampleGallery/coffee-cup.jpg", "cup"),
                               ("SampleGallery/cameraman.jpg", "gray")] {
            let output = folder.path + "/" + name
            let made = try Thumbnailer().make(from: Fixtures.inRepository(source), to: output, request: .width(200))
            let colour = try #require(made.averageColor, "\(source)")
            #expect(Self.close(colour, Self.mean(try TestPixels.decode(output))), "\(source)")
        }
        // The cut-out's transparent corners do not count: its colour is the cat's, not a paler one.
        let cutout = try #require(try Thumbnailer().make(from: Fixtures.inRepository("SampleGallery/chelsea-cutout.png"),
                                                         to: folder.path + "/cutout2", request: .width(200)).averageColor)
        let opaque = try TestPixels.decode(folder.path + "/cutout2")
        let unweighted = opaque.bytes.enumerated().filter { $0.offset % 4 == 0 }.reduce(0) { $0 + Int($1.element) }
            / (opaque.width * opaque.height)
        #expect(Int(cutout.red) > unweighted + 5, "weighted \(cutout.red), unweighted \(unweighted)")
    }

    /// A see-through photo (the cut-out PNG, a PNG with a transparent colour) gets no placeholder behind it: its
    /// mean colour would stay as a square around the cut-out once it loads. An RGBA PNG whose pixels are all
    /// opaque keeps its colour. Pages from the cache's facts are the same.
    @Test func aSeeThroughPhotoHasNoPlaceholderBehindIt() throws {
        let input = try TemporaryFolder(), work = try TemporaryFolder()
        for name in ["chelsea-cutout.png", "coffee-cup.jpg"] { try input.copy(Fixtures.inRepository("SampleGallery/" + name), as: name) }
        try input.copy(Fixtures.header("P12-rgba-all-opaque.png"), as: "opaque-rgba.png")
        try input.copy(Fixtures.conformance("pngsuite/tbrn2c08.png"), as: "transparent-colour.png")
        var pages: [[String]] = []
        for output in ["first", "second"] {  // the second from the cache the first filled
            let site = work.path + "/" + output
            let run = try WaterfallProcess.run(["build", input.path, "-o", site, "--cache-dir", work.path + "/cache", "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            pages.append(try ["index.html", "photos/chelsea-cutout.png.html", "photos/coffee-cup.jpg.html"].map {
                String(decoding: try Fixtures.bytes(site + "/" + $0), as: UTF8.self)
            })
        }
        #expect(pages[0] == pages[1])
        let tiles = pages[0][0].components(separatedBy: "<li class=\"wf-tile").dropFirst()
        let cutout = try #require(tiles.first { $0.contains("chelsea-cutout") }), cup = try #require(tiles.first { $0.contains("coffee-cup") })
        #expect(cutout.contains("--wf-color:transparent") && !cutout.contains("--wf-sketch"), "\(cutout.prefix(300))")
        #expect(cup.firstMatch(of: /--wf-color:#[0-9a-f]{6}/) != nil, "\(cup.prefix(300))")
        let opaque = try #require(tiles.first { $0.contains("opaque-rgba") }), keyed = try #require(tiles.first { $0.contains("transparent-colour") })
        #expect(opaque.firstMatch(of: /--wf-color:#[0-9a-f]{6}/) != nil, "\(opaque.prefix(300))")
        #expect(keyed.contains("--wf-color:transparent"), "\(keyed.prefix(300))")
        #expect(pages[0][1].contains("--wf-color: transparent"))
        #expect(pages[0][2].firstMatch(of: /--wf-color: #[0-9a-f]{6}/) != nil)
    }

    @Test func tilesCarryTheirColourAndTheFirstScreenLoadsFirst() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for index in 0..<40 {
            let name = ["coffee-cup.jpg", "hubble-tall.jpg", "cameraman-skyline.png", "astronaut-portrait.jpg"][index % 4]
            try input.copy(BuildCommandTests.gallery + "/" + name, as: String(format: "%02d-", index) + name)
        }
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let html = String(decoding: try Fixtures.bytes(output.path + "/index.html"), as: UTF8.self)
        let tiles = html.components(separatedBy: "<li class=\"wf-tile").dropFirst()
        #expect(tiles.count == 40)
        var eager = 0, high = 0
        for tile in tiles {
            let colour = try #require(tile.firstMatch(of: /--wf-color:(#[0-9a-f]{6})[";]/)?.1, "\(tile.prefix(200))")
            let src = try #require(tile.firstMatch(of: /src="([^"]+)"/)?.1)
            let image = try TestPixels.decode(output.path + "/" + String(src))
            #expect(Self.close(AverageColor(hex: String(colour)), Self.mean(image)), "\(src)")
            let first = tile.contains(#"fetchpriority="high""#), lazy = tile.contains(#"loading="lazy""#)
            #expect(!(first && lazy), "a tile asked for first loads eagerly: \(tile.prefix(300))")
            // Every photo here is opaque: a first-screen tile shows its sketch inline, a lazy one does not.
            #expect(tile.contains("--wf-sketch:url(data:image/png;base64,") == !lazy, "\(tile.prefix(300))")
            if !lazy { eager += 1 }
            if first { high += 1 }
        }
        #expect(eager > 0 && eager < 40, "\(eager) tiles on the first screen")
        // One likely largest paint for a phone and one for a desktop, at most: the others wait their turn.
        #expect((1...2).contains(high), "\(high) tiles asked for first")
        // The photo page's view image shows its colour too.
        let page = String(decoding: try Fixtures.bytes(output.path + "/photos/00-coffee-cup.jpg.html"), as: UTF8.self)
        #expect(page.contains("--wf-color: #"))
    }
}
