import Foundation
import Testing
@testable import WaterfallKit

/// Damaged and hostile sources, the limits, bad requests, and the small promises (no upscaling,
/// deterministic output, nothing left behind on failure).
struct ThumbnailFailureTests {
    func attempt(_ source: String, _ request: ThumbnailRequest = .width(100)) throws -> (DeriveError, Bool) {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("thumb").path
        let error = try #require(throws: DeriveError.self) { try Thumbnailer().make(from: source, to: output, request: request) }
        #expect(!error.reason.contains("\n") && !error.reason.isEmpty)
        return (error, FileManager.default.fileExists(atPath: output))
    }

    /// Policy: libjpeg would fill the missing rows with grey; a half-grey photo is never published.
    @Test func truncatedScanFails() throws {
        let (error, leftOver) = try attempt(Fixtures.header("J44-truncated-inside-scan.jpg"))
        #expect(error.kind == .truncated)
        #expect(error.reason == "truncated JPEG: the image data ends early")
        #expect(!leftOver)
    }

    @Test(arguments: [0.97, 0.8, 0.5])
    func photoCutShortFails(fraction: Double) throws {
        let bytes = try Fixtures.bytes(Fixtures.inRepository("SampleGallery/Space/Hubble/hubble-deep-field.jpg"))
        let folder = try TemporaryFolder()
        let cut = try folder.write("cut.jpg", Array(bytes.prefix(Int(Double(bytes.count) * fraction))))
        let (error, _) = try attempt(cut, .width(200))
        #expect(error.kind == .truncated)
    }

    @Test func truncatedPNGFails() throws {
        let bytes = try Fixtures.bytes(Fixtures.inRepository("SampleGallery/gravel.png"))
        let folder = try TemporaryFolder()
        let cut = try folder.write("cut.png", Array(bytes.prefix(bytes.count / 2)))
        let (error, _) = try attempt(cut)
        #expect(error.kind == .truncated)
        #expect(error.reason == "truncated PNG: the image data ends early")
    }

    @Test func corruptScanDataFails() throws {
        var bytes = try Fixtures.bytes(Fixtures.inRepository("SampleGallery/Space/astronaut.jpg"))
        // Overwrite a stretch of entropy-coded data with a bogus marker and garbage.
        let sos = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        for i in (sos + 4000)..<(sos + 4400) { bytes[i] = i % 7 == 0 ? 0xFF : UInt8(truncatingIfNeeded: i &* 31) }
        let folder = try TemporaryFolder()
        let damaged = try folder.write("damaged.jpg", bytes)
        let (error, leftOver) = try attempt(damaged, .width(64))
        #expect(error.kind == .corrupt || error.kind == .truncated, "\(error)")
        #expect(!leftOver)
    }

    @Test func progressiveJPEGs() throws {
        let folder = try TemporaryFolder()
        for (file, width) in [(Fixtures.header("J29-progressive.jpg"), 32),
                              (Fixtures.inRepository("SampleGallery/retina-fundus.jpg"), 300)] {
            let made = try Thumbnailer().make(from: file, to: folder.url.appendingPathComponent("p\(width)").path,
                                              request: .width(width))
            #expect(made.source.progressive && made.width == width)
        }
    }

    @Test func scanLimit() throws {
        var request = ThumbnailRequest.width(100)
        request.maxScans = 2
        let (error, _) = try attempt(Fixtures.inRepository("SampleGallery/retina-fundus.jpg"), request)
        #expect(error.kind == .limit)
        #expect(error.reason == "JPEG with more than 2 scans (the limit for progressive files)")
    }

    @Test func memoryLimit() throws {
        var request = ThumbnailRequest.width(100)
        request.maxDecoderMemory = 1 << 20 // the 1411² progressive file's coefficients need about 6 MB
        let (error, _) = try attempt(Fixtures.inRepository("SampleGallery/retina-fundus.jpg"), request)
        #expect(error.kind == .limit)
        #expect(error.reason.contains("1 MiB decoding limit"))
    }

