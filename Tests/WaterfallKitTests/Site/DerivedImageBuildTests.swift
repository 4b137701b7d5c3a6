import Foundation
import Testing
@testable import WaterfallKit

/// Derived images as the build makes them: sizes, srcset, privacy, and incremental rebuilds.
struct DerivedImageBuildTests {
    func build(_ input: String, _ output: String, _ extra: [String] = []) throws -> WaterfallProcess.Outcome {
        try WaterfallProcess.run(["build", input, "-o", output] + extra)
    }

    func summary(_ run: WaterfallProcess.Outcome) -> String { String(run.stderr.split(separator: "\n").last ?? "") }

    func modificationTimes(under folder: String) throws -> [String: Date] {
        var times: [String: Date] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) where !path.hasPrefix(".waterfall") {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + path)
            if attributes[.type] as? FileAttributeType == .typeRegular { times[path] = attributes[.modificationDate] as? Date }
        }
        return times
    }

    /// The JPEG's markers up to the scan: only SOI, APP0, APP2 (ICC), DQT, SOF, DHT, DRI and SOS may appear.
    static func markers(_ bytes: [UInt8]) -> [UInt8] {
        var markers: [UInt8] = []
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let marker = bytes[position + 1]
            markers.append(marker)
            if marker == 0xDA { break }
            position += 2 + Int(bytes[position + 2]) << 8 + Int(bytes[position + 3])
        }
        return markers
    }

    @Test func tileImagesFollowTheBandsAndNeverUpscale() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.conformance("exif-orientation/Portrait_6.jpg"), as: "big.jpg")  // 1200×1800 displayed
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "small.jpg")               // 64×48
        let run = try build(input.path, output.path, ["--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let html = String(decoding: try Fixtures.bytes(output.path + "/index.html"), as: UTF8.self)
        // The ladder: from a 320-px phone's 145-px tile at 1× to a 2560-px board's 500-px tile at 2×, each width
        // at most 1.5 times the one before, with a 1440-px desktop's 276, a 390-px phone's 540 (at 3×) and the
        // widest 1× tile's 500.
        #expect(html.contains(#"srcset="images/217/big.jpg 217w, images/276/big.jpg 276w, images/414/big.jpg 414w, "#
                              + #"images/500/big.jpg 500w, images/540/big.jpg 540w, images/810/big.jpg 810w, "#
                              + #"images/1000/big.jpg 1000w""#))
        #expect(html.contains(#"srcset="images/217/small.jpg 64w""#))
        #expect(html.contains(#"href="photos/big.jpg.html""#))
        let photoPage = String(decoding: try Fixtures.bytes(output.path + "/photos/big.jpg.html"), as: UTF8.self)
        #expect(photoPage.contains(#"<img src="../images/view/big.jpg" srcset="../images/217/big.jpg 217w, "#))
        #expect(photoPage.contains(#"../images/1000/big.jpg 1000w, ../images/view/big.jpg 1200w" "#
                                   + #"sizes="(min-width: 1220px) 1200px, (max-width: 40em) 100vw, calc(100vw - 20px)" width="1200" height="1800""#))
        let view = try HeaderReader().read(path: output.path + "/images/view/big.jpg").get()
        #expect(view.width == 1200 && view.height == 1800 && view.orientation == .up)  // upright, 1800 < 2048
        let tile = try HeaderReader().read(path: output.path + "/images/810/big.jpg").get()
        #expect(tile.width == 810 && tile.height == 1215 && tile.orientation == .up)
        #expect(try HeaderReader().read(path: output.path + "/images/217/small.jpg").get().width == 64)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/images/276/small.jpg"))
    }

    @Test func sizesAndQualityAreConfigurable() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.conformance("exif-orientation/Landscape_8.jpg"), as: "a.jpg")
        try input.write("waterfall.json", Array(#"{"tileWidth": 300, "densities": [1, 3], "viewSize": 800, "quality": 60}"#.utf8))
        #expect(try build(input.path, output.path, ["--quiet"]).status == 0)
        let html = String(decoding: try Fixtures.bytes(output.path + "/index.html"), as: UTF8.self)
        #expect(html.contains(#"srcset="images/300/a.jpg 300w, images/900/a.jpg 900w""#))
        let view = try HeaderReader().read(path: output.path + "/images/view/a.jpg").get()
        #expect(view.width == 800 && view.height == 533)
    }

    /// The first entry of the JPEG's first quantisation table: the luminance DC step, which libjpeg scales
    /// with the quality (16 at 50, 9 at 72, 6 at 82).
    static func lumaDCStep(_ bytes: [UInt8]) -> Int? {
        var position = 2
        while position + 5 <= bytes.count, bytes[position] == 0xFF {
            if bytes[position + 1] == 0xDB { return Int(bytes[position + 5]) }
            position += 2 + Int(bytes[position + 2]) << 8 + Int(bytes[position + 3])
        }
        return nil
    }

    /// libjpeg's table scaling (jpeg_quality_scaling, then (step × scale + 50) / 100) for the DC step of 16.
    static func expectedDCStep(quality: Int) -> Int {
        let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
        return max(1, (16 * scale + 50) / 100)
    }

    /// Tiles wider than the widest 1× tile are taken only by denser screens and made at the dense quality
    /// (ten under `quality` by default, or `denseQuality`); the rest, and the view, at `quality`.
    @Test func denseTilesAreMadeAtTheDenseQuality() throws {
        let input = try TemporaryFolder()
        try input.copy(Fixtures.conformance("exif-orientation/Portrait_6.jpg"), as: "big.jpg")  // 1200×1800 displayed
        for (settings, quality, dense) in [("{}", 82, 72), (#"{"quality": 90}"#, 90, 80), (#"{"denseQuality": 50}"#, 82, 50)] {
            let output = try TemporaryFolder()
            try input.write("waterfall.json", Array(settings.utf8))
            let run = try build(input.path, output.path, ["--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            for (size, expected) in [("217", quality), ("276", quality), ("414", quality), ("500", quality),
                                     ("540", dense), ("810", dense), ("1000", dense), ("view", quality)] {
                let step = Self.lumaDCStep(try Fixtures.bytes(output.path + "/images/\(size)/big.jpg"))
                #expect(step == Self.expectedDCStep(quality: expected), "\(settings): \(size) made at DC step \(step ?? -1)")
            }
        }
    }

    @Test func noMetadataButTheColourProfileLeavesTheMachine() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        // A camera-like file: Exif (with an IFD1 thumbnail), then XMP, then a 30 KB ICC profile.
        try input.copy(Fixtures.header("J23-exif-thumbnail-before-sof-no-jfif.jpg"), as: "exif.jpg")
        try input.copy(Fixtures.header("J27-60k-app1-30k-icc-before-sof.jpg"), as: "icc.jpg")
        try input.copy(Fixtures.header("J26-exif-1-and-xmp-8.jpg"), as: "xmp.jpg")
        #expect(try build(input.path, output.path, ["--quiet"]).status == 0)
        for path in try FileManager.default.subpathsOfDirectory(atPath: output.path + "/images") where path.hasSuffix(".jpg") {
            let bytes = try Fixtures.bytes(output.path + "/images/" + path)
            let markers = Self.markers(bytes)
            #expect(markers.allSatisfy { [0xE0, 0xE2, 0xDB, 0xC0, 0xC2, 0xC4, 0xDD, 0xDA].contains($0) }, "\(path): \(markers)")
            #expect(!markers.contains(0xE1) && !markers.contains(0xFE), "\(path) keeps Exif/XMP or a comment")
        }
    }

    @Test func aNoChangeRebuildMakesNothingAndTouchesNothing() throws {
        let output = try TemporaryFolder()
        let first = try build(BuildCommandTests.gallery, output.path)
        #expect(summary(first).contains("60 of 60 images made"))
        let before = try modificationTimes(under: output.path)
        Thread.sleep(forTimeInterval: 0.05)
        let second = try build(BuildCommandTests.gallery, output.path)
        #expect(summary(second).hasPrefix("15 photos, 1 skipped, 0 of 60 images made"), "\(summary(second))")
        #expect(try modificationTimes(under: output.path) == before)
    }

    @Test func changingASizeRemakesOnlyWhatItAffects() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for name in ["Landscape_1.jpg", "Portrait_3.jpg", "Landscape_6.jpg"] {
            try input.copy(Fixtures.conformance("exif-orientation/" + name), as: name)
        }
        // Seven tile widths and the view each.
        #expect(summary(try build(input.path, output.path)).contains("24 of 24 images made"))
        try input.write("waterfall.json", Array(#"{"tileWidth": 320}"#.utf8))
        let tiles = try build(input.path, output.path)
        #expect(summary(tiles).contains("9 of 12 images made"), "\(summary(tiles))")  // the view images are kept
        #expect(!FileManager.default.fileExists(atPath: output.path + "/images/217"))   // the old tile images are gone
        try input.write("waterfall.json", Array(#"{"tileWidth": 320, "quality": 70}"#.utf8))
        #expect(summary(try build(input.path, output.path)).contains("12 of 12 images made"))
        // A changed source is made again, and only it.
        try input.copy(Fixtures.conformance("exif-orientation/Landscape_2.jpg"), as: "Landscape_1.jpg")
        #expect(summary(try build(input.path, output.path)).contains("4 of 12 images made"))
    }

    @Test func aPhotoWhosePixelsCannotBeDecodedIsSkippedWithItsReason() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.header("J44-truncated-inside-scan.jpg"), as: "cut.jpg")
        try input.copy(Fixtures.conformance("pngsuite/xcsn0g01.png"), as: "bad-crc.png")
        try input.copy(Fixtures.header("J34-cmyk-adobe.jpg"), as: "cmyk.jpg")
        let run = try build(input.path, output.path)
        #expect(run.status == 0)
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("skipped:") }
        #expect(warnings.count == 2, "\(run.stderr)")
        #expect(warnings.contains { $0.contains("cut.jpg: skipped: truncated JPEG") })
        #expect(warnings.contains { $0.contains("bad-crc.png: skipped:") })
        #expect(summary(run).hasPrefix("1 photo, 2 skipped"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/images/view/cmyk.jpg"))
        let strict = try build(input.path, output.path + "/strict", ["--strict"])
        #expect(strict.status == 1)
    }

    @Test func aDamagedCacheIsIgnoredNotTrusted() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.conformance("exif-orientation/Landscape_1.jpg"), as: "a.jpg")
        try input.copy(Fixtures.conformance("exif-orientation/Landscape_2.jpg"), as: "b.jpg")
        #expect(try build(input.path, output.path, ["--quiet"]).status == 0)
        let cache = output.path + "/.waterfall/cache"
        // A half-written entry (as a killed build might leave under a temporary name, renamed here by hand):
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache + "/photos").sorted()
        let entry = cache + "/photos/" + entries[0]
        let text = String(decoding: try Fixtures.bytes(entry), as: UTF8.self)
        try Data(text.prefix(text.count / 2).utf8).write(to: URL(fileURLWithPath: entry))
        #expect(summary(try build(input.path, output.path)).contains("8 of 16 images made"))
        // A damaged image in the store (cut short) is made again, never published.
        let images = try FileManager.default.contentsOfDirectory(atPath: cache + "/images").sorted()
        let image = cache + "/images/" + images[0]
        // (Written as a new file: the site's copy is a hard link to the store's, and damaging that one inode
        // in place would damage the published file too, which the build then rightly refuses to replace.)
        try Data(try Fixtures.bytes(image).prefix(100)).write(to: URL(fileURLWithPath: image), options: .atomic)
        #expect(summary(try build(input.path, output.path)).contains("1 of 16 images made"))
        // A derived file deleted from the site by hand is published again (from the store: nothing to make).
        try FileManager.default.removeItem(atPath: output.path + "/images/view/a.jpg")
        #expect(summary(try build(input.path, output.path)).contains("0 of 16 images made"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/images/view/a.jpg"))
        // A cache of another version is not read at all.
        try Data("waterfall-cache-0\n".utf8).write(to: URL(fileURLWithPath: cache + "/version"))
        #expect(summary(try build(input.path, output.path)).contains("16 of 16 images made"))
    }

    @Test(arguments: ["link", "copy"])
    func originalsArePublishedOnlyWhenAskedFor(policy: String) throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a b.jpg")
        #expect(try build(input.path, output.path, ["--quiet", "--originals", policy]).status == 0)
        let original = output.path + "/originals/a b.jpg"
        #expect(try Fixtures.bytes(original) == Fixtures.bytes(input.path + "/a b.jpg"))
        #expect((FileIdentity(path: original) == FileIdentity(path: input.path + "/a b.jpg")) == (policy == "link"))
        #expect(try build(input.path, output.path, ["--quiet"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: original))
    }

    /// An original is taken from the one open of the photo into the store, and published from there: linked, it is
    /// the input's very file; copied, never (not even after a build that linked it).
    @Test func anOriginalSwitchedFromLinkedToCopiedIsNoLongerTheInputsFile() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let photo = try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a.jpg")
        let original = output.path + "/originals/a.jpg"
        #expect(try build(input.path, output.path, ["--quiet", "--originals", "link"]).status == 0)
        #expect(FileIdentity(path: original) == FileIdentity(path: photo))
        #expect(try build(input.path, output.path, ["--quiet", "--originals", "copy"]).status == 0)
        #expect(FileIdentity(path: original) != FileIdentity(path: photo))
        #expect(try Fixtures.bytes(original) == Fixtures.bytes(photo))
    }
}

