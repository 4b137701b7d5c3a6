import CImageIO
import Foundation
import Testing
@testable import WaterfallKit

/// One TIFF fixture of Fixtures/formats/tiff and what its expected.json says of it (made, with Pillow's decode
/// of every readable file as the oracle, by Tests/Tools/make_tiff_fixtures.py).
struct TIFFFixture: Sendable, CustomTestStringConvertible {
    struct Exif: Decodable, Sendable {
        var make: String
        var model: String
        var description: String
        var date: String
    }

    struct Entry: Decodable, Sendable {
        var width: Int?
        var height: Int?
        var orientation: Int?
        var alpha: Bool?
        var gray: Bool?
        var cmyk: Bool?
        var icc: Int?
        var exif: Exif?
        /// Pillow's decode as stored, RGBA in hex, and how far (per sample) Waterfall's may differ from it.
        var pixels: String?
        var tolerance: Int?
        /// Refused by the header reader (kind and message), or read and refused by the decoder.
        var error: String?
        var message: String?
        var derive: String?
        var deriveMessage: String?
    }

    var file: String
    var entry: Entry
    var path: String { Self.folder.appendingPathComponent(file).path }
    var testDescription: String { file }

    static let folder = Fixtures.root.appendingPathComponent("formats/tiff")

    static let all: [TIFFFixture] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("expected.json")),
              let table = try? JSONDecoder().decode([String: Entry].self, from: data) else { return [] }
        return table.keys.sorted().map { TIFFFixture(file: $0, entry: table[$0]!) }
    }()

    static func named(_ prefix: String) -> TIFFFixture { all.first { $0.file.hasPrefix(prefix) }! }
    static var readable: [TIFFFixture] { all.filter { $0.entry.error == nil } }
    static var decodable: [TIFFFixture] { readable.filter { $0.entry.derive == nil } }
    static var orientations: [TIFFFixture] { all.filter { $0.file.contains("-orientation-") } }

    /// The expected pixels as bytes.
    var pixels: [UInt8]? {
        entry.pixels.map { hex in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(hex.utf8.count / 2)
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(UInt8(hex[index..<next], radix: 16)!)
                index = next
            }
            return bytes
        }
    }
}

struct TIFFHeaderTests {
    @Test func everyFixtureIsListed() throws {
        let files = try Fixtures.files(in: "formats/tiff").filter { $0 != "expected.json" }
        #expect(files == TIFFFixture.all.map(\.file))
        #expect(TIFFFixture.all.count >= 40)
    }

    /// IFD0's size and orientation (display size turned as for a JPEG), or a one-line refusal naming the reason.
    @Test(arguments: TIFFFixture.all)
    func header(_ fixture: TIFFFixture) throws {
        let result = HeaderReader().read(path: fixture.path)
        if let kind = fixture.entry.error, let message = fixture.entry.message {
            try ExpectedRefusal(kind: kind, message: message).check(result, file: fixture.file)
            return
        }
        let header = try result.get()
        #expect(header.format == .tiff)
        #expect(header.width == fixture.entry.width && header.height == fixture.entry.height, "\(header.width)×\(header.height)")
        #expect(header.orientation.rawValue == fixture.entry.orientation)
        #expect(header.frames == 1 && !header.isAnimated)
        let channels = (fixture.entry.gray == true ? 1 : 3) + (fixture.entry.alpha == true ? 1 : 0)
        #expect(header.components == channels)
    }

    /// Every prefix of a file whose IFD follows its data and of one whose IFD comes first: read, or refused on
    /// one line as truncated or corrupt; never a crash or a library's own output.
    @Test(arguments: ["T17", "T01"])
    func everyPrefixIsReadOrRefusedCleanly(_ name: String) throws {
        let bytes = try Fixtures.bytes(TIFFFixture.named(name).path)
        for length in 0..<bytes.count {
            guard let failure = HeaderReader().read(bytes: Array(bytes[..<length])).failureValue else { continue }
            let allowed = ["empty file", "not an image format", "truncated TIFF: ", "corrupt TIFF: "]
            if !allowed.contains(where: failure.reason.hasPrefix) || failure.reason.contains("\n") {
                Issue.record("\(name), \(length) bytes: \(failure.reason)")
                return
            }
        }
    }

