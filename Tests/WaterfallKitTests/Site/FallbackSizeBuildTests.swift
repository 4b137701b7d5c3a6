import Foundation
import Testing
@testable import WaterfallKit

/// A photo whose images the fallback (JPEG, or PNG with transparency) could not hold at their nominal size
/// stays in the gallery: a JPEG holds 65,500 px a side, so a tile of a phone's scroll capture is that tall and
/// narrower, its `srcset` gives its real width, and the board still lays it out at the photo's shape. On the
/// real binary, with captures made by Tests/Tools/pngbytes.py (1080×80000 and 100×100000, one colour).
struct FallbackSizeBuildTests {
    static func captures() throws -> TemporaryFolder {
        let input = try TemporaryFolder()
        try input.copy(Fixtures.inRepository("SampleGallery/coffee-cup.jpg"), as: "cup.jpg")
        try GeneratedImages.png(input.path + "/capture.png", 1080, 80000)
        try GeneratedImages.png(input.path + "/thin.png", 100, 100_000)
        return input
    }

    /// Within a pixel of its photo's shape, on whichever side was rounded.
    static func hasShape(_ image: (width: Int, height: Int), of photo: (width: Int, height: Int)) -> Bool {
        abs(image.height * photo.width - image.width * photo.height) <= max(photo.width, photo.height)
    }

    @Test func aPhotoTallerThanAJPEGHoldsIsPublishedWithNarrowerTiles() throws {
        let input = try Self.captures(), output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("3 photos, 0 skipped") && !run.stderr.contains("warning"), "\(run.stderr)")
        let html = String(decoding: try Fixtures.bytes(output.path + "/index.html"), as: UTF8.self)
        var tiles: [String: [(url: String, width: Int)]] = [:]
        for image in ModernFormatBuildTests.elements("img", in: html) {
            // images/217/capture.png.jpg: the photo capture.png.
            let made = FolderPath.lastComponent(of: image["src"] ?? ""), name = made.components(separatedBy: ".")[0]
            let photo = try ModernFormatBuildTests.inspect(input.path + "/" + (made.hasSuffix(".png.jpg") ? String(made.dropLast(4)) : made))
            // The board's box is the photo's own size: the layout is the photo's shape, whatever its images' sizes.
            #expect(Int(image["width"] ?? "") == photo.width && Int(image["height"] ?? "") == photo.height, "\(image)")
            tiles[name] = ModernFormatBuildTests.candidates(image["srcset"] ?? "")
            for (url, width) in tiles[name]! {
                let made = try ModernFormatBuildTests.inspect(output.path + "/" + url)
                #expect(made.width == width && max(made.width, made.height) <= 65500, "\(url) is \(made)")
                #expect(Self.hasShape((made.width, made.height), of: (photo.width, photo.height)), "\(url) is \(made), photo \(photo)")
            }
        }
        // The 1000-px tile of the 1080×80000 capture is 884×65500, and says so; the 100-px-wide one has one tile.
        #expect(tiles["capture"]?.last.map { "\($0.url) \($0.width)w" } == "images/1000/capture.png.jpg 884w")
        #expect(tiles["thin"]?.map(\.width) == [66], "\(tiles["thin"] ?? [])")
        #expect(tiles["cup"]?.last?.width == 600)
        for name in ["capture", "thin"] {
            let page = String(decoding: try Fixtures.bytes(output.path + "/photos/\(name).png.html"), as: UTF8.self)
            let view = try #require(ModernFormatBuildTests.elements("img", in: ModernFormatBuildTests.ownView(page)).first)
            let made = try ModernFormatBuildTests.inspect(output.path + "/photos/" + (view["src"] ?? ""))
            #expect(made.height == 2048 && "\(made.width)" == view["width"], "\(view) is \(made)")
        }
        #expect(LinkChecker.brokenLinks(in: output.path).isEmpty)
    }

    /// A modern format that cannot hold the capture's images is left out as before; its warning names the
    /// largest image as it is made.
    @Test func theWebPOmissionNamesTheImageAsMade() throws {
        let input = try Self.captures(), output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--formats", "webp,jpeg"])
        #expect(run.status == 0 && run.stderr.contains("3 photos, 0 skipped"), "\(run.stderr)")
        #expect(run.stderr.contains("warning: \(input.path)/capture.png: its WebP images are left out (a 884×65500 image is too "
            + "large for WebP, which holds 16383 pixels a side); the JPEG or PNG fallback is published\n"), "\(run.stderr)")
        #expect(try Fixtures.siteFiles(in: output.path).contains("images/810/cup.jpg.webp"))
    }

    /// `waterfall resize --width 100` of the 100×100000 capture is 66×65500 (the height left free is held to
    /// what a JPEG holds), not refused by the encoder.
    @Test func resizeMakesATallerThanAJPEGPhotoNarrower() throws {
        let input = try Self.captures(), output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["resize", input.path + "/thin.png", input.path + "/capture.png", "-o", output.path,
                                            "--width", "100"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(try ModernFormatBuildTests.inspect(output.path + "/thin.png.jpg") == ("jpeg", 66, 65500))
        #expect(try ModernFormatBuildTests.inspect(output.path + "/capture.png.jpg") == ("jpeg", 100, 7407))
    }

    /// An animation's view is one animated WebP, which holds 16383 px a side: with a view size of 16384, a
    /// 16400×6 GIF's view is 16383 wide, and the GIF is published (it was skipped).
    @Test func anAnimatedViewFitsWebP() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try TrustIsolationTests.python("""
            import sys; sys.path.insert(0, sys.argv[1])
            import gifbytes as g
            w, h = 16400, 6
            frame = lambda step: g.control(delay=10) + g.image(0, 0, w, h, [[(x // step + y) % 2 for x in range(w)] for y in range(h)])
            open(sys.argv[2], "wb").write(g.screen(w, h, [(0, 0, 0), (255, 0, 0)]) + g.netscape(0) + frame(7) + frame(5) + g.TRAILER)
            """, VideoFixtures.toolsFolder.path, input.path + "/wide.gif")
        try Trust.write(input.path + "/waterfall.json", #"{"viewSize": 16384}"#)
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0 && run.stderr.contains("1 photo, 0 skipped"), "\(run.stderr)")
        let inspected = try WaterfallProcess.run(["inspect", "--json", output.path + "/images/view/wide.gif.webp"])
        let item = try #require((JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(item["width"] as? Int == 16383 && item["height"] as? Int == 6 && item["frames"] as? Int == 2, "\(item)")
    }
}
