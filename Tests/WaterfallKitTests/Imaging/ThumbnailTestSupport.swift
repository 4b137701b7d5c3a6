import CImageIO
import Foundation
import Testing
@testable import WaterfallKit

extension Fixtures {
    static let repository = root.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func thumbnail(_ name: String) -> String { root.appendingPathComponent("thumbnails/\(name)").path }

    /// A path in the repository (SampleGallery/..., Tests/...).
    static func inRepository(_ path: String) -> String { repository.appendingPathComponent(path).path }
}

/// One row of thumbnails/cases.tsv: a source, the box width, and Pillow's reference for it.
struct ThumbnailCase: Sendable, CustomTestStringConvertible {
    let kind: String
    let source: String
    let width: Int
    let reference: String

    var testDescription: String { "\((source as NSString).lastPathComponent) → \(width) wide" }

    static func all(_ kind: String) -> [ThumbnailCase] {
        guard let text = try? String(contentsOfFile: Fixtures.thumbnail("cases.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 4, fields[0] == kind, let width = Int(fields[2]) else { return nil }
            return ThumbnailCase(kind: kind, source: Fixtures.inRepository(fields[1]), width: width,
                                 reference: Fixtures.thumbnail(fields[3]))
        }
    }
}

/// Decoded pixels (through CImageIO's own decoders: libjpeg and libpng, as stored, no orientation).
struct TestPixels: Equatable {
    var width: Int
    var height: Int
    var channels: Int
    var bytes: [UInt8]

    static func decode(_ path: String) throws -> TestPixels {
        var image = wf_image()
        wf_decode_image(path, &image)
        defer { wf_image_free(&image) }
        let message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        try #require(image.status == WF_DERIVE_OK, "\(path): \(message)")
        let count = Int(image.width) * Int(image.height) * Int(image.channels)
        return TestPixels(width: Int(image.width), height: Int(image.height), channels: Int(image.channels),
                          bytes: Array(UnsafeBufferPointer(start: image.pixels, count: count)))
    }

    /// RGBA, whatever the channels: gray is repeated, a missing alpha is 255.
    var rgba: [UInt8] {
        var out = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            let p = bytes[(i * channels)..<(i * channels + channels)]
            let s = p.startIndex
            switch channels {
            case 1: out[i * 4] = p[s]; out[i * 4 + 1] = p[s]; out[i * 4 + 2] = p[s]
            case 2: out[i * 4] = p[s]; out[i * 4 + 1] = p[s]; out[i * 4 + 2] = p[s]; out[i * 4 + 3] = p[s + 1]
            case 3: out[i * 4] = p[s]; out[i * 4 + 1] = p[s + 1]; out[i * 4 + 2] = p[s + 2]
            default: for k in 0..<4 { out[i * 4 + k] = p[s + k] }
            }
        }
        return out
    }

    /// The same image mirrored left to right, or turned half way: what a wrong orientation would give.
    func transformed(mirror: Bool, turn: Bool) -> TestPixels {
        var out = self
        for y in 0..<height {
            for x in 0..<width {
                let sx = mirror != turn ? width - 1 - x : x
                let sy = turn ? height - 1 - y : y
                for k in 0..<channels {
                    out.bytes[(y * width + x) * channels + k] = bytes[(sy * width + sx) * channels + k]
                }
            }
        }
        return out
    }
}

/// Peak signal-to-noise ratio in dB, 8-bit. Over RGB for opaque images; with alpha, over premultiplied colour
/// and alpha: what a browser composites. (Colour under alpha 0 is meaningless, and at alpha 1 or 2 Pillow's
/// 8-bit premultiplied resize keeps almost none of it.)
func psnr(_ a: TestPixels, _ b: TestPixels) -> Double {
    precondition(a.width == b.width && a.height == b.height, "sizes differ")
    let x = a.rgba, y = b.rgba
    let opaque = stride(from: 3, to: x.count, by: 4).allSatisfy { x[$0] == 255 && y[$0] == 255 }
    var sum = 0.0, count = 0
    for i in 0..<x.count where !(opaque && i % 4 == 3) {
        let pixel = i - i % 4
        let scaleX = i % 4 == 3 ? 1 : Double(x[pixel + 3]) / 255, scaleY = i % 4 == 3 ? 1 : Double(y[pixel + 3]) / 255
        let d = Double(x[i]) * scaleX - Double(y[i]) * scaleY
        sum += d * d
        count += 1
    }
    guard sum > 0 else { return .infinity }
    return 10 * log10(255 * 255 / (sum / Double(count)))
}

/// The markers of a JPEG file, in order, up to and including EOI (entropy-coded data is stepped over).
func jpegMarkers(_ bytes: [UInt8]) -> [(marker: UInt8, payload: ArraySlice<UInt8>)] {
    var out: [(UInt8, ArraySlice<UInt8>)] = []
    guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return out }
    out.append((0xD8, []))
    var i = 2
    while i + 1 < bytes.count {
        guard bytes[i] == 0xFF else { i += 1; continue }  // inside entropy-coded data
        let marker = bytes[i + 1]
        if marker == 0x00 || marker == 0xFF || (0xD0...0xD7).contains(marker) { i += 2; continue }  // stuffing, fill, RSTn
        if marker == 0xD9 { out.append((marker, [])); break }
        let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        out.append((marker, bytes[(i + 4)..<min(bytes.count, i + 2 + length)]))
        i += 2 + length
    }
    return out
}

/// The chunk types of a PNG file, in order.
func pngChunks(_ bytes: [UInt8]) -> [String] {
    var out: [String] = []
    var i = 8
    while i + 8 <= bytes.count {
        let length = bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
        out.append(String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self))
        i += 12 + length
    }
    return out
}

/// A file's ICC profile as libjpeg's jpeg_read_icc_profile or libpng's iCCP reader sees it.
func iccProfile(_ path: String) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    let length = buffer.withUnsafeMutableBufferPointer { wf_read_icc_profile(path, $0.baseAddress, $0.count) }
    return Array(buffer.prefix(length))
}