struct ResizeCommandTests {
    @Test func makesOneUprightImagePerPhoto() throws {
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["resize", Fixtures.conformance("exif-orientation"), Fixtures.header("J46-bmp-named.jpg"),
                                            "-o", output.path + "/out", "--width", "120"])
        #expect(run.status == 1)  // the "BM" file that is no BMP
        #expect(run.stderr == "waterfall: \(Fixtures.header("J46-bmp-named.jpg")): not an image format Waterfall reads (starts with 42 4D 00 00)\n")
        let made = try FileManager.default.contentsOfDirectory(atPath: output.path + "/out").filter { !$0.hasPrefix(".") }.sorted()
        #expect(made.count == 18)
        for name in made {
            let header = try HeaderReader().read(path: output.path + "/out/" + name).get()
            #expect(header.width == 120 && header.height == (name.hasPrefix("Landscape") ? 80 : 180), "\(name)")
            #expect(header.orientation == .up)
        }
    }

    @Test(arguments: [
        (["resize", "x.jpg", "--width", "10"], "resize needs -o DIR"),
        (["resize", "x.jpg", "-o", "out"], "resize needs --width or --height"),
        (["resize", "-o", "out", "--width", "10"], "resize needs at least one photo or folder"),
        (["resize", "x.jpg", "-o", "out", "--quality", "101", "--width", "5"], "--quality needs a whole number, 1–100"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let run = try WaterfallProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}

struct IncrementalDeterminismTests {
    /// An incremental build after a settings change writes exactly what a clean build with the new settings
    /// writes: images kept from before are the ones a clean build would make, byte for byte.
    @Test func anIncrementalBuildEqualsACleanOne() throws {
        let input = try TemporaryFolder(), incremental = try TemporaryFolder(), clean = try TemporaryFolder()
        for name in try Fixtures.files(in: "gallery") where name.hasSuffix(".jpg") || name.hasSuffix(".png") {
            try input.copy(BuildCommandTests.gallery + "/" + name, as: name)
        }
        _ = try WaterfallProcess.run(["build", input.path, "-o", incremental.path, "--quiet"])
        try input.write("waterfall.json", Array(#"{"tileWidth": 240}"#.utf8))
        _ = try WaterfallProcess.run(["build", input.path, "-o", incremental.path, "--quiet"])
        _ = try WaterfallProcess.run(["build", input.path, "-o", clean.path, "--quiet"])
        let files = try FileManager.default.subpathsOfDirectory(atPath: clean.path).filter { !$0.hasPrefix(".waterfall") }.sorted()
        #expect(try FileManager.default.subpathsOfDirectory(atPath: incremental.path).filter { !$0.hasPrefix(".waterfall") }.sorted() == files)
        for file in files where !FolderWalker.isDirectory(clean.path + "/" + file) {
            #expect(try Fixtures.bytes(incremental.path + "/" + file) == Fixtures.bytes(clean.path + "/" + file), "\(file)")
        }
    }
}

/// `zoomSize`: one more image of a photo larger than its view, in the fallback format only, which the photo
/// page's "Full size" link opens.
struct ZoomImageTests {
    @Test func aPhotoLargerThanItsViewGetsAFullSizeImage() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.conformance("exif-orientation/Portrait_6.jpg"), as: "big.jpg")  // 1200×1800 displayed
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "small.jpg")               // 64×48
        let arguments = ["build", input.path, "-o", output.path, "--view-size", "1000", "--zoom-size", "1600", "--formats", "webp,jpeg"]
        let run = try WaterfallProcess.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let files = try Fixtures.siteFiles(in: output.path)
        #expect(files.filter { $0.hasPrefix("images/zoom/") } == ["images/zoom/big.jpg"], "\(files)")
        let zoom = try HeaderReader().read(path: output.path + "/images/zoom/big.jpg").get()
        #expect(zoom.width == 1067 && zoom.height == 1600 && zoom.orientation == .up)
        let page = String(decoding: try Fixtures.bytes(output.path + "/photos/big.jpg.html"), as: UTF8.self)
        #expect(page.contains(#"<a href="../images/zoom/big.jpg" class="wf-action">Full size <small>1067 × 1600</small></a>"#), "\(page)")
        let small = String(decoding: try Fixtures.bytes(output.path + "/photos/small.jpg.html"), as: UTF8.self)
        #expect(!small.contains("Full size"))
        // Nothing to make again; without the setting the image and the link go.
        let again = try WaterfallProcess.run(arguments)
        #expect(again.stderr.contains("0 of "), "\(again.stderr)")
        #expect(try WaterfallProcess.run(Array(arguments.dropLast(4)) + ["--formats", "webp,jpeg"]).status == 0)
        #expect(!(try Fixtures.siteFiles(in: output.path)).contains { $0.hasPrefix("images/zoom/") })
        #expect(!String(decoding: try Fixtures.bytes(output.path + "/photos/big.jpg.html"), as: UTF8.self).contains("Full size"))
    }

    @Test func aVideoGetsNoFullSizeImage() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try VideoFixtures.pattern(input.path + "/clip.mp4")  // 320×240
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--view-size", "100", "--zoom-size", "300"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!(try Fixtures.siteFiles(in: output.path)).contains { $0.hasPrefix("images/zoom/") })
        #expect(!String(decoding: try Fixtures.bytes(output.path + "/photos/clip.mp4.html"), as: UTF8.self).contains("Full size"))
    }

    @Test func aZoomSizeNoLargerThanTheViewMakesNone() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.conformance("exif-orientation/Portrait_6.jpg"), as: "big.jpg")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--view-size", "1000", "--zoom-size", "900"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!(try Fixtures.siteFiles(in: output.path)).contains { $0.hasPrefix("images/zoom/") })
    }
}