    /// The real binary over the folder: one row a file, one line a refusal, only Waterfall's own words.
    @Test func inspectReportsEveryFixture() throws {
        let run = try WaterfallProcess.run(["inspect", "--json", TIFFFixture.folder.path])
        #expect(run.status == 1)  // the hostile fixtures
        let all = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        for fixture in TIFFFixture.all {
            let row = try #require(all.first { ($0["path"] as? String) == fixture.path }, "\(fixture.file)")
            if let message = fixture.entry.message {
                #expect((row["error"] as? String)?.hasPrefix(message) == true, "\(fixture.file): \(row)")
            } else {
                #expect(row["format"] as? String == "tiff" && row["width"] as? Int == fixture.entry.width, "\(row)")
            }
        }
        let errors = run.stderr.split(separator: "\n")
        #expect(errors.count == TIFFFixture.all.filter { $0.entry.error != nil }.count + 1)  // + expected.json
        #expect(errors.allSatisfy { $0.hasPrefix("waterfall: ") }, "\(run.stderr)")
    }
}

struct TIFFImageTests {
    /// Waterfall's decode as stored against Pillow's, sample by sample (colour compared premultiplied: libtiff
    /// hands alpha over associated, and straight colour under a small alpha is not recoverable exactly).
    @Test(arguments: TIFFFixture.decodable)
    func pixelsMatchPillow(_ fixture: TIFFFixture) throws {
        let decoded = try TestPixels.decode(fixture.path)
        let expected = try #require(fixture.pixels)
        let stored = fixture.entry.orientation.map { $0 >= 5 } == true
        #expect(decoded.width == (stored ? fixture.entry.height : fixture.entry.width))
        #expect(decoded.channels == (fixture.entry.gray == true ? 1 : 3) + (fixture.entry.alpha == true ? 1 : 0))
        let actual = decoded.rgba, tolerance = fixture.entry.tolerance ?? 0
        #expect(actual.count == expected.count)
        var worst = 0
        for i in 0..<min(actual.count, expected.count) {
            let alpha = i % 4 == 3 ? 255 : Int(actual[i - i % 4 + 3])
            let a = Int(actual[i]) * alpha, b = Int(expected[i]) * (i % 4 == 3 ? 255 : Int(expected[i - i % 4 + 3]))
            worst = max(worst, (abs(a - b) + 254) / 255)
        }
        #expect(worst <= tolerance, "\(fixture.file): a sample differs by \(worst)")
    }

    /// All eight orientations turn upright to the same picture (the fixtures store it pre-turned by each
    /// tag's inverse), as a JPEG's do.
    @Test(arguments: TIFFFixture.orientations)
    func orientationTurnsUpright(_ fixture: TIFFFixture) throws {
        let folder = try TemporaryFolder()
        var request = ThumbnailRequest.width(24)
        request.forcePNG = true
        let made = try Thumbnailer().make(from: fixture.path, to: folder.path + "/out.png", request: request)
        #expect(made.width == 24 && made.height == 16)
        let upright = try TestPixels.decode(TIFFFixture.named("T31").path)
        #expect(try TestPixels.decode(folder.path + "/out.png").rgba == upright.rgba, "\(fixture.file)")
    }

    /// Tiles and views: fitted, JPEG or PNG (alpha), the ICC profile kept when it describes the pixels (never a
    /// CMYK file's), no metadata.
    @Test(arguments: TIFFFixture.decodable)
    func derived(_ fixture: TIFFFixture) throws {
        let folder = try TemporaryFolder()
        let output = folder.path + "/out"
        let made = try Thumbnailer().make(from: fixture.path, to: output, request: .width(12))
        let width = try #require(fixture.entry.width), height = try #require(fixture.entry.height)
        #expect(made.width == 12 && made.height == Int((Double(height) * 12 / Double(width)).rounded()))
        #expect(made.format == (fixture.entry.alpha == true ? .png : .jpeg))
        #expect(made.colorProfileLength == fixture.entry.icc ?? 0)
        #expect(iccProfile(output).count == fixture.entry.icc ?? 0)
        #expect(!String(decoding: try Fixtures.bytes(output), as: UTF8.self).contains("Canon"))
    }

