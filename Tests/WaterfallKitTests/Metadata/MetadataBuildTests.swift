import Foundation
import Testing
@testable import WaterfallKit

/// XMP (embedded and sidecar) and IPTC in a real build (issue 30, steps 2 and 6): one gallery of every case in
/// Fixtures/metadata (Tests/Tools/make_metadata_fixtures.py), the largest hostile sidecars written here.
struct MetadataBuildTests {
    static let gallery = Fixtures.root.appendingPathComponent("metadata/gallery").path
    static let hostile = Fixtures.root.appendingPathComponent("metadata/hostile").path

    /// One build for every test here (a build is the slow part).
    nonisolated(unsafe) static let built = Result { try build() }

    /// Builds the fixtures' gallery with the hostile photos and sidecars beside them.
    static func build() throws -> (input: TemporaryFolder, output: TemporaryFolder, run: WaterfallProcess.Outcome) {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for name in try Fixtures.files(in: "metadata/gallery") { try input.copy(gallery + "/" + name, as: name) }
        for name in try Fixtures.files(in: "metadata/hostile") where [".jpg", ".tif", ".png"].contains(where: name.hasSuffix) {
            try input.copy(hostile + "/" + name, as: "hostile/" + name)
        }
        let plain = gallery + "/plain.jpg"
        let rdf = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" %@>%@</rdf:Description></rdf:RDF></x:xmpmeta>"
        let cases: [(String, String)] = [
            ("deep", String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)),
            ("attribute", String(format: rdf, "dc:title=\"" + String(repeating: "A", count: 4 << 20) + "\"", "")),
            ("keywords", String(format: rdf, "", "<dc:subject><rdf:Bag>" + (0..<100_000).map { "<rdf:li>k\($0)</rdf:li>" }.joined()
                                    + "</rdf:Bag></dc:subject><dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">Many keywords</rdf:li></rdf:Alt></dc:title>")),
        ]
        for (name, text) in cases {
            try input.copy(plain, as: "hostile/\(name).jpg")
            try input.write("hostile/\(name).jpg.xmp", Array(text.utf8))
        }
        // A video's sidecar (Lightroom's spelling), as a photo's.
        try VideoFixtures.pattern(input.path + "/clip.mp4", size: "64x48", seconds: 1)
        try input.write("clip.xmp", Array(String(format: rdf, "", "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">Video sidecar title"
                                                     + "</rdf:li></rdf:Alt></dc:title>").utf8))
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        return (input, output, run)
    }

    static func page(_ output: TemporaryFolder, _ path: String) throws -> String {
        String(decoding: try Fixtures.bytes(output.path + "/" + path), as: UTF8.self)
    }

    @Test func eachFieldComesFromTheFirstSourceThatGivesIt() throws {
        let (_, output, run) = try Self.built.get()
        #expect(run.status == 0, "\(run.stderr)")
        let expected: [(String, [String])] = [
            ("photos/xmp.jpg.html", ["XMP title", "XMP description"]),
            ("photos/iptc.jpg.html", ["IPTC title", "IPTC description"]),
            ("photos/latin1.jpg.html", ["Café Latin"]),
            ("photos/both.jpg.html", ["XMP wins", "IPTC description kept"]),
            ("photos/sidecar.jpg.html", ["Sidecar title", "Embedded description kept"]),
            ("photos/plain.jpg.html", ["Plain sidecar title"]),
            ("photos/text.jpg.html", ["Text title", "Sidecar description kept"]),
            ("photos/xmp.png.html", ["PNG XMP title"]),
            ("photos/xmp.webp.html", ["WebP XMP title"]),
            ("photos/xmp.heic.html", ["HEIC XMP title"]),
            ("photos/xmp-iptc.tif.html", ["TIFF XMP title", "TIFF IPTC description", "tiff-xmp-keyword"]),
            ("photos/ifd-last.tif.html", ["TIFF IFD-last XMP title", "TIFF IFD-last IPTC description"]),
            ("photos/iptc.png.html", ["PNG IPTC title", "PNG IPTC description", "png-keyword"]),
            ("photos/iptc-raw.png.html", ["PNG raw IIM title"]),
            ("photos/photoshop.tif.html", ["TIFF Photoshop IPTC title"]),
            ("photos/xmp-raw.png.html", ["PNG raw XMP title"]),
            ("photos/imagemagick.png.html", ["ImageMagick XMP title", "ImageMagick IPTC description"]),
            ("hostile/photos/tiff-photoshop-count.tif.html", ["XMP title kept"]),
            ("hostile/photos/tiff-xmp-count.tif.html", ["IPTC title kept"]),
            ("hostile/photos/tiff-iptc-count.tif.html", ["XMP title kept"]),
            ("hostile/photos/tiff-iptc-short.tif.html", ["XMP title kept"]),
            ("photos/rdf.jpg.html", ["Default title"]),
            ("hostile/photos/utf16.jpg.html", ["UTF-16 title"]),
            ("hostile/photos/latin1-declared.jpg.html", ["Café declared"]),
            ("hostile/photos/keywords.jpg.html", ["Many keywords"]),
            ("photos/clip.mp4.html", ["Video sidecar title"]),
        ]
        for (path, texts) in expected {
            let html = try Self.page(output, path)
            for text in texts { #expect(html.contains(text), "\(path) lacks \(text)") }
        }
        // What lost, and what is not Dublin Core though its prefix says dc:, is on no page.
        let site = try Fixtures.siteFiles(in: output.path).filter { $0.hasSuffix(".html") }
            .map { try Self.page(output, $0) }.joined()
        for loser in ["Embedded loses", "Second sidecar loses", "IPTC loses", "EXIF loses", "XMP loses to text", "Not Dublin Core", "Titre",
                      "TIFF IPTC title loses", "tiff-iptc-keyword-loses", "TIFF IPTC rights loses", "ImageMagick IPTC title loses", "never read"] {
            #expect(!site.contains(loser), "\(loser) is published")
        }
        // A sidecar is not a photo: no line about any.
        #expect(!run.stderr.contains(".xmp: "), "\(run.stderr)")
    }

    /// Each hostile packet or stream costs its photo's metadata, with one line, never the photo.
    @Test func hostileMetadataIsRefusedWithOneLineEach() throws {
        let (input, output, run) = try Self.built.get()
        #expect(run.status == 0, "\(run.stderr)")
        let reasons: [(String, String)] = [
            ("billion-laughs.jpg", "its XMP is not used: a DOCTYPE (entity declarations are refused)"),
            ("entity-file.jpg", "its XMP is not used: a DOCTYPE (entity declarations are refused)"),
            ("entity-http.jpg", "its XMP is not used: a DOCTYPE (entity declarations are refused)"),
            ("invalid-utf8.jpg", "its XMP is not used: it is not well-formed XML (line 5, column 50: not well-formed (invalid token))"),
            ("not-xml.jpg", "its XMP is not used: it is not well-formed XML"),
            ("unknown-encoding.jpg", "its XMP is not used: it is not well-formed XML (line 1, column 31: unknown encoding)"),
            ("iim-overflow.jpg", "its IPTC is not used: a dataset's length runs past the end"),
            ("iim-50000.jpg", "its IPTC is not used: it has more than 4096 datasets"),
            ("iim-garbage.jpg", "its IPTC is not used: it has bytes between its datasets"),
            ("deep.jpg", "its XMP sidecar deep.jpg.xmp is not used: it is nested more than 64 elements deep"),
            ("attribute.jpg", "its XMP sidecar attribute.jpg.xmp is not used: it is larger than 4 MiB"),
            ("keywords.jpg", "only the first 500 of its 100000 XMP keywords are used"),
            ("tiff-xmp-count.tif", "its XMP is not used: it is larger than 1 MiB (4294967280 bytes)"),
            ("tiff-xmp-truncated.tif", "its XMP is not used: its 514 bytes run past the end of the file"),
            ("tiff-iptc-count.tif", "its IPTC is not used: it is larger than 256 KiB (4294967296 bytes)"),
            ("tiff-iptc-short.tif", "its IPTC is not used: its TIFF tag 33723 is of type 3, not bytes"),
            ("png-iptc-bad-hex.png", "its IPTC is not used: its PNG raw profile has a character that is not a hex digit"),
            ("png-iptc-lying.png", "its IPTC is not used: its PNG raw profile holds fewer bytes than it declares"),
            ("png-iptc-longer.png", "its IPTC is not used: its PNG raw profile holds more bytes than it declares"),
            ("png-iptc-huge.png", "its IPTC is not used: its PNG raw profile declares 999999999 bytes, over 256 KiB"),
            ("tiff-photoshop-count.tif",
             "its IPTC is not used: its Photoshop resources (TIFF tag 34377) are larger than 256 KiB (2147483647 bytes)"),
            ("png-xmp-bad-hex.png", "its XMP is not used: its PNG raw profile has a character that is not a hex digit"),
            ("png-xmp-huge.png", "its XMP is not used: its PNG raw profile declares 2000000 bytes, over 1 MiB"),
        ]
        let lines = run.stderr.split(separator: "\n").map(String.init)
        for (name, reason) in reasons {
            let about = lines.filter { $0.contains("/hostile/\(name): ") }
            #expect(about.count == 1, "\(name): \(about)")
            #expect(about.first?.contains("warning: \(input.path)/hostile/\(name): \(reason)") == true, "\(about)")
            #expect(FileManager.default.fileExists(atPath: output.path + "/hostile/photos/\(name).html"), "\(name) is not published")
        }
        // Nothing of what an entity would have read or expanded.
        let hostname = (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let pages = try Fixtures.siteFiles(in: output.path).filter { $0.hasPrefix("hostile/") && $0.hasSuffix(".html") }
            .map { try Self.page(output, $0) }.joined()
        #expect(!pages.contains("lollollol"))
        if let hostname, hostname.count > 3 { #expect(!pages.contains(hostname)) }
    }

    /// GPS in an embedded packet and in a sidecar: not in any file the build wrote, the cache included.
    @Test func gpsInXMPIsNeverPublished() throws {
        let (_, output, run) = try Self.built.get()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.page(output, "photos/gps.jpg.html").contains("GPS title"))
        #expect(try Self.page(output, "photos/gps-sidecar.jpg.html").contains("GPS sidecar title"))
        let everything = FileManager.default.enumerator(atPath: output.path)!.compactMap { $0 as? String }
        for path in everything {
            guard let bytes = try? Fixtures.bytes(output.path + "/" + path) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            for coordinate in ["47,38.1234", "122,19.8765", "GPSLatitude", "GPSLongitude"] {
                #expect(!text.contains(coordinate), "\(path) holds \(coordinate)")
            }
        }
    }

    @Test func inspectSaysWhereEachFieldCameFrom() throws {
        let run = try WaterfallProcess.run(["inspect", "--metadata", Self.gallery + "/sidecar.jpg", Self.gallery + "/iptc.jpg",
                                            Self.gallery + "/text.jpg"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  title \"Sidecar title\" from XMP sidecar sidecar.jpg.xmp\n"), "\(run.stdout)")
        #expect(run.stdout.contains("  description \"Embedded description kept\" from XMP\n"), "\(run.stdout)")
        #expect(run.stdout.contains("  keywords \"green\", \"field\" from IPTC\n"), "\(run.stdout)")
        #expect(run.stdout.contains("  taken 2019-02-03 04:05:06 from IPTC\n"), "\(run.stdout)")
        #expect(run.stdout.contains("  title \"Text title\" from NAME.txt text.txt\n"), "\(run.stdout)")
        let json = try WaterfallProcess.run(["inspect", "--metadata", "--json", Self.gallery + "/sidecar.jpg"])
        let files = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let metadata = try #require(files.first?["metadata"] as? [String: [String: Any]])
        #expect(metadata["title"]?["value"] as? String == "Sidecar title")
        #expect(metadata["title"]?["source"] as? String == "xmp-sidecar")
        #expect(metadata["title"]?["file"] as? String == "sidecar.jpg.xmp")
        #expect(metadata["rating"]?["value"] as? Int == 5)
        #expect(metadata["description"]?["source"] as? String == "xmp")
    }

    /// TIFF's XMP and IPTC tags and PNG's raw IPTC profile, merged in the same order as JPEG's.
    @Test func inspectReadsTIFFAndPNGMetadata() throws {
        let run = try WaterfallProcess.run(["inspect", "--metadata", Self.gallery + "/xmp-iptc.tif", Self.gallery + "/iptc.png"])
        #expect(run.status == 0, "\(run.stderr)")
        for line in ["title \"TIFF XMP title\" from XMP", "description \"TIFF IPTC description\" from IPTC",
                     "keywords \"tiff-xmp-keyword\" from XMP", "rating 3 from XMP", "creator \"TIFF IPTC creator\" from IPTC",
                     "rights \"TIFF XMP rights\" from XMP", "title \"PNG IPTC title\" from IPTC",
                     "description \"PNG IPTC description\" from IPTC", "keywords \"png-keyword\" from IPTC"] {
            #expect(run.stdout.contains("  " + line + "\n"), "\(line): \(run.stdout)")
        }
        let json = try WaterfallProcess.run(["inspect", "--metadata", "--json", Self.gallery + "/ifd-last.tif"])
        let files = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let metadata = try #require(files.first?["metadata"] as? [String: [String: Any]])
        #expect(metadata["title"]?["value"] as? String == "TIFF IFD-last XMP title")
        #expect(metadata["description"]?["source"] as? String == "iptc")
    }

    @Test func datesAndRatingsReadAsTheirSourcesWriteThem() {
        #expect(MetadataRecords.taken("2021-06-01T10:20:30")?.text == "2021-06-01 10:20:30")
        #expect(MetadataRecords.taken("2021-06-01T10:20:30.5+02:00")?.number == 20_210_601_102_030)
        #expect(MetadataRecords.taken("2021-06-01T10:20")?.text == "2021-06-01 10:20:00")
        #expect(MetadataRecords.taken("2021-06-01")?.text == "2021-06-01 00:00:00")
        #expect(MetadataRecords.taken("20190203 040506+0000")?.text == "2019-02-03 04:05:06")
        #expect(MetadataRecords.taken("20190203")?.number == 20_190_203_000_000)
        #expect(MetadataRecords.taken("2021-02-30") == nil)
        #expect(MetadataRecords.taken("soon") == nil)
        #expect(MetadataRecords.rating("4") == 4)
        #expect(MetadataRecords.rating("4.0") == 4)
        #expect(MetadataRecords.rating("-1") == -1)
        #expect(MetadataRecords.rating("6") == nil)
        #expect(MetadataRecords.rating("nan") == nil)
    }
}
