import Foundation
import Testing
@testable import WaterfallKit

/// Every case of shared/reference/image-header-cases.md that a file can carry (made by
/// Tests/Tools/make_header_fixtures.py), with the answer the reader must give.
struct HeaderFixtureTests {
    enum Expected: Sendable, CustomStringConvertible {
        /// Stored size and orientation; the display size is derived here, independently of the reader.
        case ok(Int, Int, orientation: Int = 1)
        case error(ImageReadError.Kind, String)

        var description: String {
            switch self {
            case let .ok(w, h, o): "\(w)×\(h) o=\(o)"
            case let .error(kind, text): "\(kind): \(text)"
            }
        }
    }

    static let cases: [(String, Expected)] = {
        var cases: [(String, Expected)] = [("J01-baseline-jfif.jpg", .ok(64, 48))]
        for n in 1...8 {
            cases.append(("J02-exif-II-orientation-\(n).jpg", .ok(64, 48, orientation: n)))
            cases.append(("J10-exif-MM-orientation-\(n).jpg", .ok(64, 48, orientation: n)))
        }
        cases += [
            ("J18-exif-MM-ifd0-offset-26.jpg", .ok(64, 48, orientation: 6)),
            ("J18-exif-II-ifd0-offset-5000.jpg", .ok(64, 48, orientation: 8)),
            ("J19-orientation-only-in-ifd1.jpg", .ok(64, 48)),
            ("J20-orientation-value-0.jpg", .ok(64, 48)),
            ("J20-orientation-value-9.jpg", .ok(64, 48)),
            ("J20-orientation-value-255.jpg", .ok(64, 48)),
            ("J21-orientation-as-long.jpg", .ok(64, 48, orientation: 6)),
            ("J21-orientation-count-2.jpg", .ok(64, 48)),
            ("J22-ifd0-offset-past-segment.jpg", .ok(64, 48)),
            ("J22-entry-count-past-segment.jpg", .ok(64, 48)),
            ("J22-ifd-loop.jpg", .ok(64, 48)),
            ("J23-exif-thumbnail-before-sof-no-jfif.jpg", .ok(640, 480, orientation: 6)),
            ("J24-exif-after-sof.jpg", .ok(64, 48, orientation: 6)),
            ("J25-two-exif-6-then-1.jpg", .ok(64, 48, orientation: 6)),
            ("J26-xmp-orientation-8-only.jpg", .ok(64, 48)),
            ("J26-exif-1-and-xmp-8.jpg", .ok(64, 48)),
            ("J27-60k-app1-30k-icc-before-sof.jpg", .ok(64, 48, orientation: 6)),
            ("J28-multi-segment-icc-150k.jpg", .ok(64, 48)),
            ("J29-progressive.jpg", .ok(64, 48)),
            ("J30-extended-sof1.jpg", .ok(64, 48)),
            ("J31-arithmetic-sof9.jpg", .ok(64, 48)),
            ("J31-arithmetic-progressive-sof10.jpg", .ok(64, 48)),
            ("J32-sof-C3.jpg", .error(.unsupported, "unsupported JPEG process (SOF3, lossless)")),
            ("J32-sof-C5.jpg", .error(.unsupported, "unsupported JPEG process (SOF5, hierarchical)")),
            ("J32-sof-CB.jpg", .error(.unsupported, "unsupported JPEG process (SOF11, lossless, arithmetic-coded)")),
            ("J32-sof-CF.jpg", .error(.unsupported, "unsupported JPEG process (SOF15, hierarchical, arithmetic-coded)")),
            ("J33-12-bit-precision.jpg", .error(.unsupported, "unsupported JPEG precision (12-bit)")),
            ("J34-cmyk-adobe.jpg", .ok(48, 32)),
            ("J34-ycck-adobe.jpg", .ok(48, 32)),
            ("J34-grayscale.jpg", .ok(48, 32)),
            ("J47-ycc-444-q70.jpg", .ok(64, 48)),
            ("J48-ycc-411-odd.jpg", .ok(157, 93)),
            ("J48-ycc-420-odd.jpg", .ok(157, 93)),
            ("J48-ycc-422-odd.jpg", .ok(157, 93)),
            ("J48-ycc-440-odd.jpg", .ok(157, 93)),
            ("J48-ycc-444-odd.jpg", .ok(157, 93)),
            ("J49-checks-orientation-1.jpg", .ok(99, 67)),
            ("J49-checks-orientation-2.jpg", .ok(99, 67, orientation: 2)),
            ("J49-checks-orientation-3.jpg", .ok(99, 67, orientation: 3)),
            ("J49-checks-orientation-4.jpg", .ok(99, 67, orientation: 4)),
            ("J49-checks-orientation-5.jpg", .ok(99, 67, orientation: 5)),
            ("J49-checks-orientation-6.jpg", .ok(99, 67, orientation: 6)),
            ("J49-checks-orientation-7.jpg", .ok(99, 67, orientation: 7)),
            ("J49-checks-orientation-8.jpg", .ok(99, 67, orientation: 8)),
            ("J35-fill-bytes-before-markers.jpg", .ok(64, 48)),
            ("J36-sof-right-after-soi.jpg", .ok(64, 48)),
            // Policy for segment lengths under 2: as libjpeg itself does, skip nothing and resynchronise on
            // the next marker, so what libjpeg will later decode is also what the header reader accepts.
            ("J37-com-length-0.jpg", .ok(64, 48)),
            ("J37-app1-length-1.jpg", .ok(64, 48)),
            ("J38-junk-before-soi.jpg", .error(.unsupported, "not an image format Waterfall reads (starts with 4A 55 4E 4B)")),
            ("J39-extraneous-bytes-between-segments.jpg", .ok(64, 48)),
            ("J40-sof-height-0.jpg", .error(.corrupt, "empty JPEG image (DNL not supported)")),
            ("J41-65500x65500-tiny-file.jpg",
             .error(.tooLarge, "65500×65500 is 4290.3 megapixels, over the 250-megapixel limit")),
            ("J42-65535x65535.jpg", .error(.unsupported, "libjpeg reads at most 65500 pixels a side")),
            ("J43-truncated-10-bytes.jpg", .error(.truncated, "truncated JPEG: the file ends after 10 bytes")),
            ("J43-truncated-before-sof.jpg", .error(.truncated, "truncated JPEG")),
            ("J43-truncated-inside-sof.jpg", .error(.truncated, "truncated JPEG")),
            ("J43-truncated-inside-dht.jpg", .error(.truncated, "truncated JPEG")),
            ("J44-truncated-inside-scan.jpg", .ok(640, 480)),
            ("J45-empty.jpg", .error(.empty, "empty file")),
            ("J46-png-named.jpg", .ok(40, 30)),
            ("J46-jpeg-named.png", .ok(64, 48)),
            ("J46-heic-named.jpg", .error(.corrupt, "corrupt HEIF: invalid input: No 'meta' box")),  // only an ftyp: read as HEIF whatever its name
            ("J46-avif-named.jpg", .error(.corrupt, "corrupt AVIF: invalid input: No 'meta' box")),
            ("J46-webp-named.jpg", .error(.corrupt, "corrupt WebP: the VP8 chunk (0 bytes) is too short for its header")),  // read as WebP whatever its name
            ("J46-gif-named.jpg", .ok(40, 30)),  // a whole GIF: read as GIF whatever its name
            ("J46-bmp-named.jpg", .error(.unsupported, "not an image format Waterfall reads (starts with 42 4D 00 00)")),  // "BM" and no DIB header
            ("J46-tiff-named.jpg", .error(.corrupt, "corrupt TIFF: its first directory (IFD0) has no entries")),
            ("J46-text-named.jpg", .error(.unsupported, "not an image format Waterfall reads (starts with 48 65 6C 6C)")),
            ("J47-100k-com-markers.jpg", .ok(64, 48)),
            ("J47-100k-app1-markers.jpg", .ok(64, 48)),
            ("P01-rgb-16-bit-interlaced.png", .ok(33, 17)),
            ("P02-cgbi.png", .error(.unsupported, "unsupported format (Apple CgBI PNG)")),
            ("P03-apng.png", .ok(40, 30)),
            ("P04-exif-6-before-idat.png", .ok(40, 30, orientation: 6)),
            ("P04-exif-II-8-before-idat.png", .ok(40, 30, orientation: 8)),
            // png_read_info stops at the first IDAT, and browsers ignore a late eXIf too.
            ("P05-exif-6-after-idat.png", .ok(40, 30)),
            ("P06-ihdr-2147483647-square.png", .error(.tooLarge, "over the 250-megapixel limit")),
            // libpng's 1,000,000-pixel side limit is lifted; the pixel cap is what guards.
            ("P07-1000001x10.png", .ok(1_000_001, 10)),
            ("P08-bad-ihdr-crc.png", .error(.corrupt, "IHDR: CRC error")),
            ("P09-truncated-inside-ihdr.png", .error(.truncated, "truncated PNG: the file ends after 20 bytes")),
            ("P10-iccp-100MB-bomb.png", .ok(40, 30)),
            ("P10-ztxt-100MB-bomb.png", .ok(40, 30)),
            ("P11-two-ihdr.png", .error(.corrupt, "IHDR: out of place")),
            ("P12-rgba-alpha-in-last-row.png", .ok(40, 30)),
            ("P12-rgba-all-opaque.png", .ok(40, 30)),
            ("P13-checks-orientation-1.png", .ok(99, 67)),
            ("P13-checks-orientation-2.png", .ok(99, 67, orientation: 2)),
            ("P13-checks-orientation-3.png", .ok(99, 67, orientation: 3)),
            ("P13-checks-orientation-4.png", .ok(99, 67, orientation: 4)),
            ("P13-checks-orientation-5.png", .ok(99, 67, orientation: 5)),
            ("P13-checks-orientation-6.png", .ok(99, 67, orientation: 6)),
            ("P13-checks-orientation-7.png", .ok(99, 67, orientation: 7)),
            ("P13-checks-orientation-8.png", .ok(99, 67, orientation: 8)),
            ("P11-ihdr-not-first.png", .error(.corrupt, "the first chunk is not IHDR")),
            ("P11-zero-width.png", .error(.corrupt, "invalid IHDR data")),
        ]
        return cases
    }()

