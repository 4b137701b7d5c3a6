import CImageIO
import Testing
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Rows with an alpha channel are taken as opaque (alpha dropped, the fixed-point filter) until one shows
/// otherwise; then the image is decoded again with its alpha. Both ends of the guess.
struct OpaqueGuessTests {
    static func derive(_ name: String, width: UInt32) throws -> (wf_derive_result, TestPixels) {
        let folder = try TemporaryFolder()
        let output = folder.path + "/out"
        let result = ModernEncoderTests.derive(Fixtures.header(name), output, deriveRequest(width: width, forcePNG: 1))
        try #require(result.status == WF_DERIVE_OK, "\(ModernEncoderTests.message(result))")
        return (result, try TestPixels.decode(output))
    }

    /// Every alpha 255: the image is filtered as RGB in fixed point, the very bytes of the RGB filter.
    @Test(arguments: [40, 23, 9] as [UInt32])
    func anImageThatUsesNoAlphaIsFilteredAsRGB(_ width: UInt32) throws {
        let (result, made) = try Self.derive("P12-rgba-all-opaque.png", width: width)
        #expect(result.channels == 3 && made.channels == 3)
        let source = try TestPixels.decode(Fixtures.header("P12-rgba-all-opaque.png"))
        try #require(source.channels == 4)
        let rgb = stride(from: 0, to: source.bytes.count, by: 4).flatMap { source.bytes[$0..<$0 + 3] }
        let height = UInt32(made.height)
        let expected = rgb.withUnsafeBufferPointer {
            wf_resample_image($0.baseAddress, UInt32(source.width), UInt32(source.height), 3, width, height, 1)
        }
        defer { free(expected) }
        let count = Int(width) * Int(height) * 3
        #expect(made.bytes == Array(UnsafeBufferPointer(start: expected, count: count)))
    }

    /// One transparent pixel in the last row: the guess is dropped there and the alpha kept, exactly.
    @Test(arguments: [40, 23] as [UInt32])
    func alphaFoundLateIsKept(_ width: UInt32) throws {
        let (result, made) = try Self.derive("P12-rgba-alpha-in-last-row.png", width: width)
        #expect(result.channels == 4 && made.channels == 4)
        #expect(made.bytes[made.bytes.count - 1] < 255, "the bottom-right pixel is still transparent")
        if width == 40 {
            #expect(made == (try TestPixels.decode(Fixtures.header("P12-rgba-alpha-in-last-row.png"))))
        }
    }
}
