import Foundation
import Testing
@testable import WaterfallKit

/// A published thumbnail keeps its colour profile and nothing else: no EXIF (so no GPS), no XMP, no
/// comments, no PNG text chunks.
struct ThumbnailMetadataTests {
    static let srgb = Fixtures.thumbnail("srgb.icc")

    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func make(_ source: String, _ request: ThumbnailRequest = .width(120)) throws -> (DerivedImage, [UInt8], String) {
        let output = folder.url.appendingPathComponent("thumb").path
        let made = try Thumbnailer().make(from: source, to: output, request: request)
        return (made, try Fixtures.bytes(output), output)
    }

    /// Compares profiles without dumping 150 KB into a failure message.
    func sameProfile(_ a: [UInt8], _ b: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(a == b, "profiles differ: \(a.count) and \(b.count) bytes", sourceLocation: sourceLocation)
    }

    @Test func jpegWithGPSXMPAndACommentKeepsOnlyItsProfile() throws {
        let source = Fixtures.thumbnail("gps-xmp-comment-icc.jpg")
        // The fixture really carries what must not leak.
        let before = jpegMarkers(try Fixtures.bytes(source))
        #expect(before.contains { $0.marker == 0xE1 && $0.payload.starts(with: Array("Exif\0\0".utf8)) })
        #expect(before.contains { $0.marker == 0xE1 && $0.payload.starts(with: Array("http://ns.adobe.com/xap/1.0/\0".utf8)) })
        #expect(before.contains { $0.marker == 0xFE })

        let (made, bytes, output) = try make(source)
        #expect(made.format == .jpeg)
        #expect(made.width == 120 && made.height == 180, "orientation 6: the 451×300 photo is shown 300×451")
        let markers = jpegMarkers(bytes).map(\.marker)
        let allowed: Set<UInt8> = [0xD8, 0xE0, 0xE2, 0xDB, 0xC0, 0xC4, 0xDA, 0xD9]
        #expect(Set(markers).isSubset(of: allowed), "markers: \(markers.map { String($0, radix: 16) })")
        #expect(markers.first == 0xD8 && markers.last == 0xD9)
        let app0 = try #require(jpegMarkers(bytes).first { $0.marker == 0xE0 })
        #expect(app0.payload.starts(with: Array("JFIF\0".utf8)))
        for text in ["Exif", "GPS", "xap", "xmpmeta", "shot at home", "Waterfall test camera"] {
            #expect(bytes.firstRange(of: Array(text.utf8)) == nil, "\(text) leaked into the output")
        }
        sameProfile(iccProfile(output), try Fixtures.bytes(Self.srgb))
        #expect(made.colorProfileLength == (try Fixtures.bytes(Self.srgb)).count)
    }

    @Test func transparentPNGKeepsOnlyItsProfile() throws {
        let source = Fixtures.thumbnail("text-exif-icc-alpha.png")
        #expect(pngChunks(try Fixtures.bytes(source)) == ["IHDR", "iCCP", "tEXt", "zTXt", "iTXt", "eXIf", "IDAT", "IEND"])
        let (made, bytes, output) = try make(source, .width(80))
        #expect(made.format == .png)
        // libpng splits the data into 8 KB IDAT chunks; nothing else may appear.
        let chunks = pngChunks(bytes).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        #expect(chunks == ["IHDR", "iCCP", "IDAT", "IEND"])
        sameProfile(iccProfile(output), try Fixtures.bytes(Self.srgb))
    }

    @Test func opaquePNGBecomesAJPEGWithItsProfile() throws {
        let (made, bytes, output) = try make(Fixtures.thumbnail("text-exif-icc-opaque.png"), .width(80))
        #expect(made.format == .jpeg)
        #expect(Set(jpegMarkers(bytes).map(\.marker)).isSubset(of: [0xD8, 0xE0, 0xE2, 0xDB, 0xC0, 0xC4, 0xDA, 0xD9]))
        sameProfile(iccProfile(output), try Fixtures.bytes(Self.srgb))
    }

    /// A 150 KB profile in three APP2 chunks, after a 60 KB APP1: reassembled and rewritten byte for byte.
    @Test(arguments: ["J28-multi-segment-icc-150k.jpg", "J27-60k-app1-30k-icc-before-sof.jpg"])
    func multiSegmentProfile(file: String) throws {
        let source = Fixtures.header(file)
        let profile = iccProfile(source)
        #expect(profile.count > 20_000)
        let (made, bytes, output) = try make(source, .width(16))
        sameProfile(iccProfile(output), profile)
        #expect(made.colorProfileLength == profile.count)
        #expect(!jpegMarkers(bytes).contains { $0.marker == 0xE1 })
    }

    @Test func noProfileInNoProfileOut() throws {
        let (made, bytes, output) = try make(Fixtures.inRepository("SampleGallery/Space/astronaut.jpg"))
        #expect(made.colorProfileLength == 0 && iccProfile(output).isEmpty)
        #expect(!jpegMarkers(bytes).contains { $0.marker == 0xE2 })
    }
}
