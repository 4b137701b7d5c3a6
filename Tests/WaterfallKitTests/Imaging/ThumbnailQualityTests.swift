import Foundation
import Testing
@testable import WaterfallKit

/// Resampling quality against Pillow's LANCZOS of the fully decoded source (no DCT scaling), compared
/// losslessly (PNG output), and the CMYK/YCCK conversion against a naive conversion of Pillow's decode.
struct ThumbnailQualityTests {
    static let photos = ThumbnailCase.all("quality")
    static let cmyk = ThumbnailCase.all("cmyk")

    @Test func referencesArePresent() {
        #expect(Self.photos.count >= 10)
        #expect(Self.cmyk.count == 2)
    }

    @Test(arguments: photos)
    func lanczos(_ c: ThumbnailCase) throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("thumb").path
        var request = ThumbnailRequest.width(c.width)
        request.forcePNG = true
        let made = try Thumbnailer().make(from: c.source, to: output, request: request)
        let reference = try TestPixels.decode(c.reference)
        #expect(made.format == .png)
        #expect(made.width == reference.width && made.height == reference.height)
        if made.source.format == .jpeg {
            #expect(made.dctScale >= 2, "the box is small enough for a DCT-scaled decode")
        }
        let ours = try TestPixels.decode(output)
        #expect(ours.channels == reference.channels, "gray stays gray, alpha stays alpha")
        let quality = psnr(ours, reference)
        #expect(quality >= 35, "PSNR \(quality) dB")
    }

    /// The shipping path, JPEG at quality 82, stays close too.
    @Test func jpegOutput() throws {
        let c = try #require(Self.photos.first { $0.source.hasSuffix("retina-fundus.jpg") })
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("thumb").path
        let made = try Thumbnailer().make(from: c.source, to: output, request: .width(c.width))
        #expect(made.format == .jpeg && made.dctScale == 2 && made.source.progressive)
        let quality = psnr(try TestPixels.decode(output), try TestPixels.decode(c.reference))
        #expect(quality >= 32, "PSNR \(quality) dB")
    }

    @Test(arguments: cmyk)
    func cmykBecomesRGB(_ c: ThumbnailCase) throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("thumb").path
        var request = ThumbnailRequest.width(c.width)
        request.forcePNG = true
        let made = try Thumbnailer().make(from: c.source, to: output, request: request)
        #expect(made.source.components == 4)
        let ours = try TestPixels.decode(output)
        #expect(ours.channels == 3)
        let quality = psnr(ours, try TestPixels.decode(c.reference))
        #expect(quality >= 35, "PSNR \(quality) dB")
    }
}
