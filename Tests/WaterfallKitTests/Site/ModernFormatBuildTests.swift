import Foundation
import Testing
@testable import WaterfallKit

/// AVIF and WebP beside the JPEG fallback (`formats`): the settings, the files every tile size and the view
/// get, the `<picture>` markup, the cache (a new format is made, the others kept), determinism and alpha.
struct ModernFormatBuildTests {
    // MARK: - Settings

    @Test(arguments: [
        (#"{"formats": ["avif", "webp", "jpeg"]}"#, [DeliveryFormat.avif, .webp, .jpeg]),
        (#"{"formats": ["webp", "avif", "jpeg"]}"#, [.webp, .avif, .jpeg]),
        (#"{"formats": ["webp", "jpeg"]}"#, [.webp, .jpeg]),
        (#"{"formats": ["avif", "jpeg"]}"#, [.avif, .jpeg]),
        (#"{"formats": ["jpeg"]}"#, [.jpeg]),
    ])
    func formatsAreReadInPreferenceOrder(json: String, formats: [DeliveryFormat]) throws {
        #expect(try SiteConfiguration().applying(json: json, file: "w.json").formats == formats)
    }

    @Test func theDefaultIsJPEGAndTheEncoderSettingsAreRead() throws {
        #expect(SiteConfiguration().formats == [.jpeg])
        let configuration = try SiteConfiguration().applying(json: #"{"webpQuality": 70, "avifQuality": 55, "avifSpeed": 8}"#, file: "w.json")
        #expect(configuration.webpQuality == 70 && configuration.avifQuality == 55 && configuration.avifSpeed == 8)
    }

    /// The calibrated defaults (Benchmarks/calibration/results.md): WebP 88; AVIF speed 9, its quality the
    /// one that matches the JPEG's at whatever speed is set, unless a quality is set.
    @Test(arguments: [
        (#"{}"#, 88, 83, 9), (#"{"avifSpeed": 6}"#, 88, 73, 6), (#"{"avifSpeed": 2}"#, 88, 73, 2),
        (#"{"avifSpeed": 7}"#, 88, 76, 7), (#"{"avifSpeed": 8}"#, 88, 78, 8), (#"{"avifSpeed": 10}"#, 88, 83, 10),
        (#"{"avifSpeed": 6, "avifQuality": 55, "webpQuality": 70}"#, 70, 55, 6),
    ])
    func theQualitiesMatchTheJPEGUnlessSet(json: String, webp: Int, avif: Int, speed: Int) throws {
        let settings = EncoderSettings(configuration: try SiteConfiguration().applying(json: json, file: "w.json"))
        let box = ThumbnailRequest.width(500)
        #expect(settings.request(box, in: .webp).quality == webp)
        let request = settings.request(box, in: .avif)
        #expect(request.quality == avif && request.speed == speed)
        #expect(settings.request(box, in: .jpeg).quality == 82)
    }

    @Test(arguments: [
        (#"{"formats": ["avif", "webp"]}"#, "w.json: 'formats' must end with 'jpeg'"),
        (#"{"formats": ["jpeg", "avif"]}"#, "w.json: 'formats' must end with 'jpeg'"),
        (#"{"formats": []}"#, "w.json: 'formats' must be a list"),
        (#"{"formats": "avif"}"#, "w.json: 'formats' must be a list"),
        (#"{"formats": ["gif", "jpeg"]}"#, "w.json: 'formats' may list only 'avif', 'webp' and 'jpeg' (got 'gif')"),
        (#"{"formats": ["png"]}"#, "w.json: 'formats' may list only 'avif', 'webp' and 'jpeg' (got 'png')"),
        (#"{"formats": ["webp", "webp", "jpeg"]}"#, "w.json: 'formats' lists 'webp' twice"),
        (#"{"formats": ["avif", 1, "jpeg"]}"#, "w.json: 'formats[1]' must be a string (got a number)"),
        (#"{"webpQuality": 0}"#, "w.json: 'webpQuality' must be between 1 and 100 (got 0)"),
        (#"{"denseQuality": 0}"#, "w.json: 'denseQuality' must be between 1 and 100 (got 0)"),
        (#"{"denseQuality": "low"}"#, "w.json: 'denseQuality' must be a whole number (got the string \"low\")"),
        (#"{"avifQuality": 101}"#, "w.json: 'avifQuality' must be between 1 and 100 (got 101)"),
        (#"{"avifSpeed": 0}"#, "w.json: 'avifSpeed' must be between 1 and 10 (got 0)"),
        (#"{"avifSpeed": 11}"#, "w.json: 'avifSpeed' must be between 1 and 10 (got 11)"),
        (#"{"avifSpeed": 2.5}"#, "w.json: 'avifSpeed' must be a whole number (got a number)"),
    ])
    func badFormatSettingsNameTheKeyAndTheFile(json: String, message: String) {
        do {
            _ = try SiteConfiguration().applying(json: json, file: "w.json")
            Issue.record("\(json) was accepted")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test(arguments: ["formats", "webpQuality", "avifQuality", "avifSpeed", "denseQuality"])
    func anAlbumCannotSetThem(key: String) {
        let value = key == "formats" ? #"["webp", "jpeg"]"# : "5"
        do {
            _ = try SiteConfiguration.albumSettings(json: "{\"\(key)\": \(value)}", file: "Trip/waterfall.json")
            Issue.record("an album set \(key)")
        } catch {
            #expect(error.description == "Trip/waterfall.json: '\(key)' can only be set in the top folder's waterfall.json "
                + "(an album may set title, description, sort, reverse and cover)")
        }
    }

    @Test func theFlagIsCheckedLikeTheSetting() throws {
        let run = try WaterfallProcess.run(["build", ".", "-o", "/nonexistent/out", "--formats", "jpeg,avif"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--formats must end with 'jpeg'"), "\(run.stderr)")
    }

    // MARK: - Builds

    static let cutout = Fixtures.root.appendingPathComponent("../../../SampleGallery/chelsea-cutout.png").standardized.path

    /// A landscape, a tall photo, a PNG without alpha and a cut-out with alpha.
    static func gallery() throws -> TemporaryFolder {
        let input = try TemporaryFolder()
        for name in ["coffee-cup.jpg", "hubble-tall.jpg", "cameraman-skyline.png"] {
            try input.copy(BuildCommandTests.gallery + "/" + name, as: name)
        }
        try input.copy(cutout, as: "cutout.png")
        return input
    }

    func build(_ arguments: [String]) throws -> (run: WaterfallProcess.Outcome, images: [String: Int]) {
        try WaterfallProcess.buildReportingImages(arguments)
    }

    /// Every `<tag …>` of the page, as its attributes.
    /// A photo page up to the neighbours' images it fetches ahead (`<template class="wf-ahead">`).
    static func ownView(_ page: String) -> String {
        String(page[..<(page.range(of: "<template")?.lowerBound ?? page.endIndex)])
    }

    static func elements(_ tag: String, in html: String) -> [[String: String]] {
        html.components(separatedBy: "<\(tag) ").dropFirst().map { rest in
            let body = rest.prefix { $0 != ">" }
            var attributes: [String: String] = [:]
            for part in body.components(separatedBy: "\" ") {
                let pieces = part.split(separator: "=", maxSplits: 1)
                guard pieces.count == 2 else { continue }
                attributes[pieces[0].trimmingCharacters(in: .whitespaces)] = pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            return attributes
        }
    }

    /// `a 500w, b 1000w` as [(a, 500), (b, 1000)].
    static func candidates(_ srcset: String) -> [(url: String, width: Int)] {
        srcset.components(separatedBy: ", ").map { candidate in
            let parts = candidate.split(separator: " ")
            return (String(parts[0]), Int(parts[1].dropLast())!)
        }
    }

    /// `waterfall inspect --json` of one file: its format and upright size.
    static func inspect(_ path: String) throws -> (format: String, width: Int, height: Int) {
        let run = try WaterfallProcess.run(["inspect", "--json", path])
        let list = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stderr)")
        let item = try #require(list.first)
        return (item["format"] as? String ?? "", item["width"] as? Int ?? 0, item["height"] as? Int ?? 0)
    }

    @Test func everyTileSizeAndTheViewComeInEveryFormat() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        _ = try build([input.path, "-o", output.path, "--formats", "avif,webp,jpeg"])
        let html = String(decoding: try Fixtures.bytes(output.path + "/index.html"), as: UTF8.self)
        let images = Self.elements("img", in: html), sources = Self.elements("source", in: html)
        #expect(images.count == 4)
        #expect(sources.count == 2 * images.count)
        #expect(html.components(separatedBy: "<picture>").count - 1 == images.count)
        for (index, image) in images.enumerated() {
            let fallback = Self.candidates(try #require(image["srcset"]))
            let avif = sources[2 * index], webp = sources[2 * index + 1]
            #expect(avif["type"] == "image/avif" && webp["type"] == "image/webp", "AVIF first, then WebP")
            for (source, ext, format) in [(avif, ".avif", "avif"), (webp, ".webp", "webp")] {
                #expect(source["sizes"] == image["sizes"])
                let listed = Self.candidates(try #require(source["srcset"]))
                #expect(listed.map(\.width) == fallback.map(\.width), "\(source)")
                for ((url, width), (fallbackURL, _)) in zip(listed, fallback) {
                    // The same folder and name as the fallback, with the format's extension.
                    #expect(url.hasSuffix(ext))
                    #expect(url.hasPrefix(fallbackURL.hasSuffix(".png") || fallbackURL.hasSuffix(".jpg")
                                          ? String(fallbackURL.dropLast(4)) : fallbackURL))
                    let read = try Self.inspect(output.path + "/" + url)
                    #expect(read.format == format && read.width == width, "\(url): \(read)")
                }
            }
            for (url, width) in fallback {
                let read = try Self.inspect(output.path + "/" + url)
                #expect(["jpeg", "png"].contains(read.format) && read.width == width, "\(url): \(read)")
            }
        }
        // The photo page: the view in each format, the same size, and the narrower tiles of that format beside it.
        let page = String(decoding: try Fixtures.bytes(output.path + "/photos/coffee-cup.jpg.html"), as: UTF8.self)
        let viewSources = Self.elements("source", in: Self.ownView(page))
        #expect(viewSources.map { $0["srcset"] ?? "" } == ["avif", "webp"].map { ext in
            ["217 217w", "276 276w", "414 414w", "500 500w", "540 540w", "view 600w"].map { "../images/" + $0.replacingOccurrences(of: " ", with: "/coffee-cup.jpg.\(ext) ") }
                .joined(separator: ", ")
        })
        #expect(page.contains(#"<img src="../images/view/coffee-cup.jpg" srcset="../images/217/coffee-cup.jpg 217w, "#))
        #expect(page.contains(#"../images/view/coffee-cup.jpg 600w" sizes="(min-width: 620px) 600px, (max-width: 40em) 100vw, calc(100vw - 20px)" width="600" height="400""#))
        for name in ["coffee-cup.jpg.avif", "coffee-cup.jpg.webp", "coffee-cup.jpg"] {
            let read = try Self.inspect(output.path + "/images/view/" + name)
            #expect(read.width == 600 && read.height == 400, "\(name): \(read)")
        }
        // The manifest records every file, the modern ones included; nothing is left out of it.
        let site = try CIBuildTests.snapshot(output.path)
        let imageFiles = site.keys.filter { $0.hasPrefix("images/") }
        #expect(imageFiles.count { $0.hasSuffix(".avif") } == imageFiles.count { $0.hasSuffix(".webp") })
        #expect(imageFiles.count { $0.hasSuffix(".avif") } == imageFiles.count { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") })
        #expect(LinkChecker.brokenLinks(in: output.path).isEmpty)
    }

    /// The markup of a three-format gallery and photo page, byte for byte (re-record on purpose only:
    /// WATERFALL_RECORD=1 swift test).
    @Test func thePicturesMarkupIsGolden() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        _ = try build([input.path, "-o", output.path, "--formats", "avif,webp,jpeg", "--title", "Formats"])
        try SiteStructureTests().golden(output.path + "/index.html", as: "formats-index.html")
        try SiteStructureTests().golden(output.path + "/photos/cutout.png.html", as: "formats-photo.html")
    }

    @Test func withJPEGAloneTilesStayPlainImages() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        _ = try build([input.path, "-o", output.path])
        let html = String(decoding: try Fixtures.bytes(output.path + "/index.html"), as: UTF8.self)
        #expect(!html.contains("<picture") && !html.contains("<source"))
        #expect(!(try CIBuildTests.snapshot(output.path)).keys.contains { $0.hasSuffix(".avif") || $0.hasSuffix(".webp") })
    }

    @Test func addingAFormatMakesOnlyThatFormatAndKeepsTheRest() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        let first = try build([input.path, "-o", output.path])
        let jpegs = try #require(first.images["made"])
        #expect(first.images["kept"] == 0)
        let before = try CIBuildTests.snapshot(output.path)

        let second = try build([input.path, "-o", output.path, "--formats", "webp,jpeg"])
        #expect(second.images == ["made": jpegs, "kept": jpegs], "only the WebPs are new")
        let after = try CIBuildTests.snapshot(output.path)
        for (path, bytes) in before where path.hasPrefix("images/") {
            #expect(after[path] == bytes, "\(path) changed")
        }

        // A WebP quality change remakes the WebPs alone; an AVIF setting changes nothing without AVIF.
        try input.write("waterfall.json", Array(#"{"webpQuality": 60, "avifSpeed": 6}"#.utf8))
        let third = try build([input.path, "-o", output.path, "--formats", "webp,jpeg"])
        #expect(third.images == ["made": jpegs, "kept": jpegs])
        let fourth = try build([input.path, "-o", output.path, "--formats", "webp,jpeg"])
        #expect(fourth.images == ["made": 0, "kept": 2 * jpegs])
    }

    /// The matched AVIF quality is a quality like any other: setting it explicitly remakes nothing, and a
    /// new speed remakes the AVIFs alone (at that speed's own matched quality).
    @Test func theMatchedAVIFQualityIsKeyedByWhatItResolvesTo() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        let first = try build([input.path, "-o", output.path, "--formats", "avif,jpeg"])
        let each = try #require(first.images["made"]) / 2
        try input.write("waterfall.json", Array(#"{"avifQuality": 83}"#.utf8))
        #expect(try build([input.path, "-o", output.path, "--formats", "avif,jpeg"]).images == ["made": 0, "kept": 2 * each])
        try input.write("waterfall.json", Array(#"{"avifSpeed": 8}"#.utf8))
        #expect(try build([input.path, "-o", output.path, "--formats", "avif,jpeg"]).images == ["made": each, "kept": each])
        try input.write("waterfall.json", Array(#"{"avifSpeed": 8, "avifQuality": 78}"#.utf8))
        #expect(try build([input.path, "-o", output.path, "--formats", "avif,jpeg"]).images == ["made": 0, "kept": 2 * each])
    }

    @Test func shardsCoverEveryFormatAndBuildsAreByteIdentical() throws {
        let input = try Self.gallery()
        let one = try TemporaryFolder(), two = try TemporaryFolder()
        let formats = ["--formats", "avif,webp,jpeg"]
        _ = try build([input.path, "-o", one.path] + formats)
        _ = try build([input.path, "-o", two.path, "--jobs", "1"] + formats)
        #expect(try CIBuildTests.snapshot(one.path) == CIBuildTests.snapshot(two.path))

        // Two shards fill two caches; a build with the merged cache makes nothing and writes the same site.
        let shards = try (1...2).map { _ in try TemporaryFolder() }
        for (index, shard) in shards.enumerated() {
            _ = try build([input.path, "-o", shard.path + "/out", "--cache-dir", shard.path + "/cache", "--shard", "\(index + 1)/2"] + formats)
        }
        let merged = try TemporaryFolder()
        // The shards' folders must outlive the merge: an optimised build may end their lives (and remove them)
        // right after their last use.
        try withExtendedLifetime(shards) {
            try CIBuildTests.merge(shards.map { $0.path + "/cache" }, into: merged.path + "/cache")
        }
        let final = try build([input.path, "-o", merged.path + "/out", "--cache-dir", merged.path + "/cache"] + formats)
        #expect(final.images["made"] == 0, "\(final.images)")
        #expect(try CIBuildTests.snapshot(merged.path + "/out") == CIBuildTests.snapshot(one.path))
    }

    @Test func aPhotoWithAlphaGetsAPNGFallbackAndKeepsAlphaInAVIFAndWebP() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        _ = try build([input.path, "-o", output.path, "--formats", "avif,webp,jpeg"])
        let site = try CIBuildTests.snapshot(output.path)
        for size in ["217", "view"] {
            #expect(site["images/\(size)/cutout.png"] != nil, "the fallback is PNG")
            #expect(site["images/\(size)/cutout.png.jpg"] == nil)
            let webp = try #require(site["images/\(size)/cutout.png.webp"])
            // VP8X with its alpha flag.
            #expect(webp.count > 21 && Array(webp[12..<16]) == Array("VP8X".utf8) && webp[20] & 0x10 != 0)
            let avif = try #require(site["images/\(size)/cutout.png.avif"])
            #expect(Self.contains(avif, "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"), "an alpha auxiliary image")
            // The opaque PNG has none.
            let opaque = try #require(site["images/\(size)/cameraman-skyline.png.avif"])
            #expect(!Self.contains(opaque, "auxiliary:alpha"))
            #expect(site["images/\(size)/cameraman-skyline.png.jpg"] != nil)
        }
    }

    /// `a.jpg`'s AVIF is named `a.jpg.avif`, which is also the name of a real AVIF photo `a.jpg.avif`'s own
    /// AVIF; `a.avif`'s JPEG fallback is `a.avif.jpg`, the name of a JPEG photo `a.avif.jpg`. Every tile must
    /// still show its own photo in every format, from files no other tile uses.
    @Test func namesThatMeetAcrossFormatsGetFilesOfTheirOwn() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let avif = Fixtures.root.appendingPathComponent("../../../SampleGallery/Phone/retina-macula.avif").standardized.path
        try input.copy(BuildCommandTests.gallery + "/coffee-cup.jpg", as: "a.jpg")      // 600×400
        try input.copy(avif, as: "a.jpg.avif")
        try input.copy(avif, as: "a.avif")
        try input.copy(BuildCommandTests.gallery + "/hubble-tall.jpg", as: "a.avif.jpg")  // tall
        _ = try build([input.path, "-o", output.path, "--formats", "avif,webp,jpeg"])
        let html = String(decoding: try Fixtures.bytes(output.path + "/index.html"), as: UTF8.self)
        #expect(html.components(separatedBy: "<picture>").count - 1 == 4)
        var owners: [String: String] = [:]  // file -> the photo whose tile lists it
        for tile in html.components(separatedBy: "data-tile=").dropFirst() {
            let photo = try #require(tile.components(separatedBy: "href=\"photos/").dropFirst().first?
                .components(separatedBy: ".html\"").first, "a tile links to its photo page")
            let source = try Self.inspect(input.path + "/" + photo)
            let lists = Self.elements("source", in: tile).prefix(2).map { $0["srcset"] ?? "" }
                + [Self.elements("img", in: tile).first?["srcset"] ?? ""]
            #expect(lists.count == 3, "\(photo): two sources and the img")
            for (list, format) in zip(lists, ["avif", "webp", "jpeg"]) {
                for (url, width) in Self.candidates(list) {
                    #expect(owners.updateValue(photo, forKey: url) == nil, "\(url) is listed by two tiles")
                    let read = try Self.inspect(output.path + "/" + url)
                    #expect(read.format == format && read.width == width, "\(photo): \(url) is \(read)")
                    // Its own photo's shape, to the pixel of rounding.
                    #expect(abs(read.height - width * source.height / source.width) <= 1, "\(photo): \(url) is \(read), photo \(source)")
                }
            }
        }
        #expect(Set(owners.values).count == 4)
        #expect(LinkChecker.brokenLinks(in: output.path).isEmpty)
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<$0 + needle.count]) == needle }
    }

    // MARK: - A size a format cannot hold

    /// A 1080×20000 screenshot's 1000-px tile is 18519 px tall, more than WebP holds: its WebP images are left
    /// out (with a line saying so), and the photo is published with its JPEG or PNG fallback.
    @Test func aPhotoTooTallForWebPIsPublishedWithoutIt() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.inRepository("SampleGallery/coffee-cup.jpg"), as: "cup.jpg")
        try TrustIsolationTests.python("""
            import struct, sys, zlib
            w, h = 1080, 20000
            raw = zlib.compress((b"\\0" + bytes(range(256)) * 4 + b"\\0" * (w - 1024)) * h, 9)
            def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            open(sys.argv[1], "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                                         + chunk(b"IDAT", raw) + chunk(b"IEND", b""))
            """, input.path + "/screenshot.png")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--formats", "webp,jpeg"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: \(input.path)/screenshot.png: its WebP images are left out (a 1000×18519 image is too "
            + "large for WebP, which holds 16383 pixels a side); the JPEG or PNG fallback is published\n"), "\(run.stderr)")
        #expect(run.stderr.contains("2 photos, 0 skipped"), "\(run.stderr)")
        let files = try Fixtures.siteFiles(in: output.path)
        #expect(files.contains("images/1000/screenshot.png.jpg") && files.contains("images/view/screenshot.png.jpg"))
        #expect(!files.contains { $0.hasPrefix("images/") && $0.contains("screenshot") && $0.hasSuffix(".webp") }, "\(files)")
        #expect(files.contains("images/810/cup.jpg.webp"), "the other photo keeps its WebP images")
        let page = try String(contentsOfFile: output.path + "/photos/screenshot.png.html", encoding: .utf8)
        #expect(!Self.ownView(page).contains("image/webp"))
        // Its neighbour's view is fetched ahead in every format it has.
        #expect(page.contains(#"<template class="wf-ahead"><picture><source type="image/webp" srcset="../images/"#), "\(page)")
    }
}
