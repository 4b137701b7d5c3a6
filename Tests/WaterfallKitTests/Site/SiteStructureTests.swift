import Foundation
import Testing
@testable import WaterfallKit

/// Albums, pagination, photo pages, captions and sorting, as the built site shows them.
struct SiteStructureTests {
    static let repository = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func read(_ path: String) throws -> String { String(decoding: try Fixtures.bytes(path), as: UTF8.self) }

    func tileLinks(_ html: String) -> [String] {
        html.components(separatedBy: "data-tile=").dropFirst().compactMap { tile in
            guard let start = tile.range(of: "href=\"")?.upperBound, let end = tile[start...].firstIndex(of: "\"") else { return nil }
            return String(tile[start..<end])
        }
    }

    @Test func theSampleGalleryHasNoBrokenLinks() throws {
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", Self.repository.appendingPathComponent("SampleGallery").path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(LinkChecker.brokenLinks(in: output.path) == [])
        // The albums are cover tiles on the top page, in name order, with their photo counts (Space's Hubble
        // sub-album included).
        let top = try read(output.path + "/index.html")
        #expect(Array(tileLinks(top).prefix(2)) == ["Phone/index.html", "Space/index.html"])
        #expect(top.contains(#"<strong aria-hidden="true">Space</strong> 14 photos"#))
        let space = try read(output.path + "/Space/index.html")
        #expect(tileLinks(space).first == "Hubble/index.html")
        #expect(space.contains(#"<a href="../index.html">Waterfall sample gallery</a>"#))
        // The cover the album's waterfall.json names.
        #expect(top.contains(#"src="Space/images/217/rocket-launch.jpg""#))
        let hubble = try read(output.path + "/Space/Hubble/index.html")
        #expect(hubble.contains(#"<span aria-current="page">Hubble</span>"#))
    }

