import CImageIO
import Foundation
import Testing
@testable import WaterfallKit

/// One HEIC or AVIF fixture of Fixtures/formats/heif and what its expected.json says of it (made, and checked
/// with pillow-heif and heif-info, by Tests/Tools/make_heif_fixtures.py).
struct HEIFFixture: Sendable, CustomTestStringConvertible {
    typealias Failure = ExpectedRefusal

    struct Entry: Decodable, Sendable {
        var file: String
        var format: String?
        var width: Int?
        var height: Int?
        var alpha: Bool?
        var bitDepth: Int?
        var error: Failure?
        var decodeError: Failure?
    }

    var entry: Entry
    var path: String { Fixtures.root.appendingPathComponent("formats/heif/\(entry.file)").path }
    var testDescription: String { entry.file }

    static let all: [HEIFFixture] = {
        struct File: Decodable { var fixtures: [Entry] }
        let url = Fixtures.root.appendingPathComponent("formats/heif/expected.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
        return file.fixtures.map { HEIFFixture(entry: $0) }
    }()

    static var readable: [HEIFFixture] { all.filter { $0.entry.error == nil } }
    static var decodable: [HEIFFixture] { readable.filter { $0.entry.decodeError == nil } }
}

struct HEIFHeaderTests {
    @Test func everyFixtureIsListed() throws {
        let files = try Fixtures.files(in: "formats/heif").filter { $0 != "expected.json" }
        #expect(files == HEIFFixture.all.map(\.entry.file).sorted())
        #expect(HEIFFixture.all.count >= 30)
    }

    /// The display size (irot, imir, clap and grids applied, the EXIF orientation not), from the boxes only.
    @Test(arguments: HEIFFixture.all)
    func header(_ fixture: HEIFFixture) throws {
        let result = HeaderReader().read(path: fixture.path)
        if let error = fixture.entry.error {
            try error.check(result, file: fixture.entry.file)
            return
        }
        let header = try result.get()
        #expect(header.format.rawValue == fixture.entry.format)
        #expect(header.width == fixture.entry.width && header.height == fixture.entry.height, "\(header.width)×\(header.height)")
        #expect(header.orientation == .up)
        #expect(header.bitDepth == fixture.entry.bitDepth)
        #expect((header.components == 4) == fixture.entry.alpha)
        // Only boxes are read: never the image data (the whole file, for these small fixtures).
        let size = try FileManager.default.attributesOfItem(atPath: fixture.path)[.size] as! Int
        #expect(header.bytesRead < 8192 || header.bytesRead < size / 2, "\(header.bytesRead) of \(size) bytes read")
    }

    @Test func inspectReportsTheNewFormats() throws {
        let run = try WaterfallProcess.run(["inspect", "--json", Fixtures.root.appendingPathComponent("formats/heif").path])
        #expect(run.status == 1)  // the hostile fixtures
        let all = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let rows = all.filter { !(($0["path"] as? String) ?? "").hasSuffix("expected.json") }
        #expect(rows.count == HEIFFixture.all.count)
        for fixture in HEIFFixture.all {
            let row = try #require(rows.first { ($0["path"] as? String) == fixture.path })
            if let error = fixture.entry.error {
                #expect((row["error"] as? String)?.hasPrefix(error.message) == true, "\(fixture.entry.file)")
            } else {
                #expect(row["format"] as? String == fixture.entry.format)
                #expect(row["width"] as? Int == fixture.entry.width && row["height"] as? Int == fixture.entry.height)
            }
        }
    }

    @Test func truncatedAtEveryPrefixFailsCleanly() throws {
        let bytes = try Fixtures.bytes(HEIFFixture.all.first { $0.entry.file == "grid-2x2.heic" }!.path)
        var failures = 0
        for length in stride(from: 0, to: bytes.count, by: 97) {
            if case .failure(let error) = HeaderReader().read(bytes: Array(bytes[..<length])) {
                failures += 1
                #expect(!error.reason.isEmpty && !error.reason.contains("\n"))
            }
        }
        #expect(failures > 0)
    }
}

struct HEIFImageTests {
    /// Tile and view images: upright, the display size fitted, alpha kept as PNG, 8-bit, a colour profile
    /// where the photo is not sRGB, and no metadata.
    @Test(arguments: HEIFFixture.decodable)
    func derived(_ fixture: HEIFFixture) throws {
        let folder = try TemporaryFolder()
        let output = folder.path + "/out"
        let made = try Thumbnailer().make(from: fixture.path, to: output, request: .width(120))
        let width = try #require(fixture.entry.width), height = try #require(fixture.entry.height)
        #expect(made.width == min(120, width))
        #expect(abs(made.height - Int((Double(height) * Double(made.width) / Double(width)).rounded())) <= 1)
        #expect(made.format == (fixture.entry.alpha == true ? .png : .jpeg))
        let bytes = try Fixtures.bytes(output)
        #expect(!bytes.starts(with: [0]) && !String(decoding: bytes, as: UTF8.self).contains("Exif"))
        let profile = iccProfile(output)
        let tagged = ["display-p3.avif", "hdr-pq.avif", "hdr-hlg.avif"].contains(fixture.entry.file)
        #expect(profile.isEmpty != tagged, "\(fixture.entry.file): \(profile.count) bytes of ICC profile")
    }