    /// An interlaced PNG is held whole (Adam7's passes fill every row), so it is budgeted as a progressive
    /// JPEG's coefficients are, from the header; the same image not interlaced is read a row at a time.
    @Test func interlacedPNGMemoryLimit() throws {
        let folder = try TemporaryFolder()
        var request = ThumbnailRequest.width(100)
        request.maxDecoderMemory = 1 << 20 // 1000 × 500 RGBA held whole: 2,000,000 bytes and 4,000 of row pointers
        let interlaced = try GeneratedImages.png(folder.path + "/adam7.png", 1000, 500, colour: "rgba", interlaced: true)
        let (error, leftOver) = try attempt(interlaced, request)
        #expect(error.kind == .limit && !leftOver)
        #expect(error.reason == "PNG needs more than the 1 MiB decoding limit (a large interlaced file: 2 MiB held whole)")
        let plain = try GeneratedImages.png(folder.path + "/plain.png", 1000, 500, colour: "rgba")
        let made = try Thumbnailer().make(from: plain, to: folder.path + "/plain-thumb", request: request)
        #expect(made.width == 100 && made.height == 50)
    }

    /// The cap is checked on the header: J41 claims 65500×65500 in a tiny file that has no image data at all,
    /// so any attempt to decode would have ended as "truncated" instead.
    @Test func pixelCapRefusesBeforeDecoding() throws {
        let (claim, _) = try attempt(Fixtures.header("J41-65500x65500-tiny-file.jpg"))
        #expect(claim.kind == .tooLarge)
        #expect(claim.reason == "65500×65500 is 4290.3 megapixels, over the 250-megapixel limit")
        var request = ThumbnailRequest.width(100)
        request.maxPixels = 200_000
        let (small, _) = try attempt(Fixtures.inRepository("SampleGallery/Space/astronaut.jpg"), request)
        #expect(small.kind == .tooLarge)
        #expect(small.reason == "512×512 is 0.3 megapixels, over the 0.2-megapixel limit")
    }

    /// Small limits read right, and one decimal of megapixels is used only where it tells the two apart;
    /// the C deriver and the Swift header reader say the same words.
    @Test(arguments: [
        (1, "512×512 is 262144 pixels, over the 1-pixel limit"),
        (100_000, "512×512 is 0.3 megapixels, over the 0.1-megapixel limit"),
        (250_000, "512×512 is 262144 pixels, over the 250000-pixel limit"),
        (262_143, "512×512 is 262144 pixels, over the 262143-pixel limit"),
        (200_001, "512×512 is 262144 pixels, over the 200001-pixel limit"),
    ])
    func pixelLimitMessages(limit: Int, message: String) throws {
        let photo = Fixtures.inRepository("SampleGallery/Space/astronaut.jpg")
        var request = ThumbnailRequest.width(100)
        request.maxPixels = limit
        let (derived, _) = try attempt(photo, request)
        #expect(derived.reason == message)
        guard case .failure(let header) = HeaderReader(maxPixels: limit).read(path: photo) else {
            Issue.record("the header reader let \(limit) pass"); return
        }
        #expect(header.reason == message)
    }

    @Test func headerFailuresKeepHeaderReaderWords() throws {
        let (bmp, _) = try attempt(Fixtures.header("J46-bmp-named.jpg"))
        #expect(bmp == DeriveError(.unsupported, "not an image format Waterfall reads (starts with 42 4D 00 00)"))
        let (empty, _) = try attempt(Fixtures.header("J45-empty.jpg"))
        #expect(empty.kind == .empty)
        let (missing, _) = try attempt("/nonexistent/photo.jpg")
        #expect(missing.kind == .io)
        let (lossless, _) = try attempt(Fixtures.header("J32-sof-C3.jpg"))
        #expect(lossless.kind == .unsupported)
    }

    @Test func badRequests() throws {
        let source = Fixtures.inRepository("SampleGallery/Space/astronaut.jpg")
        #expect(try attempt(source, ThumbnailRequest()).0.kind == .invalidRequest)
        #expect(try attempt(source, ThumbnailRequest(maxWidth: 100, quality: 0)).0.kind == .invalidRequest)
        #expect(try attempt(source, ThumbnailRequest(maxWidth: -5)).0.kind == .invalidRequest)
    }

