import Foundation
import Testing
@testable import WaterfallKit

/// The EXIF orientation examples and the whole PngSuite (copied from shared/conformance).
struct ConformanceTests {
    static let orientationFiles = (try? Fixtures.files(in: "conformance/exif-orientation"))?
        .filter { $0.hasSuffix(".jpg") } ?? []
    static let pngSuiteFiles = (try? Fixtures.files(in: "conformance/pngsuite"))?
        .filter { $0.hasSuffix(".png") } ?? []

    @Test func suitesArePresent() {
        #expect(Self.orientationFiles.count == 18)
        #expect(Self.pngSuiteFiles.count == 175)
    }

    @Test("every Landscape_* displays 1800×1200 and every Portrait_* 1200×1800", arguments: orientationFiles)
    func orientationExample(file: String) throws {
        let header = try HeaderReader().read(path: Fixtures.conformance("exif-orientation/\(file)")).get()
        let landscape = file.hasPrefix("Landscape")
        #expect(header.width == (landscape ? 1800 : 1200))
        #expect(header.height == (landscape ? 1200 : 1800))
        // The digit in the name is the orientation the file carries (0 means none).
        let digit = Int(String(file.dropFirst(file.firstIndex(of: "_")!.utf16Offset(in: file) + 1).prefix(1)))!
        #expect(header.orientation.rawValue == max(digit, 1))
    }

    /// `x*` files are broken on purpose. xcsn0g01's damage is a bad IDAT checksum: pixel data that a header
    /// reader never reads, so it reads fine here and must fail later, when decoded.
    @Test("PngSuite: the good files read, every x* file except xcsn0g01 is an error", arguments: pngSuiteFiles)
    func pngSuite(file: String) throws {
        let result = HeaderReader().read(path: Fixtures.conformance("pngsuite/\(file)"))
        if file.hasPrefix("x") && file != "xcsn0g01.png" {
            #expect(throws: ImageReadError.self, "\(file) should fail") { try result.get() }
            return
        }
        let header = try result.get()
        #expect(header.format == .png)
        // PngSuite names encode the facts: s01–s40 are sized N×N, the rest 32×32; the fifth letter says
        // interlaced ('i') or not; the last two digits are the bit depth.
        let name = file.dropLast(4)
        let sideFromName = file.hasPrefix("s") ? Int(name.dropFirst(1).prefix(2))! : 32
        if !file.hasPrefix("cd") && !file.hasPrefix("xcs") {  // cd*: non-square "physical dimension" images
            #expect(header.pixelWidth == sideFromName && header.pixelHeight == sideFromName, "\(file)")
        }
        #expect(header.progressive == (name.dropFirst(3).first == "i"), "\(file)")
        #expect(header.bitDepth == Int(name.suffix(2))!, "\(file)")
    }
}