    @Test("every fixture is covered by the table")
    func tableCoversEveryFixture() throws {
        #expect(Set(try Fixtures.files(in: "headers")) == Set(Self.cases.map(\.0)))
    }

    @Test(arguments: cases)
    func reads(file: String, expected: Expected) {
        let result = HeaderReader().read(path: Fixtures.header(file))
        switch (expected, result) {
        case let (.ok(width, height, orientation), .success(header)):
            #expect(header.pixelWidth == width && header.pixelHeight == height)
            #expect(header.orientation.rawValue == orientation)
            let transposed = [5, 6, 7, 8].contains(orientation)
            #expect(header.width == (transposed ? height : width))
            #expect(header.height == (transposed ? width : height))
            let named: ImageFormat = file.hasSuffix(".png") != file.hasPrefix("J46") ? .png : .jpeg
            #expect(header.format == (file == "J46-gif-named.jpg" ? .gif : named))
        case let (.error(kind, text), .failure(error)):
            #expect(error.kind == kind)
            #expect(error.reason.contains(text), "\(error.reason)")
            #expect(!error.reason.contains("\n"))
        default:
            Issue.record("\(file): expected \(expected), got \(result)")
        }
    }

    @Test("the memory reader agrees with the file reader on every fixture")
    func memoryReaderAgrees() throws {
        for (file, _) in Self.cases {
            let path = Fixtures.header(file)
            var fromFile = HeaderReader().read(path: path)
            var fromMemory = HeaderReader().read(bytes: try Fixtures.bytes(path))
            // The memory reader does not seek, so only the byte counts may differ.
            if case .success(var header) = fromFile { header.bytesRead = 0; fromFile = .success(header) }
            if case .success(var header) = fromMemory { header.bytesRead = 0; fromMemory = .success(header) }
            #expect(fromFile == fromMemory, "\(file)")
        }
    }

