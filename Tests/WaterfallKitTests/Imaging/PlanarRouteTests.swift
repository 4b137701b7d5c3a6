import CImageIO
import Foundation
import Testing

/// The planar route: a YCbCr JPEG made into JPEGs stays in its own Y, Cb and Cr planes (no chroma
/// upsampling, no RGB and back; chroma resampled at half size). Its images must be as good as the RGB
/// route's, which every other source takes, and land on the same pixels (a chroma plane filtered at the
/// wrong scale or offset shifts the colours against the luma).
struct PlanarRouteTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let source: String
        let width: UInt32
        var testDescription: String { "\((source as NSString).lastPathComponent) → \(width) wide" }
    }

    /// Every chroma layout at odd sizes, the EXIF turns, progressive and arithmetic files; boxes that keep
    /// the size, shrink by an odd factor, and shrink enough for a DCT-scaled decode (where libjpeg makes
    /// chroma full size in its IDCT).
    static let cases: [Case] = {
        let layouts = ["420", "422", "440", "411", "444"].map { Fixtures.header("J48-ycc-\($0)-odd.jpg") }
        var cases = layouts.flatMap { source in [157, 101, 38, 19].map { Case(source: source, width: $0) } }
        cases += (1...8).map { Case(source: Fixtures.conformance("exif-orientation/Landscape_\($0).jpg"), width: 301) }
        cases += (5...8).map { Case(source: Fixtures.conformance("exif-orientation/Portrait_\($0).jpg"), width: 129) }
        cases += [Case(source: Fixtures.header("J29-progressive.jpg"), width: 31),
                  Case(source: Fixtures.header("J31-arithmetic-sof9.jpg"), width: 33),
                  Case(source: Fixtures.inRepository("SampleGallery/coffee-cup.jpg"), width: 333)]
        return cases
    }()

    static func derive(_ source: String, width: UInt32, quality: Int32, noPlanes: Bool)
        throws -> (wf_derive_result, TestPixels) {
        let folder = try TemporaryFolder()
        let output = folder.path + "/out"
        var request = deriveRequest(width: width, quality: quality)
        request.no_planes = noPlanes ? 1 : 0
        let result = ModernEncoderTests.derive(source, output, request)
        try #require(result.status == WF_DERIVE_OK, "\(ModernEncoderTests.message(result))")
        return (result, try TestPixels.decode(output))
    }

    @Test(arguments: cases)
    func planesLandWhereRGBDoes(_ c: Case) throws {
        let (planar, ours) = try Self.derive(c.source, width: c.width, quality: 100, noPlanes: false)
        let (rgb, reference) = try Self.derive(c.source, width: c.width, quality: 100, noPlanes: true)
        #expect(planar.planes == 1 && rgb.planes == 0, "the route asked for was taken")
        #expect(planar.copied == 0 || planar.width == planar.source.width)
        #expect(planar.width == rgb.width && planar.height == rgb.height)
        #expect(ours.channels == 3)
        let quality = psnr(ours, reference)
        #expect(quality >= 36, "PSNR \(quality) dB against the RGB route")
        for k in 0..<3 {
            let a = [planar.average_rgb.0, planar.average_rgb.1, planar.average_rgb.2][k]
            let b = [rgb.average_rgb.0, rgb.average_rgb.1, rgb.average_rgb.2][k]
            #expect(abs(Int(a) - Int(b)) <= 2, "average colour channel \(k): \(a) against \(b)")
        }
    }

    /// Against Pillow's Lanczos of the full decode: the planar route is as close as the RGB route, never
    /// more than a tenth of a decibel further.
    @Test(arguments: ThumbnailCase.all("quality").filter { $0.source.hasSuffix(".jpg") })
    func asGoodAsTheRGBRoute(_ c: ThumbnailCase) throws {
        let reference = try TestPixels.decode(c.reference)
        let (planar, ours) = try Self.derive(c.source, width: UInt32(c.width), quality: 100, noPlanes: false)
        let (_, rgb) = try Self.derive(c.source, width: UInt32(c.width), quality: 100, noPlanes: true)
        #expect(planar.planes == (reference.channels == 3 ? 1 : 0), "a gray photo stays gray")
        let planarPSNR = psnr(ours, reference), rgbPSNR = psnr(rgb, reference)
        #expect(planarPSNR >= rgbPSNR - 0.1, "planes \(planarPSNR) dB, RGB \(rgbPSNR) dB")
    }

    /// Gray, CMYK and RGB-stored JPEGs, and sets with another output format, keep the interleaved route.
    @Test func otherSourcesAndFormatsKeepTheirRoute() throws {
        let folder = try TemporaryFolder()
        for (index, name) in ["J34-grayscale.jpg", "J34-cmyk-adobe.jpg", "J34-ycck-adobe.jpg"].enumerated() {
            let result = ModernEncoderTests.derive(Fixtures.header(name), folder.path + "/a\(index)", deriveRequest(width: 20))
            #expect(result.status == WF_DERIVE_OK && result.planes == 0, "\(name): \(ModernEncoderTests.message(result))")
        }
        let source = Fixtures.header("J48-ycc-420-odd.jpg")
        let requests = [deriveRequest(width: 50, forcePNG: 1), deriveRequest(width: 50, format: Int32(WF_FORMAT_WEBP.rawValue))]
        for (index, request) in requests.enumerated() {
            let result = ModernEncoderTests.derive(source, folder.path + "/b\(index)", request)
            #expect(result.status == WF_DERIVE_OK && result.planes == 0, "\(ModernEncoderTests.message(result))")
        }
    }
}