    @Test func unwritableOutput() throws {
        let error = try #require(throws: DeriveError.self) {
            try Thumbnailer().make(from: Fixtures.inRepository("SampleGallery/Space/astronaut.jpg"),
                                   to: "/nonexistent-folder/thumb.jpg", request: .width(50))
        }
        #expect(error.kind == .write)
        #expect(error.reason == "cannot create the output: No such file or directory")
    }

    @Test func boxes() throws {
        let folder = try TemporaryFolder()
        let output = { (name: String) in folder.url.appendingPathComponent(name).path }
        let source = Fixtures.inRepository("SampleGallery/Space/Hubble/hubble-tall.jpg") // 290×870
        let thumbnailer = Thumbnailer()
        var made = try thumbnailer.make(from: source, to: output("a"), request: .width(800))
        #expect(made.width == 290 && made.height == 870, "never upscaled")
        made = try thumbnailer.make(from: source, to: output("b"), request: .longEdge(300))
        #expect(made.width == 100 && made.height == 300)
        made = try thumbnailer.make(from: source, to: output("c"), request: ThumbnailRequest(maxHeight: 87))
        #expect(made.width == 29 && made.height == 87 && made.dctScale == 4)
        made = try thumbnailer.make(from: source, to: output("d"), request: ThumbnailRequest(maxWidth: 145, maxHeight: 1000))
        #expect(made.width == 145 && made.height == 435 && made.dctScale == 1)
    }

    @Test func deterministic() throws {
        let folder = try TemporaryFolder()
        for source in ["SampleGallery/coffee-cup.jpg", "SampleGallery/chelsea-cutout.png"] {
            let a = folder.url.appendingPathComponent(source + "-a").path, b = folder.url.appendingPathComponent(source + "-b").path
            try FileManager.default.createDirectory(atPath: folder.url.appendingPathComponent("SampleGallery").path,
                                                    withIntermediateDirectories: true)
            _ = try Thumbnailer().make(from: Fixtures.inRepository(source), to: a, request: .width(120))
            _ = try Thumbnailer().make(from: Fixtures.inRepository(source), to: b, request: .width(120))
            #expect(try Fixtures.bytes(a) == (try Fixtures.bytes(b)))
        }
    }

    /// The output is created as a new file: nothing already at its name is written over or through.
    @Test func neverWritesOverOrThroughWhatIsThere() throws {
        let folder = try TemporaryFolder()
        let source = Fixtures.inRepository("SampleGallery/coffee-cup.jpg")
        let existing = try folder.write("existing.jpg", Array("mine".utf8))
        let victim = try folder.write("victim.txt", Array("keep".utf8))
        let link = folder.path + "/link.jpg"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        for output in [existing, link] {
            let error = try #require(throws: DeriveError.self) { try Thumbnailer().make(from: source, to: output, request: .width(40)) }
            #expect(error.reason.hasPrefix("cannot create the output: File exists"), "\(error)")
        }
        #expect(try Fixtures.bytes(existing) == Array("mine".utf8))
        #expect(try Fixtures.bytes(victim) == Array("keep".utf8))
    }

    @Test func grayStaysGray() throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("g").path
        let made = try Thumbnailer().make(from: Fixtures.header("J34-grayscale.jpg"), to: output, request: .width(24))
        #expect(made.format == .jpeg)
        #expect(try TestPixels.decode(output).channels == 1)
    }
}

/// PNG specifics: orientation from an eXIf chunk before IDAT (not after, as the header reader decides), and
/// compression bombs in ancillary chunks cost nothing.
struct ThumbnailPNGSourceTests {
    @Test(arguments: [("P04-exif-6-before-idat.png", 30, 40), ("P04-exif-II-8-before-idat.png", 30, 40),
                      ("P05-exif-6-after-idat.png", 40, 30)])
    func exifOrientation(file: String, width: Int, height: Int) throws {
        let folder = try TemporaryFolder()
        let made = try Thumbnailer().make(from: Fixtures.header(file), to: folder.url.appendingPathComponent("t").path,
                                          request: .longEdge(100))
        #expect(made.width == width && made.height == height)
    }

    @Test(arguments: ["P10-iccp-100MB-bomb.png", "P10-ztxt-100MB-bomb.png"])
    func bombs(file: String) throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("t").path
        let made = try Thumbnailer().make(from: Fixtures.header(file), to: output, request: .width(20))
        #expect(made.colorProfileLength == 0)
        #expect(iccProfile(output).isEmpty)
    }

    @Test func sideLimit() throws {
        let (error, _) = try ThumbnailFailureTests().attempt(Fixtures.header("P07-1000001x10.png"))
        #expect(error.kind == .tooLarge)
        #expect(error.reason == "1000001×10 has a side over 1,000,000 pixels")
    }
}