    @Test("frame types and colour models are reported as stored")
    func frameDetails() throws {
        func header(_ file: String) throws -> ImageHeader { try HeaderReader().read(path: Fixtures.header(file)).get() }
        #expect(try header("J29-progressive.jpg").progressive)
        #expect(try header("J31-arithmetic-progressive-sof10.jpg").progressive)
        #expect(try !header("J31-arithmetic-sof9.jpg").progressive)
        #expect(try header("J34-cmyk-adobe.jpg").components == 4)
        #expect(try header("J34-ycck-adobe.jpg").components == 4)
        #expect(try header("J34-grayscale.jpg").components == 1)
        #expect(try header("P01-rgb-16-bit-interlaced.png").bitDepth == 16)
        #expect(try header("P01-rgb-16-bit-interlaced.png").progressive)
    }

    @Test("skipped segments and the EXIF thumbnail are seeked over, not read", arguments: [
        "J23-exif-thumbnail-before-sof-no-jfif.jpg", "J27-60k-app1-30k-icc-before-sof.jpg",
        "J28-multi-segment-icc-150k.jpg",
    ])
    func readsLessThanTheFile(file: String) throws {
        let path = Fixtures.header(file)
        let size = try Fixtures.bytes(path).count
        let header = try HeaderReader().read(path: path).get()
        // Only IFD0 of the Exif payload is read; the ICC segments and the thumbnail are skipped with lseek.
        // Each seek costs at most one extra 4 KiB block.
        #expect(header.bytesRead <= 4 * 4096, "read \(header.bytesRead) of \(size) bytes")
        #expect(header.bytesRead < size)
    }

    @Test("the pixel cap is settable")
    func pixelCap() throws {
        let path = Fixtures.header("J23-exif-thumbnail-before-sof-no-jfif.jpg")
        #expect(throws: ImageReadError.self) { try HeaderReader(maxPixels: 640 * 480 - 1).read(path: path).get() }
        #expect(try HeaderReader(maxPixels: 640 * 480).read(path: path).get().pixelCount == 640 * 480)
        #expect(try HeaderReader(maxPixels: Int.max)
            .read(path: Fixtures.header("P06-ihdr-2147483647-square.png")).get().pixelWidth == 2_147_483_647)
    }
}
