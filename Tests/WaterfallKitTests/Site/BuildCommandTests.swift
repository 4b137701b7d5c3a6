import Foundation
import Testing
@testable import WaterfallKit

/// `waterfall build`, run as users run it: the real binary on real folders.
struct BuildCommandTests {
    static let gallery = Fixtures.root.appendingPathComponent("gallery").path
    /// The fixture gallery's readable photos, in natural order.
    static let readablePhotos = [
        "astronaut-helmet.jpg", "astronaut-portrait.jpg", "cameraman-skyline.png", "chelsea-portrait.jpg",
        "clock-motion-blur.jpg", "coffee-cup.jpg", "coffee-panorama.jpg", "coffee-spoon.jpg", "hubble-galaxy-1.jpg",
        "hubble-galaxy-2.jpg", "hubble-galaxy-10.png", "hubble-tall.jpg", "retina-vessels-tall.jpg",
        "rocket-launch-tall.jpg", "rocket-panorama.jpg",
    ]

    /// Why the fixture gallery's not-a-photo.jpg (a text file) is skipped.
    static let notAPhotoReason = "not an image format Waterfall reads (starts with 54 68 69 73)"

    func read(_ path: String) throws -> String { String(decoding: try Fixtures.bytes(path), as: UTF8.self) }

    /// The `href` of every tile, in page order.
    func tileLinks(_ html: String) -> [String] {
        html.components(separatedBy: "<li class=\"wf-tile\"").dropFirst().compactMap { tile in
            guard let start = tile.range(of: "href=\"")?.upperBound, let end = tile[start...].firstIndex(of: "\"") else { return nil }
            return String(tile[start..<end])
        }
    }

