import CImageIO
import Foundation
import Testing
@testable import WaterfallKit

/// One BMP fixture of Fixtures/formats/bmp and what its expected.json says of it (made by
/// Tests/Tools/make_bmp_fixtures.py: Pillow's decode as the oracle, or the browsers' rule where Waterfall
/// follows them and Pillow does not).
struct BMPFixture: Sendable, CustomTestStringConvertible {
    struct Entry: Decodable, Sendable {
        var width: Int?
        var height: Int?
        var alpha: Bool?
        var icc: Int?
        /// The pixels as stored top to bottom, RGBA in hex; `pillow`: Pillow's decode, else the browsers' rule.
        var pixels: String?
        var pillow: Bool?
        var tolerance: Int?
        var error: String?
        var message: String?
        var derive: String?
        var deriveMessage: String?
    }

    var file: String
    var entry: Entry
    var path: String { Self.folder.appendingPathComponent(file).path }
    var testDescription: String { file }

    static let folder = Fixtures.root.appendingPathComponent("formats/bmp")

    static let all: [BMPFixture] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("expected.json")),
              let table = try? JSONDecoder().decode([String: Entry].self, from: data) else { return [] }
        return table.keys.sorted().map { BMPFixture(file: $0, entry: table[$0]!) }
    }()

    static func named(_ prefix: String) -> BMPFixture { all.first { $0.file.hasPrefix(prefix) }! }
    static var decodable: [BMPFixture] { all.filter { $0.entry.error == nil && $0.entry.derive == nil } }

    var pixels: [UInt8]? {
        entry.pixels.map { hex in
            let digits = Array(hex.utf8)
            return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)! }
        }
    }
}

struct BMPHeaderTests {
    @Test func everyFixtureIsListed() throws {
        let files = try Fixtures.files(in: "formats/bmp").filter { $0 != "expected.json" }
        #expect(files == BMPFixture.all.map(\.file))
        #expect(BMPFixture.all.count >= 34)
    }

    /// The size from the DIB header (a negative height is a top-down file of that height), or a one-line
    /// refusal naming the reason.
    @Test(arguments: BMPFixture.all)
    func header(_ fixture: BMPFixture) throws {
        let result = HeaderReader().read(path: fixture.path)
        if let kind = fixture.entry.error, let message = fixture.entry.message {
            try ExpectedRefusal(kind: kind, message: message).check(result, file: fixture.file)
            return
        }
        let header = try result.get()
        #expect(header.format == .bmp && header.orientation == .up && header.frames == 1)
        #expect(header.width == fixture.entry.width && header.height == fixture.entry.height, "\(header.width)×\(header.height)")
    }

    /// Every prefix of a V5 file with a profile and of an RLE file: read or refused on one line.
    @Test(arguments: ["B18", "B15"])
    func everyPrefixIsReadOrRefusedCleanly(_ name: String) throws {
        let bytes = try Fixtures.bytes(BMPFixture.named(name).path)
        for length in 0..<bytes.count {
            guard let failure = HeaderReader().read(bytes: Array(bytes[..<length])).failureValue else { continue }
            let allowed = ["empty file", "not an image format", "truncated BMP: "]
            if !allowed.contains(where: failure.reason.hasPrefix) || failure.reason.contains("\n") {
                Issue.record("\(name), \(length) bytes: \(failure.reason)")
                return
            }
        }
    }
}

struct BMPImageTests {
    /// Waterfall's decode against Pillow's (or the browsers' rule), every sample exactly but where Pillow
    /// truncates a 5- or 6-bit channel Waterfall rounds (colour compared premultiplied: a transparent pixel's
    /// colour is nobody's).
    @Test(arguments: BMPFixture.decodable)
    func pixelsMatchTheOracle(_ fixture: BMPFixture) throws {
        let decoded = try TestPixels.decode(fixture.path)
        let expected = try #require(fixture.pixels)
        #expect(decoded.width == fixture.entry.width && decoded.height == fixture.entry.height)
        #expect(decoded.channels == (fixture.entry.alpha == true ? 4 : 3))
        let actual = decoded.rgba
        #expect(actual.count == expected.count)
        var differing = 0
        for i in 0..<min(actual.count, expected.count) {
            let a = i % 4 == 3 ? 255 : Int(actual[i - i % 4 + 3]), b = i % 4 == 3 ? 255 : Int(expected[i - i % 4 + 3])
            if abs(Int(actual[i]) * a - Int(expected[i]) * b) > (fixture.entry.tolerance ?? 0) * 255 { differing += 1 }
        }
        #expect(differing == 0, "\(fixture.file): \(differing) samples differ")
    }

    /// Tiles: fitted, PNG only with alpha (a 32-bit file whose fourth bytes are all 0 is opaque), the embedded
    /// V5 profile kept, a linked one never.
    @Test(arguments: BMPFixture.decodable)
    func derived(_ fixture: BMPFixture) throws {
        let folder = try TemporaryFolder()
        let output = folder.path + "/out"
        let made = try Thumbnailer().make(from: fixture.path, to: output, request: .width(12))
        #expect(made.width == 12 && made.height == 8)
        #expect(made.format == (fixture.entry.alpha == true ? .png : .jpeg))
        #expect(made.colorProfileLength == fixture.entry.icc ?? 0)
        #expect(iccProfile(output).count == fixture.entry.icc ?? 0)
    }

    @Test(arguments: BMPFixture.all.filter { $0.entry.derive != nil })
    func decoderRefusals(_ fixture: BMPFixture) throws {
        let folder = try TemporaryFolder()
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: fixture.path, to: folder.path + "/out", request: .width(12))
        }
        #expect("\(error.kind)" == fixture.entry.derive, "\(error.reason)")
        #expect(error.reason.hasPrefix(fixture.entry.deriveMessage ?? "?"), "\(error.reason)")
        #expect(!error.reason.contains("\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
    }

    /// The real binary on a folder of every fixture: each refused file one line naming it and why, the rest built.
    @Test func galleryOfEveryFixture() throws {
        let folder = try TemporaryFolder()
        let input = folder.path + "/photos", site = folder.path + "/site"
        for fixture in BMPFixture.all { try folder.copy(fixture.path, as: "photos/" + fixture.file) }
        let run = try WaterfallProcess.run(["build", input, "-o", site])
        #expect(run.status == 0, "\(run.stderr)")
        let refused = BMPFixture.all.filter { $0.entry.error != nil || $0.entry.derive != nil }
        let skipped = run.stderr.split(separator: "\n").filter { $0.contains(": skipped: ") }
        #expect(skipped.count == refused.count, "\(run.stderr)")
        for fixture in refused {
            #expect(skipped.contains { $0.hasPrefix("waterfall: \(input)/\(fixture.file): skipped: ") }, "\(fixture.file)")
        }
        let summary = "\(BMPFixture.all.count - refused.count) photos, \(refused.count) skipped"
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix(summary) == true, "\(run.stderr)")
        #expect(try !Fixtures.siteFiles(in: site).contains { $0.lowercased().hasSuffix(".bmp") })
    }
}
