import Foundation
import Testing
@testable import WaterfallKit

/// Keywords and ratings from XMP sidecars, through the real binary: the keyword pages, a rebuild that keeps
/// them, the links, the settings, and a sidecar's rating flipping a photo out and in without its images
/// being made again.
struct KeywordRatingBuildTests {
    /// An XMP sidecar with `keywords` (dc:subject) and `rating` (xmp:Rating), as darktable writes one.
    static func sidecar(keywords: [String], rating: Int) -> [UInt8] {
        let bag = keywords.map { "<rdf:li>\($0)</rdf:li>" }.joined()
        return Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
            <dc:subject><rdf:Bag>\(bag)</rdf:Bag></dc:subject><xmp:Rating>\(rating)</xmp:Rating>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    /// The report of a build of `input` into `output` with `flags`, and its standard error.
    static func build(_ input: TemporaryFolder, _ output: TemporaryFolder, _ flags: [String] = []) throws -> ([String: Any], String) {
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--strict", "--report", "json"] + flags)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        return (report, run.stderr)
    }

    static func made(_ report: [String: Any]) -> Int { (report["images"] as! [String: Any])["made"] as! Int }

    @Test func keywordsAndRatingsFromSidecars() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        // Ratings -1, 0, 3, 5; "Sea" spelled three ways is one keyword.
        for (index, (rating, words)) in [(-1, ["Sea", "Rejected"]), (0, ["sea"]), (3, ["SEA", "Boat"]), (5, ["Boat"])].enumerated() {
            try input.copy(Fixtures.conformance("exif-orientation/Landscape_\(index + 1).jpg"), as: "Trip/IMG_\(index).jpg")
            try input.write("Trip/IMG_\(index).jpg.xmp", Self.sidecar(keywords: words, rating: rating))
        }
        let (first, stderr) = try Self.build(input, output)
        #expect(first["photos"] as? Int == 3)
        #expect(stderr.contains("note: 1 photo rated -1 (rejected) not published (publishRejected publishes them)"), "\(stderr)")
        let made = Self.made(first)
        let site = output.path
        let files = try FileManager.default.subpathsOfDirectory(atPath: site + "/keywords").sorted()
        #expect(files == ["Boat", "Boat/index.html", "SEA", "SEA/index.html", "index.html"],
                "the published spellings are sea and SEA: SEA comes first; the rejected photo's keyword has no page")
        let sea = try String(contentsOfFile: site + "/keywords/SEA/index.html", encoding: .utf8)
        #expect(sea.contains("IMG_1.jpg.html") && sea.contains("IMG_2.jpg.html") && !sea.contains("IMG_0.jpg"))
        let photo = try String(contentsOfFile: site + "/Trip/photos/IMG_2.jpg.html", encoding: .utf8)
        #expect(photo.contains(#"<a href="../../keywords/Boat/index.html" rel="tag">Boat</a>"#))
        #expect(LinkChecker.brokenLinks(in: site) == [])
        // Nothing changed: every page kept.
        let (again, _) = try Self.build(input, output)
        #expect(again["pagesRendered"] as? Int == 0 && Self.made(again) == 0)
        // The rejected photo rated in: its images are made once; out and in again, none.
        try input.write("Trip/IMG_0.jpg.xmp", Self.sidecar(keywords: ["Sea", "Rejected"], rating: 5))
        let (rated, _) = try Self.build(input, output)
        #expect(rated["photos"] as? Int == 4 && Self.made(rated) > 0 && Self.made(rated) < made)
        #expect(FileManager.default.fileExists(atPath: site + "/keywords/Rejected/index.html"))
        try input.write("Trip/IMG_0.jpg.xmp", Self.sidecar(keywords: ["Sea", "Rejected"], rating: -1))
        let (out, _) = try Self.build(input, output)
        #expect(out["photos"] as? Int == 3 && Self.made(out) == 0)
        #expect(!FileManager.default.fileExists(atPath: site + "/Trip/photos/IMG_0.jpg.html"))
        let (published, _) = try Self.build(input, output, ["--publish-rejected"])
        #expect(published["photos"] as? Int == 4 && Self.made(published) == 0)
        let (best, note) = try Self.build(input, output, ["--min-rating", "4"])
        #expect(best["photos"] as? Int == 1 && Self.made(best) == 0)
        #expect(note.contains("note: 3 photos rated under 4 not published (minRating)"), "\(note)")
        let (plain, _) = try Self.build(input, output, ["--no-keyword-pages"])
        #expect(plain["photos"] as? Int == 3)
        #expect(!FileManager.default.fileExists(atPath: site + "/keywords"))
        #expect(try !String(contentsOfFile: site + "/Trip/photos/IMG_2.jpg.html", encoding: .utf8).contains("keywords/"))
        #expect(LinkChecker.brokenLinks(in: site) == [])
    }
}