    @Test func hostileNamesInNestedAlbumsKeepEveryLinkWorking() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let jpeg = try Fixtures.bytes(Fixtures.header("J01-baseline-jfif.jpg"))
        for folder in ["", "a b/", "c#d?/", "ü&<x> \"q\"/", "ü&<x> \"q\"/100%/"] {
            for name in ["x y.jpg", "1#2.jpg", "<b>&'.jpg", "ñ?.jpg"] { try input.write(folder + name, jpeg) }
        }
        try input.write("ü&<x> \"q\"/x y.txt", Array("<script>alert(1)</script>\nA & B".utf8))
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(LinkChecker.brokenLinks(in: output.path) == [])
        for page in FileManager.default.enumerator(atPath: output.path)!.compactMap({ $0 as? String }) where page.hasSuffix(".html") {
            let html = try read(output.path + "/" + page)
            #expect(!html.contains("<script>alert") && !html.contains("<b>&"), "\(page)")
        }
        let photo = try read(output.path + "/ü&<x> \"q\"/photos/x y.jpg.html")
        #expect(photo.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
        #expect(photo.contains("A &amp; B"))
    }

    @Test func pagesOfAPaginatedAlbumAndTheirPhotoPages() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for index in 1...7 { try input.copy(Fixtures.conformance("exif-orientation/Landscape_\(index).jpg"), as: "IMG_\(index).jpg") }
        try input.write("waterfall.json", Array(#"{"perPage": 3, "title": "Paged"}"#.utf8))
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        #expect(tileLinks(try read(output.path + "/index.html")) == ["photos/IMG_1.jpg.html", "photos/IMG_2.jpg.html", "photos/IMG_3.jpg.html"])
        let second = try read(output.path + "/page-2.html")
        #expect(tileLinks(second) == ["photos/IMG_4.jpg.html", "photos/IMG_5.jpg.html", "photos/IMG_6.jpg.html"])
        #expect(second.contains(#"<a href="index.html" rel="prev">← Previous</a>"#))
        #expect(second.contains(#"<span aria-current="page">2</span>"#))
        #expect(second.contains(#"<a href="page-3.html" rel="next">Next →</a>"#))
        #expect(tileLinks(try read(output.path + "/page-3.html")) == ["photos/IMG_7.jpg.html"])
        let photo = try read(output.path + "/photos/IMG_5.jpg.html")
        #expect(photo.contains(#"<a href="IMG_4.jpg.html" rel="prev" data-key="ArrowLeft"><b aria-hidden="true">←</b> <span>IMG 4</span></a>"#))
        #expect(photo.contains(#"<a href="IMG_6.jpg.html" rel="next" data-key="ArrowRight"><span>IMG 6</span> <b aria-hidden="true">→</b></a>"#))
        #expect(photo.contains(#"<a href="../page-2.html#tile-1" class="wf-back" data-key="Escape"><b aria-hidden="true">↑</b> <span>Paged</span></a>"#))
        // The photo's area carries its size, from which the theme fits it to the window; the image its colour
        // and its sketch (a PNG).
        #expect(photo.contains(#"<div class="wf-view" style="--wf-width: 1800; --wf-height: 1200">"# + "\n"
                               + #"<img src="../images/view/IMG_5.jpg" srcset="../images/217/IMG_5.jpg 217w, "#))
        // The tiles' widths stand in for the view on narrower screens, chosen by the width the page gives it.
        #expect(photo.contains(#"../images/1000/IMG_5.jpg 1000w, ../images/view/IMG_5.jpg 1800w" "#
                               + #"sizes="(min-width: 1820px) 1800px, (max-width: 40em) 100vw, calc(100vw - 20px)" "#
                               + #"width="1800" height="1200" alt="IMG 5" decoding="async" "#
                               + #"style="--wf-color: #627586; --wf-sketch: url(data:image/png;base64,iVBORw0KGgo"#))
        // The links come before the photo, in the order they are shown; no caption, no empty figcaption.
        #expect(photo.range(of: #"class="wf-photo-nav""#)!.lowerBound < photo.range(of: "<figure>")!.lowerBound)
        #expect(!photo.contains("<figcaption>"))
        #expect(LinkChecker.brokenLinks(in: output.path) == [])
        try golden(output.path + "/page-2.html", as: "paged-page-2.html")
        try golden(output.path + "/photos/IMG_5.jpg.html", as: "paged-photo.html")
    }

    /// Golden pages, re-recorded on purpose only: WATERFALL_RECORD=1 swift test.
    func golden(_ path: String, as name: String) throws {
        let golden = Fixtures.root.appendingPathComponent("golden/" + name).path
        let bytes = try Fixtures.bytes(path)
        if ProcessInfo.processInfo.environment["WATERFALL_RECORD"] == "1" { try Data(bytes).write(to: URL(fileURLWithPath: golden)) }
        #expect(bytes == (try? Fixtures.bytes(golden)), "\(name) differs from \(golden); re-record with WATERFALL_RECORD=1 if intended")
    }

    @Test func captionsFromSidecarFiles() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for name in ["a.jpg", "b.jpg", "c.jpg"] { try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: name) }
        try input.write("a.txt", Array("Harbour at dawn\n\nFishing boats, before the fog lifted.\n".utf8))
        try input.write("b.jpg.txt", Array("  Only a title  \r\n".utf8))
        try input.write("c.txt", Array("\n\n".utf8))
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        let page = try read(output.path + "/index.html")
        #expect(page.contains(#"alt="Harbour at dawn""#) && page.contains(#"<span class="wf-caption" aria-hidden="true">Harbour at dawn</span>"#))
        #expect(page.contains(#"alt="Only a title""#))
        #expect(page.contains(#"alt="c""#) && !page.contains(#"<span class="wf-caption" aria-hidden="true">c"#))
        let photo = try read(output.path + "/photos/a.jpg.html")
        #expect(photo.contains("<h1>Harbour at dawn</h1>") && photo.contains("<figcaption>\n<p class=\"wf-description\">Fishing boats, before the fog lifted.</p>"))
        // A title alone is the page's heading: the figure then has no (empty) caption.
        let titleOnly = try read(output.path + "/photos/b.jpg.html")
        #expect(titleOnly.contains("<h1>Only a title</h1>") && !titleOnly.contains("<figcaption>"))
    }

    @Test func sortOrders() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let dates: [(String, Int)] = [("IMG_10.jpg", 300), ("IMG_2.jpg", 100), ("img_1.jpg", 200), ("b.jpg", 200)]
        for (name, age) in dates {
            let path = try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: name)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000 + Double(age))], ofItemAtPath: path)
        }
        func order(_ json: String) throws -> [String] {
            try input.write("waterfall.json", Array(json.utf8))
            #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
            return tileLinks(try read(output.path + "/index.html")).map { String($0.dropFirst("photos/".count).dropLast(".html".count)) }
        }
        #expect(try order("{}") == ["b.jpg", "img_1.jpg", "IMG_2.jpg", "IMG_10.jpg"])
        #expect(try order(#"{"reverse": true}"#) == ["IMG_10.jpg", "IMG_2.jpg", "img_1.jpg", "b.jpg"])
        // By date (these files carry no EXIF date: their modification times), ties by name.
        #expect(try order(#"{"sort": "date"}"#) == ["IMG_2.jpg", "b.jpg", "img_1.jpg", "IMG_10.jpg"])
        #expect(try order(#"{"sort": "date", "reverse": true}"#) == ["IMG_10.jpg", "img_1.jpg", "b.jpg", "IMG_2.jpg"])
    }

    @Test(arguments: [
        (#"{"columnSpacing": 4}"#, "'columnSpacing' can only be set in the top folder's waterfall.json"),
        (#"{"titel": "x"}"#, "unknown key 'titel'"),
        (#"{"cover": 3}"#, "'cover' must be a string"),
    ])
    func albumSettingsErrorsNameTheFile(json: String, message: String) throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "Trip/a.jpg")
        try input.write("Trip/waterfall.json", Array(json.utf8))
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("Trip/waterfall.json: \(message)"), "\(run.stderr)")
    }
}

