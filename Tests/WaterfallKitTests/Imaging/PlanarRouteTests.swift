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
        // AVIFs stored as JPEG's YCbCr (BT.601, full range): clap, irot and imir, at odd and even sizes.
        let avifs = ["still", "irot-90", "imir-0", "irot-90-imir-1", "clap-irot-270"]
            .map { Fixtures.root.appendingPathComponent("formats/heif/\($0).avif").path }
        cases += avifs.flatMap { source in [95, 64, 33].map { Case(source: source, width: $0) } }
        // RGB from every other decoder, split into planes as it arrives (ycc_split.c): an RGBA PNG whose alpha
        // is all 255, a GIF, lossy WebP, HEICs at odd sizes and turned, an AVIF libavif converts to RGB (P3),
        // a CMYK JPEG; kept at their size and shrunk.
        let formats = Fixtures.root.appendingPathComponent("formats").path
        let split = [(Fixtures.header("P12-rgba-all-opaque.png"), [40, 19]),
                     (Fixtures.header("J34-cmyk-adobe.jpg"), [31]),
                     (formats + "/gif/still.gif", [160, 57]),
                     (formats + "/webp/W01-lossy.webp", [243, 101]),
                     (formats + "/heif/odd-size.heic", [321, 157]),
                     (formats + "/heif/irot-90.heic", [201, 77]),
                     (formats + "/heif/display-p3.avif", [95])]
        cases += split.flatMap { source, widths in widths.map { Case(source: source, width: UInt32($0)) } }
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
        let quality = psnr(ours, reference), chroma = Self.chromaPSNR(ours, reference)
        #expect(quality >= 36, "PSNR \(quality) dB against the RGB route")
        #expect(chroma >= 36, "chroma PSNR \(chroma) dB against the RGB route")
        for k in 0..<3 {
            let a = [planar.average_rgb.0, planar.average_rgb.1, planar.average_rgb.2][k]
            let b = [rgb.average_rgb.0, rgb.average_rgb.1, rgb.average_rgb.2][k]
            #expect(abs(Int(a) - Int(b)) <= 2, "average colour channel \(k): \(a) against \(b)")
        }
    }

    /// Sharp red and blue checks at odd sides (99 × 67), in every EXIF turn, kept at their size: the planar
    /// route's chroma must land on the turned checks as well as the RGB route's does. Turned planes whose
    /// chroma is filtered on the unturned grid sit a pixel off where a side of odd length is mirrored: with
    /// both sides mirrored (3 and 7) that scores 2.2 dB behind the RGB route. As a JPEG (J49: the decoder's
    /// own planes) and as an RGB PNG with an eXIf orientation (P13: split into planes as it arrives).
    @Test(arguments: ["J49-checks-orientation-%d.jpg", "P13-checks-orientation-%d.png"], 1...8)
    func chromaLandsOnTheTurnedChecks(_ pattern: String, _ orientation: Int) throws {
        let source = Fixtures.header(pattern.replacingOccurrences(of: "%d", with: "\(orientation)"))
        let (planar, ours) = try Self.derive(source, width: 99, quality: 100, noPlanes: false)
        let (rgb, reference) = try Self.derive(source, width: 99, quality: 100, noPlanes: true)
        let truth = Self.checks(width: 99, height: 67, orientation: orientation)
        #expect(planar.planes == 1 && rgb.planes == 0 && ours.width == truth.width && ours.height == truth.height)
        let planarChroma = Self.chromaPSNR(ours, truth), rgbChroma = Self.chromaPSNR(reference, truth)
        #expect(planarChroma >= rgbChroma - 1, "chroma PSNR: planes \(planarChroma) dB, RGB \(rgbChroma) dB")
    }

    /// mkjpeg's `checks` (6-pixel squares, red where x / 6 + y / 6 is odd, else blue), turned upright.
    static func checks(width: Int, height: Int, orientation: Int) -> TestPixels {
        let swaps = orientation >= 5
        let (w, h) = swaps ? (height, width) : (width, height)
        var bytes = [UInt8]()
        for y in 0..<h {
            for x in 0..<w {
                let (sx, sy): (Int, Int) = switch orientation {
                case 2: (width - 1 - x, y)
                case 3: (width - 1 - x, height - 1 - y)
                case 4: (x, height - 1 - y)
                case 5: (y, x)
                case 6: (y, height - 1 - x)
                case 7: (width - 1 - y, height - 1 - x)
                case 8: (width - 1 - y, x)
                default: (x, y)
                }
                bytes += (sx / 6 + sy / 6) % 2 == 1 ? [230, 40, 40] : [40, 40, 230]
            }
        }
        return TestPixels(width: w, height: h, channels: 3, bytes: bytes)
    }

    /// PSNR of the Cb and Cr of two RGB images (JFIF's equations), where a chroma misplacement shows
    /// undiluted by the luma.
    static func chromaPSNR(_ a: TestPixels, _ b: TestPixels) -> Double {
        precondition(a.width == b.width && a.height == b.height && a.channels == 3 && b.channels == 3)
        func chroma(_ p: [UInt8], _ i: Int) -> (Double, Double) {
            let r = Double(p[i]), g = Double(p[i + 1]), b = Double(p[i + 2])
            return (-0.168736 * r - 0.331264 * g + 0.5 * b, 0.5 * r - 0.418688 * g - 0.081312 * b)
        }
        var sum = 0.0
        for i in stride(from: 0, to: a.bytes.count, by: 3) {
            let (u1, v1) = chroma(a.bytes, i), (u2, v2) = chroma(b.bytes, i)
            sum += (u1 - u2) * (u1 - u2) + (v1 - v2) * (v1 - v2)
        }
        guard sum > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (sum / Double(a.bytes.count / 3 * 2)))
    }

    /// Against Pillow's Lanczos of the full decode: the planar route is as close as the RGB route, never
    /// more than a tenth of a decibel further.
    @Test(arguments: ThumbnailCase.all("quality"))
    func asGoodAsTheRGBRoute(_ c: ThumbnailCase) throws {
        let reference = try TestPixels.decode(c.reference)
        let (planar, ours) = try Self.derive(c.source, width: UInt32(c.width), quality: 100, noPlanes: false)
        let (_, rgb) = try Self.derive(c.source, width: UInt32(c.width), quality: 100, noPlanes: true)
        #expect(planar.planes == (reference.channels == 3 ? 1 : 0), "a gray photo stays gray, a cut-out keeps its alpha")
        let planarPSNR = psnr(ours, reference), rgbPSNR = psnr(rgb, reference)
        #expect(planarPSNR >= rgbPSNR - 0.1, "planes \(planarPSNR) dB, RGB \(rgbPSNR) dB")
    }

    /// Gray stays gray; a PNG that uses its alpha, and sets with another output format, keep the interleaved
    /// route; CMYK and YCCK JPEGs are split into planes like any RGB.
    @Test func otherSourcesAndFormatsKeepTheirRoute() throws {
        let folder = try TemporaryFolder()
        let sources = [("J34-grayscale.jpg", 0), ("P12-rgba-alpha-in-last-row.png", 0), ("J34-cmyk-adobe.jpg", 1),
                       ("J34-ycck-adobe.jpg", 1)]
        for (index, (name, planes)) in sources.enumerated() {
            let result = ModernEncoderTests.derive(Fixtures.header(name), folder.path + "/a\(index)", deriveRequest(width: 20))
            #expect(result.status == WF_DERIVE_OK && result.planes == planes, "\(name): \(ModernEncoderTests.message(result))")
        }
        let source = Fixtures.header("J48-ycc-420-odd.jpg")
        let requests = [deriveRequest(width: 50, forcePNG: 1), deriveRequest(width: 50, format: Int32(WF_FORMAT_WEBP.rawValue))]
        for (index, request) in requests.enumerated() {
            let result = ModernEncoderTests.derive(source, folder.path + "/b\(index)", request)
            #expect(result.status == WF_DERIVE_OK && result.planes == 0, "\(ModernEncoderTests.message(result))")
        }
    }
}
