import Foundation
import Testing
@testable import WaterfallKit

/// Each field of a photo's metadata comes from the first source that gives it, in one documented order,
/// whatever order the readings arrive in.
struct PhotoMetadataTests {
    static let taken = PhotoMetadata.Taken(text: "2024-05-17 08:30:12", number: 20_240_517_083_012)

    @Test func eachFieldComesFromTheFirstSourceThatGivesIt() {
        let readings = [
            PhotoMetadata(.takeout, title: "Takeout", description: "From Takeout", keywords: ["t"], rating: 1, creator: "T", rights: "T",
                          taken: PhotoMetadata.Taken(text: "2001-01-01 00:00:00", number: 20_010_101_000_000)),
            PhotoMetadata(.exif, description: "From EXIF", creator: "E", taken: Self.taken),
            PhotoMetadata(.iptc, title: "IPTC", keywords: ["i"]),
            PhotoMetadata(.xmp, rating: 4),
            PhotoMetadata(.text, title: "Text"),
        ]
        for order in [readings, readings.reversed()] {
            let merged = PhotoMetadata.merged(order)
            #expect(merged.title == .init(value: "Text", source: .text))
            #expect(merged.description == .init(value: "From EXIF", source: .exif))
            #expect(merged.keywords == .init(value: ["i"], source: .iptc))
            #expect(merged.rating == .init(value: 4, source: .xmp))
            #expect(merged.creator == .init(value: "E", source: .exif))
            #expect(merged.rights == .init(value: "T", source: .takeout))
            #expect(merged.taken == .init(value: Self.taken, source: .exif))
        }
        #expect(MetadataSource.allCases == [.text, .sigal, .xmpSidecar, .xmp, .iptc, .exif, .container, .takeout])
    }

    @Test func emptyValuesAndImpossibleRatingsCountAsAbsent() {
        let reading = PhotoMetadata(.xmp, title: "  ", description: "", keywords: ["", " "], rating: 7, creator: "\n")
        #expect(reading.isEmpty)
        #expect(PhotoMetadata(.xmp, rating: -1).rating?.value == -1)
        #expect(PhotoMetadata(.xmp, keywords: [" a ", ""]).keywords?.value == ["a"])
    }

    @Test func aDescriptionAloneIsTheCaptionsTitle() {
        #expect(PhotoMetadata(.exif, description: "A heron").caption == Caption(title: "A heron"))
        let both = PhotoMetadata.merged([PhotoMetadata(.text, title: "Heron"), PhotoMetadata(.exif, description: "At dawn")])
        #expect(both.caption == Caption(title: "Heron", description: "At dawn"))
        #expect(PhotoMetadata().caption == nil)
    }

    /// A cache whose entries hold facts an older Waterfall read (no `factsVersion`) has them read again from
    /// the photos, and keeps every image.
    @Test func olderFactsAreReadAgainWithoutMakingImages() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder(), cache = try TemporaryFolder()
        try input.copy(Fixtures.root.appendingPathComponent("exif/E01-all-facts-II.jpg").path, as: "heron.jpg")
        let build = ["build", input.path, "-o", output.path, "--cache-dir", cache.path, "--quiet", "--report", "json"]
        #expect(try WaterfallProcess.run(build).status == 0)
        let entries = cache.path + "/photos"
        for name in try FileManager.default.contentsOfDirectory(atPath: entries).sorted() {
            let path = entries + "/" + name
            var text = try String(contentsOfFile: path, encoding: .utf8)
            // As the last Waterfall wrote it: the facts flat, with no version and no sources.
            let facts = try #require(text.range(of: #""factsVersion": \#(Versions.facts), "facts": \{.*\}\}, "derived""#, options: .regularExpression))
            text.replaceSubrange(facts, with: #""summary": "Old", "takenText": null, "taken": null, "description": null, "derived""#)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        try FileManager.default.removeItem(atPath: cache.path + "/photos.index")
        let run = try WaterfallProcess.run(build)
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
        let images = report["images"] as? [String: Any] ?? [:]
        #expect(images["made"] as? Int == 0 && (images["kept"] as? Int ?? 0) > 0, "\(run.stdout)")
        let page = try String(contentsOfFile: output.path + "/photos/heron.jpg.html", encoding: .utf8)
        #expect(page.contains("A heron at dawn") && page.contains("2024-05-17"))
        let entry = try String(contentsOfFile: entries + "/" + (try FileManager.default.contentsOfDirectory(atPath: entries).sorted()[0]), encoding: .utf8)
        #expect(entry.contains(#""factsVersion": \#(Versions.facts)"#) && entry.contains(#""source": "exif""#))
    }
}