/// What a photo's own metadata puts on its pages.
struct PhotoFactsPageTests {
    func read(_ path: String) throws -> String { String(decoding: try Fixtures.bytes(path), as: UTF8.self) }
    static func exif(_ name: String) -> String { Fixtures.root.appendingPathComponent("exif/" + name).path }

    @Test func embeddedDescriptionsAndExifSummaryAppearAsTextAndGPSNever() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Self.exif("E04-html-description.jpg"), as: "markup.jpg")
        try input.copy(Self.exif("E01-all-facts-II.jpg"), as: "camera.jpg")
        try input.copy(Self.exif("E03-gps.jpg"), as: "position.jpg")
        try input.copy(Self.exif("P02-itxt-utf8.png"), as: "described.png")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        let facts = ExifReader().read(path: Self.exif("E04-html-description.jpg"))
        let description = try #require(facts.caption)
        #expect(description.contains("<script>"))
        let markup = try read(output.path + "/photos/markup.jpg.html")
        #expect(!markup.contains("<script>alert") && markup.contains("&lt;script&gt;"))
        let index = try read(output.path + "/index.html")
        #expect(!index.contains("<script>alert"))
        let camera = try read(output.path + "/photos/camera.jpg.html")
        let summary = try #require(ExifReader().read(path: Self.exif("E01-all-facts-II.jpg")).summary)
        #expect(camera.contains("<p class=\"wf-exif\">\(summary.replacingOccurrences(of: "&", with: "&amp;"))</p>"))
        #expect(camera.contains("<p class=\"wf-exif\">Taken "))
        // No GPS anywhere in the site: not in a page, and not in a derived image (checked elsewhere).
        for page in FileManager.default.enumerator(atPath: output.path)!.compactMap({ $0 as? String }) where page.hasSuffix(".html") {
            let html = try read(output.path + "/" + page)
            #expect(!html.lowercased().contains("gps") && !html.contains("°"), "\(page)")
        }
        let png = try read(output.path + "/photos/described.png.html")
        let pngCaption = try #require(ExifReader().read(path: Self.exif("P02-itxt-utf8.png")).caption)
        #expect(png.contains("<h1>\(pngCaption)</h1>") || png.contains("<h1>\(pngCaption.replacingOccurrences(of: "&", with: "&amp;"))</h1>"))
        // A sidecar caption wins over the embedded one.
        try input.write("markup.txt", Array("Plain words\n".utf8))
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        #expect(try read(output.path + "/photos/markup.jpg.html").contains("<h1>Plain words</h1>"))
    }

    @Test func dateOrderUsesTheExifDateBeforeTheFileTime() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        // E01 was taken in the past (EXIF); "b.jpg" has no EXIF date and a file time of 1970: it sorts first.
        try input.copy(Self.exif("E01-all-facts-II.jpg"), as: "a.jpg")
        let plain = try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "b.jpg")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1000)], ofItemAtPath: plain)
        let late = try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "c.jpg")
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: late)
        try input.write("waterfall.json", Array(#"{"sort": "date"}"#.utf8))
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        let html = try read(output.path + "/index.html")
        let order = ["a.jpg", "b.jpg", "c.jpg"].sorted { html.range(of: "photos/\($0).html")!.lowerBound < html.range(of: "photos/\($1).html")!.lowerBound }
        #expect(order == ["b.jpg", "a.jpg", "c.jpg"])
    }
}
