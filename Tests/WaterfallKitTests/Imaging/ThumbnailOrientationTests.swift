import Foundation
import Testing
@testable import WaterfallKit

/// The 18 EXIF orientation examples, 200 wide, against Pillow's exif_transpose + LANCZOS of each: every
/// thumbnail is upright, and the comparison is sharp enough to tell a mirrored or half-turned one.
struct ThumbnailOrientationTests {
    static let cases = ThumbnailCase.all("orientation")

    @Test func allEighteenExamplesHaveReferences() {
        #expect(Self.cases.count == 18)
    }

    @Test(arguments: cases)
    func upright(_ c: ThumbnailCase) throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("thumb").path
        let made = try Thumbnailer().make(from: c.source, to: output, request: .width(c.width))
        let reference = try TestPixels.decode(c.reference)
        #expect(made.format == .jpeg)
        #expect(made.width == reference.width && made.height == reference.height)
        #expect(made.dctScale > 1, "a 1200- or 1800-pixel source for a 200-pixel box decodes at a DCT scale")
        let ours = try TestPixels.decode(output)
        let upright = psnr(ours, reference)
        #expect(upright > 30, "PSNR against the upright reference: \(upright) dB")
        // The same comparison against a wrongly turned reference fails by a wide margin.
        for (mirror, turn) in [(true, false), (false, true), (true, true)] {
            let wrong = psnr(ours, reference.transformed(mirror: mirror, turn: turn))
            #expect(wrong < upright - 10 && wrong < 20, "mirror \(mirror), turn \(turn): \(wrong) dB")
        }
        // The output is upright by its pixels: it carries no EXIF, so no orientation tag.
        #expect(!jpegMarkers(try Fixtures.bytes(output)).contains { $0.marker == 0xE1 })
    }
}