    /// Read, then refused by the decoder on one line (damaged or cut data, the memory budget from the tags),
    /// leaving nothing behind.
    @Test(arguments: TIFFFixture.readable.filter { $0.entry.derive != nil })
    func decoderRefusals(_ fixture: TIFFFixture) throws {
        let folder = try TemporaryFolder()
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: fixture.path, to: folder.path + "/out", request: .width(12))
        }
        #expect("\(error.kind)" == fixture.entry.derive, "\(error.reason)")
        let prefix = fixture.entry.deriveMessage ?? (fixture.entry.derive == "truncated" ? "truncated TIFF: " : "corrupt TIFF: ")
        #expect(error.reason.lowercased().hasPrefix(prefix.lowercased()), "\(error.reason)")
        #expect(!error.reason.contains("\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
    }

    /// A multi-page file is its first page.
    @Test func onlyTheFirstPage() throws {
        let folder = try TemporaryFolder()
        let made = try Thumbnailer().make(from: TIFFFixture.named("T08").path, to: folder.path + "/out", request: .width(100))
        #expect(made.width == 24 && made.height == 16)
    }
}

struct TIFFMetadataTests {
    /// IFD0 after the image data, big-endian: the facts and caption come through the same EXIF parser as a
    /// JPEG's, never the GPS IFD's values.
    @Test func exifFactsFromTheFilesOwnIFDs() throws {
        let fixture = TIFFFixture.named("T17")
        let exif = try #require(fixture.entry.exif)
        let facts = ExifReader().read(path: fixture.path)
        #expect(facts.make == exif.make && facts.model == exif.model)
        #expect(facts.caption == exif.description)
        #expect(facts.dateTaken.map { "\($0)" }?.contains("2024") == true, "\(String(describing: facts.dateTaken))")
        #expect(facts.iso == 400 && facts.lens == "RF24-105mm F4 L IS USM")
        let text = "\(facts)"
        for secret in ["SECRET", "WGS"] { #expect(!text.contains(secret), "\(text)") }
    }

    /// The structure handed to the parser: small, IFD0 at 8, no GPS pointer; a file without facts gives none.
    @Test func theCopiedStructureIsSmallAndHasNoGPS() throws {
        let raw = ExifReader().raw(path: TIFFFixture.named("T17").path)
        #expect(raw.exif.count > 8 && raw.exif.count <= 65_527)
        #expect(Array(raw.exif.prefix(8)) == [0x4D, 0x4D, 0, 42, 0, 0, 0, 8])
        #expect(!String(decoding: raw.exif, as: UTF8.self).contains("SECRET"))
        #expect(ExifReader().read(path: TIFFFixture.named("T01").path).make == nil)
    }
}

struct TIFFBuildTests {
    /// The real binary on a folder of every fixture: each refused file skipped with one line naming it and
    /// why, every other one a photo with its images; no TIFF published (browsers do not show it), no GPS.
    @Test func galleryOfEveryFixture() throws {
        let folder = try TemporaryFolder()
        let input = folder.path + "/photos", site = folder.path + "/site"
        for fixture in TIFFFixture.all { try folder.copy(fixture.path, as: "photos/" + fixture.file) }
        let run = try WaterfallProcess.run(["build", input, "-o", site])
        #expect(run.status == 0, "\(run.stderr)")
        let refused = TIFFFixture.all.filter { $0.entry.error != nil || $0.entry.derive != nil }
        let skipped = run.stderr.split(separator: "\n").filter { $0.contains(": skipped: ") }
        #expect(skipped.count == refused.count, "\(run.stderr)")
        for fixture in refused {
            #expect(skipped.contains { $0.hasPrefix("waterfall: \(input)/\(fixture.file): skipped: ") }, "\(fixture.file)")
        }
        let summary = "\(TIFFFixture.all.count - refused.count) photos, \(refused.count) skipped"
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix(summary) == true, "\(run.stderr)")
        let files = try Fixtures.siteFiles(in: site)
        #expect(!files.contains { $0.lowercased().hasSuffix(".tif") || $0.lowercased().hasSuffix(".tiff") })
        for file in files {
            let text = String(decoding: try Fixtures.bytes(site + "/" + file), as: UTF8.self)
            #expect(!text.contains("SECRET") && !text.contains("WGS-84"), "\(file)")
        }
        let pages = files.filter { $0.hasSuffix(".html") }.map { (try? String(contentsOfFile: site + "/" + $0, encoding: .utf8)) ?? "" }
        #expect(pages.contains { $0.contains("A heron at dawn, as a TIFF") })
    }
}