    /// The common AVIF (8-bit, opaque, SDR, sRGB-like) is decoded by libavif, which applies clap, irot and
    /// imir itself: its pixels must be libheif's (the same conversion; rounding apart), turned the same way.
    @Test(arguments: HEIFFixture.decodable.filter { $0.entry.format == "avif" })
    func libavifRouteMatchesLibheif(_ fixture: HEIFFixture) throws {
        let direct = ["still.avif", "irot-90.avif", "clap-irot-270.avif", "irot-90-imir-1.avif", "imir-0.avif"]
        #expect((wf_decodes_with_libavif(fixture.path) == 1) == direct.contains(fixture.entry.file),
                "alpha, 10 bits, HDR and wide-gamut nclx stay with libheif")
        let ours = try TestPixels.decode(fixture.path)
        var image = wf_image()
        wf_decode_image_by_libheif(fixture.path, &image)
        defer { wf_image_free(&image) }
        try #require(image.status == WF_DERIVE_OK)
        let count = Int(image.width) * Int(image.height) * Int(image.channels)
        let libheif = TestPixels(width: Int(image.width), height: Int(image.height), channels: Int(image.channels),
                                 bytes: Array(UnsafeBufferPointer(start: image.pixels, count: count)))
        #expect(ours.width == libheif.width && ours.height == libheif.height && ours.channels == libheif.channels)
        #expect(ours.width == fixture.entry.width && ours.height == fixture.entry.height)
        #expect(psnr(ours, libheif) >= 45, "\(fixture.entry.file): \(psnr(ours, libheif)) dB")
    }

    @Test(arguments: HEIFFixture.readable.filter { $0.entry.decodeError != nil })
    func damagedImageDataIsAnError(_ fixture: HEIFFixture) throws {
        let folder = try TemporaryFolder()
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: fixture.path, to: folder.path + "/out", request: .width(120))
        }
        #expect("\(error.kind)" == fixture.entry.decodeError?.kind)
        #expect(error.reason.hasPrefix(fixture.entry.decodeError!.message), "\(error.reason)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
    }

    /// irot and imir turn the pixels as they turn the size: the turned fixtures' images are the plain one's,
    /// turned (a wrong direction would match worse).
    @Test(arguments: [("irot-90.heic", 1, false), ("irot-180.heic", 2, false), ("irot-270.heic", 3, false),
                      ("imir-0.heic", 2, true), ("imir-1.heic", 0, true)])
    func transformationsTurnThePixels(file: String, quarterTurns: Int, mirrored: Bool) throws {
        let folder = try TemporaryFolder()
        func derive(_ name: String) throws -> TestPixels {
            let output = folder.path + "/" + name + ".png"
            var request = ThumbnailRequest.width(4096)
            request.forcePNG = true
            _ = try Thumbnailer().make(from: Fixtures.root.appendingPathComponent("formats/heif/" + name).path, to: output, request: request)
            return try TestPixels.decode(output)
        }
        let plain = try derive("irot-0.heic"), turned = try derive(file)
        var expected = plain
        for _ in 0..<quarterTurns { expected = expected.turnedAnticlockwise() }
        if mirrored { expected = expected.transformed(mirror: true, turn: false) }
        // imir axis 0 flips top and bottom (a half turn and a left-right mirror), axis 1 left and right,
        // as libheif and pillow-heif show them.
        #expect(expected.width == turned.width && expected.height == turned.height)
        #expect(psnr(expected, turned) > 40, "\(file): \(psnr(expected, turned)) dB")
    }

    @Test func exifFactsAndCaptionButNeverTheOrientationOrGPS() throws {
        let path = HEIFFixture.all.first { $0.entry.file == "exif.heic" }!.path
        let facts = ExifReader().read(path: path)
        #expect(facts.make == "Waterfall" && facts.model == "Fixture Camera")
        #expect(facts.caption == "A cat, with an Exif item")
        #expect(!(facts.summary ?? "").contains("48"))
        // Informative only: the display size is the stored one.
        #expect(try HeaderReader().read(path: path).get().width == 320)
    }
}

extension TestPixels {
    /// The image turned a quarter anticlockwise (what irot 1 does).
    func turnedAnticlockwise() -> TestPixels {
        var out = TestPixels(width: height, height: width, channels: channels, bytes: bytes)
        for y in 0..<height {
            for x in 0..<width {
                let (nx, ny) = (y, width - 1 - x)
                for k in 0..<channels {
                    out.bytes[(ny * out.width + nx) * channels + k] = bytes[(y * width + x) * channels + k]
                }
            }
        }
        return out
    }
}
