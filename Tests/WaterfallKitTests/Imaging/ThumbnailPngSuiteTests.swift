import Foundation
import Testing
@testable import WaterfallKit

/// Every PngSuite file. The good ones make an image of the right size, PNG exactly when Pillow finds a
/// transparent pixel in the source (thumbnails/pngsuite.tsv); every x* file fails with a one-line error,
/// xcsn0g01 (a bad IDAT checksum, invisible to the header reader) included.
struct ThumbnailPngSuiteTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        let file: String
        let width: Int
        let height: Int
        let transparent: Bool
        var testDescription: String { file }
    }

    static let expectations: [Expectation] = {
        guard let text = try? String(contentsOfFile: Fixtures.thumbnail("pngsuite.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "\t").map(String.init)
            guard f.count == 4, let w = Int(f[1]), let h = Int(f[2]) else { return nil }
            return Expectation(file: f[0], width: w, height: h, transparent: f[3] == "1")
        }
    }()

    static let broken = (try? Fixtures.files(in: "conformance/pngsuite"))?.filter { $0.hasPrefix("x") && $0.hasSuffix(".png") } ?? []

    @Test func everyFileIsCovered() {
        #expect(Self.expectations.count + Self.broken.count == 175)
        #expect(Self.broken.contains("xcsn0g01.png"))
    }

    @Test(arguments: expectations)
    func goodFile(_ e: Expectation) throws {
        let folder = try TemporaryFolder()
        let source = Fixtures.conformance("pngsuite/\(e.file)")
        // A box larger than the image: nothing is upscaled, and the pixels pass through exactly.
        let same = try Thumbnailer().make(from: source, to: folder.url.appendingPathComponent("same").path,
                                          request: .longEdge(300))
        #expect(same.width == e.width && same.height == e.height)
        #expect(same.format == (e.transparent ? .png : .jpeg), "alpha kept exactly where some pixel is transparent")
        if e.transparent {
            let ours = try TestPixels.decode(folder.url.appendingPathComponent("same").path)
            #expect(ours.channels == 2 || ours.channels == 4)
        }
        // A smaller box goes through the resampler, for every bit depth and colour type.
        let small = try Thumbnailer().make(from: source, to: folder.url.appendingPathComponent("small").path,
                                           request: .width(20))
        #expect(small.width == min(20, e.width))
        #expect(small.height == (e.width <= 20 ? e.height : max(1, (e.height * 20 + e.width / 2) / e.width)))
    }

    @Test(arguments: broken)
    func brokenFile(_ file: String) throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("out").path
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: Fixtures.conformance("pngsuite/\(file)"), to: output, request: .width(20))
        }
        #expect(!error.reason.isEmpty && !error.reason.contains("\n"))
        #expect(!FileManager.default.fileExists(atPath: output), "a failure leaves nothing behind")
        if file == "xcsn0g01.png" {
            #expect(error.kind == .corrupt)
            #expect(error.reason == "corrupt PNG: IDAT: CRC error")
        }
    }

    /// libpng skips zlib's Adler-32 (PNG_IGNORE_ADLER32): the chunk CRCs already check every IDAT byte. A
    /// file whose Adler-32 alone is wrong decodes to the original's pixels; the same damage without the CRC
    /// put right is still a corrupt file.
    @Test func adlerIsLeftToTheChunkCRCs() throws {
        let folder = try TemporaryFolder()
        let original = Fixtures.conformance("pngsuite/basn2c08.png")
        var bytes = try Fixtures.bytes(original)
        // The last IDAT's data ends with the zlib stream's Adler-32; its CRC follows.
        var offset = 8, lastIDAT = -1
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if bytes[offset + 4..<offset + 8].elementsEqual("IDAT".utf8) { lastIDAT = offset }
            offset += 12 + length
        }
        try #require(lastIDAT >= 0)
        let length = bytes[lastIDAT..<lastIDAT + 4].reduce(0) { $0 << 8 | Int($1) }
        let dataEnd = lastIDAT + 8 + length
        bytes[dataEnd - 1] ^= 0x5A
        let damaged = folder.url.appendingPathComponent("adler-crc-stale.png")
        try Data(bytes).write(to: damaged)
        let crc = Self.crc32(bytes[lastIDAT + 4..<dataEnd])
        for k in 0..<4 { bytes[dataEnd + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(k))) }
        let mended = folder.url.appendingPathComponent("adler-only.png")
        try Data(bytes).write(to: mended)

        func derive(_ source: String, _ name: String) throws -> TestPixels {
            let output = folder.url.appendingPathComponent(name).path
            _ = try Thumbnailer().make(from: source, to: output, request: .longEdge(300))
            return try TestPixels.decode(output)
        }
        #expect(try derive(mended.path, "mended") == derive(original, "original"))
        let error = try #require(throws: DeriveError.self) { _ = try derive(damaged.path, "damaged") }
        #expect(error.kind == .corrupt)
    }

    /// PNG's CRC-32 (ISO 3309, reflected, as zlib's crc32).
    static func crc32<S: Sequence>(_ bytes: S) -> UInt32 where S.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
