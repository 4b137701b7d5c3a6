import Foundation
import Testing
@testable import WaterfallKit

/// A still's sketch: its colours on a grid of 8 cells on the long side, upright, as a small PNG that a page
/// carries inline (first-screen tiles and photo pages) until the image arrives.
struct SketchTests {
    /// The sketch of `source` made with a tile of `width`, decoded.
    static func sketch(_ source: String, width: Int = 217, forcePNG: Bool = false) throws -> (DerivedImage, TestPixels?) {
        let folder = try TemporaryFolder()
        let image = try Thumbnailer().make(from: source, to: folder.path + "/tile",
                                           request: ThumbnailRequest(maxWidth: width, forcePNG: forcePNG))
        guard let sketch = image.sketch else { return (image, nil) }
        let png = try #require(Data(base64Encoded: sketch.base64))
        #expect(png.count <= 256)
        try png.write(to: URL(fileURLWithPath: folder.path + "/sketch.png"))
        return (image, try TestPixels.decode(folder.path + "/sketch.png"))
    }

    static func largestDifference(_ a: TestPixels, _ b: TestPixels) -> Int {
        zip(a.rgba, b.rgba).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// The eight EXIF turns of one picture (and the file without a tag) give one upright sketch.
    @Test(arguments: ["Landscape", "Portrait"])
    func everyTurnGivesTheUprightSketch(shape: String) throws {
        let (_, upright) = try Self.sketch(Fixtures.conformance("exif-orientation/\(shape)_1.jpg"))
        let reference = try #require(upright)
        #expect(shape == "Landscape" ? (reference.width, reference.height) == (8, 5) : (reference.width, reference.height) == (5, 8))
        #expect(reference.channels == 3)
        for turn in [0, 2, 3, 4, 5, 6, 7, 8] {
            let (_, turned) = try Self.sketch(Fixtures.conformance("exif-orientation/\(shape)_\(turn).jpg"))
            let pixels = try #require(turned, "\(shape)_\(turn) has no sketch")
            #expect((pixels.width, pixels.height) == (reference.width, reference.height), "\(shape)_\(turn)")
            #expect(Self.largestDifference(pixels, reference) <= 12, "\(shape)_\(turn)")
        }
    }

    /// The sketch is the picture, not noise: its cells differ (the examples are not one colour), and their
    /// mean is the tile's mean colour.
    @Test func itsCellsAverageToTheMeanColour() throws {
        let (image, decoded) = try Self.sketch(Fixtures.inRepository("SampleGallery/coffee-cup.jpg"))
        let pixels = try #require(decoded)
        let average = try #require(image.averageColor)
        let cells = pixels.width * pixels.height
        let rgba = pixels.rgba
        for (channel, expected) in [average.red, average.green, average.blue].enumerated() {
            let sum = stride(from: channel, to: rgba.count, by: 4).reduce(0) { $0 + Int(rgba[$1]) }
            // Cells of unequal size (217 px in 8 columns) weigh a little differently from pixels.
            #expect(abs(sum / cells - Int(expected)) <= 3)
        }
        #expect(Set(stride(from: 0, to: rgba.count, by: 4).map { rgba[$0] }).count > 4)
    }

    /// A photo with transparency has none (the sketch would show through its transparent parts), an
    /// RGBA file that is all opaque has one.
    @Test func onlyOpaqueStillsHaveOne() throws {
        #expect(try Self.sketch(Fixtures.conformance("pngsuite/basn6a08.png"), width: 20).1 == nil)
        #expect(try Self.sketch(Fixtures.header("P12-rgba-all-opaque.png"), width: 20).1 != nil)
    }

    @Test func base64IsStandard() {
        #expect(Sketch(png: Array("Man".utf8)).base64 == "TWFu")
        #expect(Sketch(png: Array("Ma".utf8)).base64 == "TWE=")
        #expect(Sketch(png: Array("M".utf8)).base64 == "TQ==")
        let bytes = (0..<200).map { UInt8(($0 * 37) & 0xFF) }
        #expect(Sketch(png: bytes).base64 == Data(bytes).base64EncodedString())
    }

    /// The cache's text goes into a page's style: only base64 of a plausible length is taken.
    @Test(arguments: ["", "TWFu)", "TWF", "TW=u;x", "TWFu\"", String(repeating: "A", count: 516)])
    func cacheTextThatIsNotASketchIsRefused(text: String) {
        #expect(Sketch(base64: text) == nil)
    }
}