    @Test func buildsTheFixtureGallery() throws {
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", Self.gallery, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try read(output.path + "/index.html")
        // Tiles link to photo pages; an opaque PNG is published as JPEG, one with transparency stays PNG.
        #expect(tileLinks(html) == Self.readablePhotos.map { "photos/\($0).html" })
        let published = Self.readablePhotos.map { $0 == "cameraman-skyline.png" ? $0 + ".jpg" : $0 }
        #expect(html.contains("<title>Fixture gallery</title>"))
        #expect(html.contains("Photos for the tests &amp; &lt;checks&gt;"))
        #expect(html.contains("data-footer"))
        for (index, name) in published.enumerated() {
            #expect(html.contains("data-tile=\"\(index)\""))
            #expect(FileManager.default.fileExists(atPath: output.path + "/images/view/" + name))
            #expect(FileManager.default.fileExists(atPath: output.path + "/photos/\(Self.readablePhotos[index]).html"))
        }
        // Originals are not published unless asked for.
        #expect(!FileManager.default.fileExists(atPath: output.path + "/originals"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/assets/waterfall.css"))
        // One warning for the text file named .jpg; notes.txt and waterfall.json are not photos and say nothing.
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("skipped") && $0.hasPrefix("waterfall:") }
            == ["waterfall: \(Self.gallery)/not-a-photo.jpg: skipped: \(Self.notAPhotoReason)"])
        #expect(!run.stderr.contains("notes.txt"))
        #expect(lines.last?.hasPrefix("15 photos, 1 skipped, 60 of 60 images made, ") == true, "\(lines.last ?? "")")
        #expect(lines.last?.hasSuffix(" s → \(output.path)/index.html") == true)
    }

    @Test func imagesCarryTheirDisplaySizeAndFirstScreenTilesLoadEagerly() throws {
        let output = try TemporaryFolder()
        _ = try WaterfallProcess.run(["build", Self.gallery, "-o", output.path, "--quiet"])
        let html = try read(output.path + "/index.html")
        // astronaut-portrait.jpg is stored 400×300 with orientation 6: it displays 300×400.
        #expect(html.contains(#"<img src="images/217/astronaut-portrait.jpg" srcset="images/217/astronaut-portrait.jpg 217w, images/276/astronaut-portrait.jpg 276w, images/414/astronaut-portrait.jpg 300w" sizes="(min-width: 1420px) calc((100vw - 60px) / 5), (min-width: 920px) calc((100vw - 50px) / 4), (min-width: 620px) calc((100vw - 40px) / 3), calc((100vw - 30px) / 2)" width="300" height="400" alt="Astronaut Eileen Collins in her orange launch suit, with a flag and a space shuttle model (scikit-image sample data; NASA)" decoding="async">"#))
        // A gallery taller than a screen at every width: its first tiles load eagerly, its last ones lazily.
        let tall = try TemporaryFolder(), sample = try TemporaryFolder()
        for index in 1...40 { try tall.copy(Fixtures.conformance("exif-orientation/Portrait_1.jpg"), as: "p\(index).jpg") }
        _ = try WaterfallProcess.run(["build", tall.path, "-o", sample.path, "--quiet"])
        let page = try read(sample.path + "/index.html")
        let lazy = page.components(separatedBy: "loading=\"lazy\"").count - 1
        #expect(lazy > 10 && lazy < 40, "\(lazy) lazy images of 40")
        #expect(!page.contains(#"alt="p1" decoding="async" loading="lazy""#))
    }

    @Test func outputIsDeterministic() throws {
        let first = try TemporaryFolder(), second = try TemporaryFolder()
        _ = try WaterfallProcess.run(["build", Self.gallery, "-o", first.path, "--quiet"])
        _ = try WaterfallProcess.run(["build", Self.gallery, "-o", second.path, "--quiet", "--jobs", "1"])
        // Every file of the site (the .waterfall state folder is the build's own bookkeeping, not the site).
        let files = try Fixtures.siteFiles(in: first.path)
        #expect(files == (try Fixtures.siteFiles(in: second.path)))
        #expect(files.count > 40)
        for file in files {
            #expect(try Fixtures.bytes(first.path + "/" + file) == Fixtures.bytes(second.path + "/" + file), "\(file)")
        }
    }

    /// Golden page for the fixture gallery. Re-record on purpose only: WATERFALL_RECORD=1 swift test.
    @Test func goldenPage() throws {
        let output = try TemporaryFolder()
        _ = try WaterfallProcess.run(["build", Self.gallery, "-o", output.path, "--quiet"])
        let golden = Fixtures.root.appendingPathComponent("golden/gallery-index.html").path
        let html = try Fixtures.bytes(output.path + "/index.html")
        if ProcessInfo.processInfo.environment["WATERFALL_RECORD"] == "1" {
            try FileManager.default.createDirectory(atPath: (golden as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(html).write(to: URL(fileURLWithPath: golden))
        }
        #expect(html == (try? Fixtures.bytes(golden)), "index.html differs from \(golden); re-record with WATERFALL_RECORD=1 if the change is intended")
    }

    @Test func hostileNamesAreEscapedAndEncoded() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let jpeg = try Fixtures.bytes(Fixtures.header("J01-baseline-jfif.jpg"))
        let names = ["a b.jpg", "c#d.jpg", "e?f.jpg", "100%.jpg", "g&h.jpg", "it's \"q\".jpg", "<script>x.jpg", "ünï çödé.jpg", "日本.jpg"]
        for name in names { try input.write(name, jpeg) }
        try input.write("waterfall.json", Array(#"{"title": "<b>T&C</b>", "footerText": "\"quoted\" <i>"}"#.utf8))
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try read(output.path + "/index.html")
        #expect(!html.contains("<script>") && !html.contains("<b>") && !html.contains("<i>"))
        #expect(html.contains("&lt;b&gt;T&amp;C&lt;/b&gt;"))
        let links = tileLinks(html)
        #expect(links.count == names.count)
        for link in links {
            #expect(link.allSatisfy { $0.isASCII && !" #?&'\"<>".contains($0) }, "\(link)")
            let decoded = try #require(link.removingPercentEncoding)
            #expect(FileManager.default.fileExists(atPath: output.path + "/" + decoded), "\(decoded)")
        }
        #expect(links.contains("photos/100%25.jpg.html") && links.contains("photos/c%23d.jpg.html") && links.contains("photos/e%3Ff.jpg.html"))
        #expect(LinkChecker.brokenLinks(in: output.path).isEmpty, "\(LinkChecker.brokenLinks(in: output.path))")
    }

    @Test func rebuildRemovesWhatItNoLongerWritesAndNothingElse() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let jpeg = try Fixtures.bytes(Fixtures.header("J01-baseline-jfif.jpg"))
        try input.write("keep.jpg", jpeg)
        try input.write("drop.jpg", jpeg)
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        try output.write("CNAME", Array("example.org\n".utf8))       // someone else's file
        try output.write("images/view/notes.md", Array("mine\n".utf8))  // even inside a folder Waterfall writes
        try FileManager.default.removeItem(atPath: input.path + "/drop.jpg")
        let modified = try FileManager.default.attributesOfItem(atPath: output.path + "/assets/waterfall.css")[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.02)
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/images/view/drop.jpg"))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/images/217/drop.jpg"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/images/view/keep.jpg"))
        #expect(try read(output.path + "/CNAME") == "example.org\n")
        #expect(try read(output.path + "/images/view/notes.md") == "mine\n")
        // An unchanged file is not rewritten.
        #expect(try FileManager.default.attributesOfItem(atPath: output.path + "/assets/waterfall.css")[.modificationDate] as? Date == modified)
    }

    @Test func aForeignFileInTheWayIsNeverOverwritten() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a.jpg")
        try output.write("index.html", Array("<p>my own page</p>".utf8))
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 1)
        #expect(run.stderr == "waterfall: \(output.path)/index.html: exists and was not written by Waterfall; move it away or choose another output folder\n")
        #expect(try read(output.path + "/index.html") == "<p>my own page</p>")
    }

    @Test func strictFailsOnABadPhotoAndWritesNothing() throws {
        let output = try TemporaryFolder()
        let target = output.path + "/site"
        let run = try WaterfallProcess.run(["build", Self.gallery, "-o", target, "--strict"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("not-a-photo.jpg: skipped: \(Self.notAPhotoReason)"))
        #expect(run.stderr.contains("1 file or folder of the input could not be read (--strict); the site was not written (the other photos' images are in the cache)"))
        // The photos are read from one open each, which makes their images too: those are kept in the cache, and
        // nothing of the site is written.
        let written = try FileManager.default.contentsOfDirectory(atPath: target)
        #expect(written == [".waterfall"], "\(written)")
    }

    @Test func outputInsideInputIsNeverScannedAndOutputEqualToInputIsRefused() throws {
        let input = try TemporaryFolder()
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a.jpg")
        for _ in 0..<2 {
            let run = try WaterfallProcess.run(["build", ".", "-o", "_site"], in: input.path)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").last?.hasPrefix("1 photo, 0 skipped") == true, "\(run.stderr)")
        }
        let same = try WaterfallProcess.run(["build", input.path, "-o", input.path + "/."])
        #expect(same.status == 1)
        #expect(same.stderr.contains("is the input folder"))
    }

    @Test func emptyFolderGivesAValidEmptyGalleryAndAWarning() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0)
        #expect(run.stderr.contains("warning: no photos in \(input.path); the gallery is empty"))
        let html = try read(output.path + "/index.html")
        #expect(html.contains("No photos yet.") && html.contains("data-footer") && !html.contains("data-tile"))
    }

    @Test(arguments: [
        (#"{"colums": 3}"#, "waterfall.json: unknown key 'colums'"),
        (#"{"title": 3}"#, "waterfall.json: 'title' must be a string (got a number)"),
        (#"{"columnSpacing": "wide"}"#, "waterfall.json: 'columnSpacing' must be a number (got the string \"wide\")"),
        (#"{"bands": [{"minWidth": 0, "cols": 2}]}"#, "waterfall.json: unknown key 'bands[0].cols'"),
        (#"{"maxPixels": 1.5}"#, "waterfall.json: 'maxPixels' must be a whole number (got a number)"),
        ("{\n  \"title\": \"x\",\n}", "waterfall.json:3:1: expected a key in double quotes"),
    ])
    func configurationErrorsNameTheKeyAndTheFile(json: String, message: String) throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a.jpg")
        try input.write("waterfall.json", Array(json.utf8))
        let run = try WaterfallProcess.run(["build", ".", "-o", output.path], in: input.path)
        #expect(run.status == 1)
        #expect(run.stderr == "waterfall: ./\(message)\n")
    }

    @Test func flagsOverrideTheFile() throws {
        let output = try TemporaryFolder()
        _ = try WaterfallProcess.run(["build", Self.gallery, "-o", output.path, "--quiet", "--title", "Über & Co"])
        #expect(try read(output.path + "/index.html").contains("<title>Über &amp; Co</title>"))
    }

    /// `--placement`, `--bottom` and `--max-crop` reach the page, over the settings file.
    @Test func layoutFlagsReachThePage() throws {
        let settings = try TemporaryFolder()
        try settings.write("flush.json", Array(#"{"bottom": "flush", "placement": "shortest"}"#.utf8))
        func page(_ flags: [String]) throws -> String {
            let output = try TemporaryFolder()
            let run = try WaterfallProcess.run(["build", Self.gallery, "-o", output.path, "--quiet",
                                                "--config", settings.path + "/flush.json"] + flags)
            #expect(run.status == 0, "\(run.stderr)")
            return try read(output.path + "/index.html")
        }
        // Round robin: tile i in column i mod 2 in the first band, whatever the heights.
        let roundRobin = try page(["--placement", "round-robin"]).components(separatedBy: "id=\"tile-").dropFirst()
        #expect(roundRobin.count == 15)
        for (index, tile) in roundRobin.enumerated() { #expect(tile.contains(";--c0:\(index % 2);--t0:"), "\(tile.prefix(120))") }
        // The fixture gallery levels in every band with balanced placement (the browser tests hold it to
        // that); --bottom natural undoes the file's flush, and so does a zero crop limit.
        #expect(try page(["--placement", "balanced"]).contains(":clamp("))
        #expect(try !page(["--placement", "balanced", "--bottom", "natural"]).contains(":clamp("))
        #expect(try !page(["--placement", "balanced", "--max-crop", "0"]).contains(":clamp("))
    }

    @Test(arguments: [
        (["build", "a", "b"], "build takes one input folder, got 2"),
        (["build", "--jobs", "0"], "--jobs needs a whole number"),
        (["build", "--output"], "option --output needs a value"),
        (["build", "--frobnicate"], "unknown option --frobnicate"),
        (["build", "--placement", "grid"], "--placement must be 'balanced', 'shortest' or 'round-robin' (got 'grid')"),
        (["build", "--bottom", "even"], "--bottom must be 'natural' or 'flush' (got 'even')"),
        (["build", "--max-crop", "0.9"], "--max-crop must be between 0 and 0.5 (got 0.9)"),
    ])
    func usageErrorsExit64(arguments: [String], message: String) throws {
        let run = try WaterfallProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}

/// `make install` lays out PREFIX/bin/waterfall and PREFIX/share/waterfall/Templates; the installed binary
/// must find that theme from anywhere.
struct InstalledThemeTests {
    @Test func anInstalledBinaryFindsItsThemeBesideIt() throws {
        let prefix = try TemporaryFolder()
        let repository = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manager = FileManager.default
        try manager.createDirectory(atPath: prefix.path + "/bin", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: prefix.path + "/share/waterfall", withIntermediateDirectories: true)
        try manager.copyItem(atPath: WaterfallProcess.executable.path, toPath: prefix.path + "/bin/waterfall")
        try manager.copyItem(atPath: repository.appendingPathComponent("Templates").path,
                             toPath: prefix.path + "/share/waterfall/Templates")
        // Mark the installed theme, to see that it is the one used.
        let header = prefix.path + "/share/waterfall/Templates/header.mustache"
        try (String(contentsOfFile: header, encoding: .utf8) + "<!-- installed theme -->\n").write(toFile: header, atomically: true, encoding: .utf8)
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a.jpg")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prefix.path + "/bin/waterfall")
        process.arguments = ["build", input.path, "-o", output.path, "--quiet"]
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let html = String(decoding: try Fixtures.bytes(output.path + "/index.html"), as: UTF8.self)
        #expect(html.contains("<!-- installed theme -->"))
    }

    @Test func aCustomThemeIsUsedAndItsErrorsPointAtTheTemplate() throws {
        let theme = try TemporaryFolder(), output = try TemporaryFolder()
        try theme.write("page.mustache", Array("<h1>{{title}}</h1>\n{{#tiles}}<i>{{name}}</i>{{/tiles}}\n".utf8))
        try theme.write("photo.mustache", Array("<img src=\"{{photo.src}}\">\n".utf8))
        try theme.write("assets/site.css", Array("body{}".utf8))
        #expect(try WaterfallProcess.run(["build", BuildCommandTests.gallery, "-o", output.path, "--quiet"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: output.path + "/assets/waterfall.css"))
        let good = try WaterfallProcess.run(["build", BuildCommandTests.gallery, "-o", output.path, "--templates", theme.path, "--quiet"])
        #expect(good.status == 0, "\(good.stderr)")
        let html = String(decoding: try Fixtures.bytes(output.path + "/index.html"), as: UTF8.self)
        #expect(html.hasPrefix("<h1>Fixture gallery</h1>\n<i>astronaut-helmet.jpg</i>"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/assets/site.css"))
        // The default theme's stylesheet, written by the last build, is gone with it.
        #expect(!FileManager.default.fileExists(atPath: output.path + "/assets/waterfall.css"))

        try theme.write("page.mustache", Array("<h1>{{title}}</h1>\n{{#tiles}}\n  <i>{{name}</i>\n".utf8))
        let bad = try WaterfallProcess.run(["build", BuildCommandTests.gallery, "-o", output.path, "--templates", theme.path])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("page.mustache:3:6: unclosed tag"), "\(bad.stderr)")
    }
}
