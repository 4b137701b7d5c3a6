import CImageIO
import Foundation
import Testing
@testable import WaterfallKit

/// One file of Fixtures/formats/heif-graphs (Tests/Tools/make_heif_graph_fixtures.py): image items in a ring
/// (libheif 1.15 crashes on them, or decodes them forever), nested too deep, or too many items or tiles.
struct HEIFGraphFixture: Sendable, CustomTestStringConvertible {
    struct Entry: Decodable, Sendable {
        var file: String
        var error: ExpectedRefusal
    }

    var entry: Entry
    var path: String { Fixtures.root.appendingPathComponent("formats/heif-graphs/\(entry.file)").path }
    var testDescription: String { entry.file }

    static let all: [HEIFGraphFixture] = {
        struct File: Decodable { var fixtures: [Entry] }
        let url = Fixtures.root.appendingPathComponent("formats/heif-graphs/expected.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
        return file.fixtures.map { HEIFGraphFixture(entry: $0) }
    }()
}

/// Every route that would hand such a file to libheif (or libavif) refuses it first, with one line that says
/// why: the header, the metadata, the decode, `inspect` and `build` (issue 26).
struct HEIFGraphTests {
    @Test func everyFixtureIsListed() throws {
        let files = try Fixtures.files(in: "formats/heif-graphs").filter { $0 != "expected.json" }
        #expect(files == HEIFGraphFixture.all.map(\.entry.file).sorted())
        // Rings of grid, iden, iovl, self and through several items, as HEIC and as AVIF; alpha rings; limits.
        #expect(HEIFGraphFixture.all.count >= 16)
    }

    @Test(arguments: HEIFGraphFixture.all)
    func headerIsRefused(_ fixture: HEIFGraphFixture) throws {
        try fixture.entry.error.check(HeaderReader().read(path: fixture.path), file: fixture.entry.file)
    }

    /// The metadata reader opens the file with libheif without reading the header first: refused the same way.
    @Test(arguments: HEIFGraphFixture.all)
    func metadataIsRefused(_ fixture: HEIFGraphFixture) throws {
        var metadata = wf_metadata()
        wf_read_metadata_path(fixture.path, &metadata)
        let message = withUnsafeBytes(of: metadata.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #expect(metadata.status != WF_OK)
        #expect(message.hasPrefix(fixture.entry.error.message), "\(message)")
        #expect(ExifReader().read(path: fixture.path) == ExifFacts())
    }

    @Test(arguments: HEIFGraphFixture.all)
    func decodeIsRefused(_ fixture: HEIFGraphFixture) throws {
        let folder = try TemporaryFolder()
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: fixture.path, to: folder.path + "/out", request: .width(120))
        }
        #expect(error.reason.hasPrefix(fixture.entry.error.message), "\(error.reason)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
        var image = wf_image()
        wf_decode_image_by_libheif(fixture.path, &image)
        defer { wf_image_free(&image) }
        #expect(image.status != WF_DERIVE_OK)
        #expect(wf_decodes_with_libavif(fixture.path) == 0)
    }

    /// `inspect` on each file: one line with the reason, exit 1, never a signal.
    @Test(arguments: HEIFGraphFixture.all)
    func inspectGivesTheReason(_ fixture: HEIFGraphFixture) throws {
        let run = try Watchdog.run(["inspect", fixture.path])
        #expect(run.exited && run.status == 1, "signalled: \(run.signalled), \(run.status): \(run.stderr)")
        let rows = run.stdout.split(separator: "\n").filter { $0.contains(fixture.path) }
        #expect(rows.count == 1 && rows[0].contains("error: " + fixture.entry.error.message), "\(run.stdout)")
    }

    /// A folder of every hostile graph next to good photos: the build succeeds, names each file with its
    /// reason on one line, and publishes the photos.
    @Test func aBuildSkipsEachWithItsReasonAndPublishesThePhotos() throws {
        let input = try Trust.input(["coffee-cup.jpg", "Album/hubble-tall.jpg"])
        for fixture in HEIFGraphFixture.all { try Trust.copy(fixture.path, to: input.path + "/Album/" + fixture.entry.file) }
        try Trust.copy(Fixtures.root.appendingPathComponent("formats/heif/grid-2x2.heic").path, to: input.path + "/grid.heic")
        let output = try TemporaryFolder()
        let run = try Watchdog.run(["build", input.path, "-o", output.path])
        #expect(run.exited && run.status == 0, "\(run.stderr)")
        for fixture in HEIFGraphFixture.all {
            let path = input.path + "/Album/" + fixture.entry.file
            let lines = Trust.lines(run, naming: path)
            #expect(lines.count == 1 && lines[0].hasPrefix("waterfall: \(path): skipped: \(fixture.entry.error.message)"),
                    "\(fixture.entry.file): \(lines)")
        }
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix("3 photos, \(HEIFGraphFixture.all.count) skipped") == true,
                "\(run.stderr)")
        #expect(try Fixtures.siteFiles(in: output.path).filter { $0.hasSuffix(".html") }
            == ["Album/index.html", "Album/photos/hubble-tall.jpg.html", "index.html", "photos/coffee-cup.jpg.html",
                "photos/grid.heic.html"])
        Trust.expectSoundSite(output.path)
    }
}
