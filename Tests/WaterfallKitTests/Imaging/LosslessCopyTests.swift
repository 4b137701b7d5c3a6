import CImageIO
import Testing

/// The lossless path: where a JPEG's derived image would be the photo itself (its own size, upright, stored
/// as the encoder stores it and no finer than the requested quality), the output is written from the photo's
/// own DCT coefficients. The pixels are then exactly the photo's, and the metadata is gone but the profile.
struct LosslessCopyTests {
    static func derive(_ source: String, width: UInt32 = 4096, quality: Int32 = 0, format: Int32 = 0,
                       forcePNG: Int32 = 0) throws -> (wf_derive_result, String, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let output = folder.path + "/out"
        let result = ModernEncoderTests.derive(source, output,
                                               deriveRequest(width: width, quality: quality, forcePNG: forcePNG, format: format))
        try #require(result.status == WF_DERIVE_OK, "\(ModernEncoderTests.message(result))")
        return (result, output, folder)
    }

    static let copied = [
        Fixtures.conformance("exif-orientation/Landscape_1.jpg"),  // 1800×1200, quality 73, EXIF
        Fixtures.header("J02-exif-II-orientation-1.jpg"),          // EXIF orientation 1
        Fixtures.header("J29-progressive.jpg"),                    // written back as baseline
        Fixtures.header("J31-arithmetic-sof9.jpg"),                // written back with Huffman coding
        Fixtures.header("J34-grayscale.jpg"),
        Fixtures.header("J28-multi-segment-icc-150k.jpg"),         // the profile is carried
    ]

    @Test(arguments: copied)
    func copiedLosslessly(_ source: String) throws {
        let (result, output, _folder) = try Self.derive(source)
        _ = _folder
        #expect(result.copied == 1)
        #expect(result.output_format == WF_FORMAT_JPEG)
        #expect(try TestPixels.decode(output) == TestPixels.decode(source), "the photo's own pixels")
        let markers = jpegMarkers(try Fixtures.bytes(output)).map(\.marker)
        #expect(markers.contains(0xC0), "baseline, Huffman-coded: \(markers)")
        #expect(!markers.contains { $0 == 0xE1 || $0 == 0xFE || $0 == 0xC2 || $0 == 0xC9 || $0 == 0xEE },
                "no EXIF, XMP, comment, progressive or arithmetic frame, Adobe marker: \(markers)")
        #expect(iccProfile(output) == iccProfile(source))
        if !source.hasSuffix("arithmetic-sof9.jpg") {  // arithmetic coding is smaller than any Huffman table
            #expect(try Fixtures.bytes(output).count <= Fixtures.bytes(source).count, "never larger than the photo")
        }
    }

    /// Everything else is decoded and encoded as before.
    @Test func encodedWhereACopyWouldNotDo() throws {
        let cases: [(String, String, UInt32, Int32, Int32, Int32)] = [
            ("4:4:4 chroma (more bytes than the 4:2:0 encode)", Fixtures.header("J47-ycc-444-q70.jpg"), 4096, 0, 0, 0),
            ("16-bit tables (not baseline)", Fixtures.header("J30-extended-sof1.jpg"), 4096, 0, 0, 0),
            ("finer tables than quality 82", Fixtures.thumbnail("gps-xmp-comment-icc.jpg"), 4096, 0, 0, 0),
            ("a turned photo", Fixtures.header("J02-exif-II-orientation-6.jpg"), 4096, 0, 0, 0),
            ("a smaller size", Fixtures.conformance("exif-orientation/Landscape_1.jpg"), 900, 0, 0, 0),
            ("a lower requested quality", Fixtures.conformance("exif-orientation/Landscape_1.jpg"), 4096, 60, 0, 0),
            ("PNG asked for", Fixtures.header("J02-exif-II-orientation-1.jpg"), 4096, 0, 0, 1),
            ("WebP asked for", Fixtures.header("J02-exif-II-orientation-1.jpg"), 4096, 0, Int32(WF_FORMAT_WEBP.rawValue), 0),
            ("CMYK", Fixtures.header("J34-cmyk-adobe.jpg"), 4096, 0, 0, 0),
        ]
        for (why, source, width, quality, format, png) in cases {
            let (result, _, _folder) = try Self.derive(source, width: width, quality: quality, format: format, forcePNG: png)
            _ = _folder
            #expect(result.copied == 0, "\(why)")
        }
        let (turned, _, _folder) = try Self.derive(Fixtures.header("J02-exif-II-orientation-6.jpg"))
        _ = _folder
        #expect(turned.width == 48 && turned.height == 64, "upright")
    }
}
