import CImageIO
import CJPEGOracle
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The JPEG encoder of derived images runs its own front end (colour conversion, downsampling, DCT,
/// quantisation, Huffman statistics and tables) and lets libjpeg only write. Its files must be exactly
/// libjpeg-turbo's own: wf_write_jpeg's those of the scanline encoder Waterfall used before (RGB or gray,
/// optimize_coding), wf_write_jpeg_planes's those of jpeg_write_raw_data on the same planes. And the AVX2
/// kernels must give the portable kernels' bits, or a site would depend on the machine that built it.
struct JPEGEncoderTests {
    static let photos = ["SampleGallery/chelsea-the-cat.jpg", "SampleGallery/cameraman.jpg",
                         "SampleGallery/retina-fundus.jpg", "SampleGallery/coffee-panorama.jpg"]
        .map(Fixtures.inRepository) + [Fixtures.thumbnail("gps-xmp-comment-icc.jpg")]
    /// The camera-like photos of `make bench-thumbs`, when they have been made.
    static let benchPhotos = ["IMG_0000.jpg", "IMG_0001.jpg"].map { Fixtures.inRepository(".bench/thumbs/\($0)") }
        .filter { FileManager.default.fileExists(atPath: $0) }
    static let qualities: [Int32] = [1, 50, 82, 100]
    static let profile = Array((try? Fixtures.bytes(Fixtures.thumbnail("srgb.icc"))) ?? [])

    /// Tiny, odd, even and a size one short of the photo's, at most about 640 wide (debug builds run the
    /// encoder unoptimised; sameBytesAtViewSize has the large size).
    static func sizes(_ w: Int, _ h: Int) -> [(Int, Int)] {
        let scale = min(1, 640 / Double(w))
        let (sw, sh) = (Int(Double(w) * scale), Int(Double(h) * scale))
        return [(1, 1), (7, 9), (17, 15), (16, 16), (sw / 3 | 1, sh / 3 | 1), (sw / 2 & ~1, sh / 2 & ~1), (sw - 1, sh - 1)]
            .filter { $0.0 >= 1 && $0.1 >= 1 }
    }

    static func resampled(_ image: TestPixels, _ width: Int, _ height: Int) -> TestPixels {
        let output = image.bytes.withUnsafeBufferPointer {
            wf_resample_image($0.baseAddress, UInt32(image.width), UInt32(image.height), Int32(image.channels),
                              UInt32(width), UInt32(height), 0)
        }!
        defer { free(output) }
        return TestPixels(width: width, height: height, channels: image.channels,
                          bytes: Array(UnsafeBufferPointer(start: output, count: width * height * image.channels)))
    }

    static func gray(_ image: TestPixels) -> TestPixels {
        TestPixels(width: image.width, height: image.height, channels: 1,
                   bytes: stride(from: image.channels == 3 ? 1 : 0, to: image.bytes.count, by: image.channels).map { image.bytes[$0] })
    }

    /// Three planes of real data for the planar writer: Y from green, Cb from blue and Cr from red at
    /// every other pixel (4:2:0 sizes); gray is one plane.
    static func planes(_ image: TestPixels) -> [(bytes: [UInt8], width: Int, height: Int)] {
        if image.channels == 1 { return [(image.bytes, image.width, image.height)] }
        let cw = (image.width + 1) / 2, ch = (image.height + 1) / 2
        var y = [UInt8](), cb = [UInt8](), cr = [UInt8]()
        for i in 0..<(image.width * image.height) { y.append(image.bytes[i * 3 + 1]) }
        for row in 0..<ch {
            for column in 0..<cw {
                let s = (2 * row * image.width + 2 * column) * 3
                cb.append(image.bytes[s + 2])
                cr.append(image.bytes[s])
            }
        }
        return [(y, image.width, image.height), (cb, cw, ch), (cr, cw, ch)]
    }

    /// The file's bytes, or the failure's message.
    static func encoded(_ folder: TemporaryFolder, _ name: String, _ write: (String, UnsafeMutablePointer<CChar>) -> Bool) -> Result<[UInt8], TestFailure> {
        let path = folder.path + "/" + name
        unlink(path)
        var message = [CChar](repeating: 0, count: 300)
        let ok = message.withUnsafeMutableBufferPointer { write(path, $0.baseAddress!) }
        let text = Self.text(message)
        guard ok, let bytes = try? Fixtures.bytes(path) else { return .failure(TestFailure(message: "\(name): \(text)")) }
        return .success(bytes)
    }

    struct TestFailure: Error, Equatable { var message: String }

    /// A C message buffer as text.
    static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func ours(_ folder: TemporaryFolder, _ image: TestPixels, _ quality: Int32, _ icc: [UInt8], portable: Bool) -> Result<[UInt8], TestFailure> {
        encoded(folder, "ours.jpg") { path, message in
            image.bytes.withUnsafeBufferPointer { pixels in
                icc.withUnsafeBufferPointer { profile in
                    wf_encode_jpeg_for_tests(path, pixels.baseAddress, UInt32(image.width), UInt32(image.height),
                                             Int32(image.channels), quality, profile.baseAddress, profile.count,
                                             portable ? 1 : 0, message, 300) == WF_DERIVE_OK
                }
            }
        }
    }

    static func libjpeg(_ folder: TemporaryFolder, _ image: TestPixels, _ quality: Int32, _ icc: [UInt8]) -> Result<[UInt8], TestFailure> {
        encoded(folder, "libjpeg.jpg") { path, message in
            image.bytes.withUnsafeBufferPointer { pixels in
                icc.withUnsafeBufferPointer { profile in
                    oracle_write_jpeg(path, pixels.baseAddress, UInt32(image.width), UInt32(image.height),
                                      Int32(image.channels), quality, profile.baseAddress, profile.count, message, 300) == 0
                }
            }
        }
    }

    /// The planes as C wants them: pointers, widths, heights.
    static func withPlanes<R>(_ planes: [(bytes: [UInt8], width: Int, height: Int)],
                              _ body: (UnsafePointer<UnsafeMutablePointer<UInt8>?>, [UInt32], [UInt32]) -> R) -> R {
        let pointers = planes.map { plane -> UnsafeMutablePointer<UInt8> in
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: max(plane.bytes.count, 1))
            p.initialize(from: plane.bytes, count: plane.bytes.count)
            return p
        }
        defer { pointers.forEach { $0.deallocate() } }
        let optional: [UnsafeMutablePointer<UInt8>?] = pointers
        return optional.withUnsafeBufferPointer {
            body($0.baseAddress!, planes.map { UInt32($0.width) }, planes.map { UInt32($0.height) })
        }
    }

    static func oursPlanes(_ folder: TemporaryFolder, _ planes: [(bytes: [UInt8], width: Int, height: Int)], _ quality: Int32,
                           _ icc: [UInt8], portable: Bool) -> Result<[UInt8], TestFailure> {
        encoded(folder, "ours-planes.jpg") { path, message in
            withPlanes(planes) { pointers, widths, heights in
                icc.withUnsafeBufferPointer { profile in
                    wf_encode_jpeg_planes_for_tests(path, pointers, widths, heights, Int32(planes.count), quality,
                                                    profile.baseAddress, profile.count, portable ? 1 : 0, message, 300) == WF_DERIVE_OK
                }
            }
        }
    }

    static func libjpegRaw(_ folder: TemporaryFolder, _ planes: [(bytes: [UInt8], width: Int, height: Int)], _ quality: Int32,
                           _ icc: [UInt8]) -> Result<[UInt8], TestFailure> {
        encoded(folder, "libjpeg-raw.jpg") { path, message in
            withPlanes(planes) { pointers, widths, heights in
                icc.withUnsafeBufferPointer { profile in
                    oracle_write_jpeg_raw(path, pointers, widths, heights, Int32(planes.count), quality,
                                          profile.baseAddress, profile.count, message, 300) == 0
                }
            }
        }
    }

    /// Both front ends, both kernels, against libjpeg; `what` names the case in a failure.
    static func expectSame(_ image: TestPixels, _ quality: Int32, _ icc: [UInt8], _ what: String) throws {
        let folder = try TemporaryFolder()
        let reference = libjpeg(folder, image, quality, icc)
        let referenceBytes = try reference.get()
        for portable in [false, true] {
            let made = try ours(folder, image, quality, icc, portable: portable).get()
            #expect(made == referenceBytes, "\(what), \(portable ? "portable" : "fastest") kernels: \(made.count) bytes, libjpeg \(referenceBytes.count)")
        }
        let planes = Self.planes(image)
        let raw = try libjpegRaw(folder, planes, quality, icc).get()
        for portable in [false, true] {
            let made = try oursPlanes(folder, planes, quality, icc, portable: portable).get()
            #expect(made == raw, "\(what) as planes, \(portable ? "portable" : "fastest") kernels: \(made.count) bytes, libjpeg \(raw.count)")
        }
    }

    @Test(arguments: photos + benchPhotos)
    func sameBytesAsLibjpeg(_ photo: String) throws {
        let image = try TestPixels.decode(photo)
        for (index, (width, height)) in Self.sizes(image.width, image.height).enumerated() {
            let small = Self.resampled(image, width, height)
            let name = (photo as NSString).lastPathComponent
            for (q, quality) in Self.qualities.enumerated() {
                let icc = (index + q) % 2 == 0 ? Self.profile : []
                try Self.expectSame(small, quality, icc, "\(name) \(width)×\(height) \(small.channels) channels q\(quality)")
                if small.channels == 3 {
                    try Self.expectSame(Self.gray(small), quality, icc, "\(name) \(width)×\(height) gray q\(quality)")
                }
            }
        }
    }

    /// A view-sized image, the size a build writes most bytes at.
    @Test func sameBytesAtViewSize() throws {
        let source = Self.benchPhotos.first ?? Fixtures.inRepository("SampleGallery/coffee-panorama.jpg")
        let image = Self.resampled(try TestPixels.decode(source), 2048, 1365)
        for quality in Self.qualities {
            try Self.expectSame(image, quality, quality == 82 ? Self.profile : [], "2048×1365 q\(quality)")
        }
        try Self.expectSame(Self.gray(image), 82, [], "2048×1365 gray q82")
    }

    // ---- the kernels ----

    /// `count` blocks side by side through the DCT and quantiser: coefficients and zigzag masks.
    static func quantize(_ samples: [UInt8], stride: Int, count: Int, quality: Int32, chroma: Bool, portable: Bool) -> ([Int16], [UInt64]) {
        var coefficients = [Int16](repeating: 0, count: 64 * count)
        var masks = [UInt64](repeating: 0, count: count)
        let status = samples.withUnsafeBufferPointer { s in
            wf_jpeg_quantize_for_tests(s.baseAddress, stride, UInt32(count), quality, chroma ? 1 : 0, portable ? 1 : 0,
                                       &coefficients, &masks)
        }
        #expect(status == 0)
        return (coefficients, masks)
    }

    static let zigzag: [Int] = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20,
                                13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59,
                                52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63]

    /// Both kernels agree, and each mask says exactly which coefficients are not zero.
    static func expectKernelsAgree(_ samples: [UInt8], stride: Int, count: Int, _ what: String) {
        for quality in qualities {
            for chroma in [false, true] {
                let fastest = quantize(samples, stride: stride, count: count, quality: quality, chroma: chroma, portable: false)
                let portable = quantize(samples, stride: stride, count: count, quality: quality, chroma: chroma, portable: true)
                #expect(fastest.0 == portable.0, "\(what) q\(quality)\(chroma ? " chroma" : ""): coefficients differ")
                #expect(fastest.1 == portable.1, "\(what) q\(quality)\(chroma ? " chroma" : ""): masks differ")
                for block in 0..<count {
                    var mask: UInt64 = 0
                    for k in 0..<64 where portable.0[block * 64 + zigzag[k]] != 0 { mask |= 1 << UInt64(k) }
                    #expect(fastest.1[block] == mask, "\(what) q\(quality) block \(block): mask")
                }
            }
        }
    }

    /// Extremes: flat black, flat white, mid grey, checkerboards of both phases, stripes, a ramp, noise. An odd
    /// count of blocks takes the AVX2 kernel's single-block path too.
    @Test func kernelsAgreeOnExtremeBlocks() {
        let patterns: [(String, (Int, Int) -> UInt8)] = [
            ("black", { _, _ in 0 }), ("white", { _, _ in 255 }), ("grey", { _, _ in 128 }),
            ("checkerboard", { x, y in (x + y) % 2 == 0 ? 0 : 255 }), ("checkerboard'", { x, y in (x + y) % 2 == 0 ? 255 : 0 }),
            ("columns", { x, _ in x % 2 == 0 ? 255 : 0 }), ("rows", { _, y in y % 2 == 0 ? 0 : 255 }),
            ("2×2 checkerboard", { x, y in (x / 2 + y / 2) % 2 == 0 ? 0 : 255 }), ("ramp", { x, y in UInt8((x * 8 + y * 3) % 256) }),
            ("half", { x, _ in x % 8 < 4 ? 0 : 255 }), ("corner", { x, y in x % 8 == 0 && y == 0 ? 255 : 0 }),
        ]
        for (name, pattern) in patterns {
            let count = 3, stride = 8 * count + 5
            var samples = [UInt8](repeating: 0, count: stride * 8)
            for y in 0..<8 { for x in 0..<(8 * count) { samples[y * stride + x] = pattern(x, y) } }
            Self.expectKernelsAgree(samples, stride: stride, count: count, name)
        }
        var random = SystemRandomNumberGenerator()
        for trial in 0..<20 {
            let samples = (0..<(8 * 8 * 5)).map { _ in UInt8.random(in: 0...255, using: &random) }
            Self.expectKernelsAgree(samples, stride: 40, count: 5, "noise \(trial)")
        }
    }

    /// Known values: a flat block has only its DC, which at quality 100 (every divisor 8) is the samples'
    /// mean less 128, times 8.
    @Test(arguments: [false, true])
    func flatBlocksHaveOnlyTheirDC(portable: Bool) {
        for (value, dc) in [(UInt8(0), Int16(-1024)), (255, 1016), (128, 0), (129, 8)] {
            let (coefficients, masks) = Self.quantize([UInt8](repeating: value, count: 64), stride: 8, count: 1, quality: 100,
                                                      chroma: false, portable: portable)
            #expect(coefficients[0] == dc, "\(value): DC \(coefficients[0])")
            #expect(coefficients.dropFirst().allSatisfy { $0 == 0 }, "\(value): AC not zero")
            #expect(masks[0] == (dc == 0 ? 0 : 1))
        }
    }

    /// Every block of real photos, luma and chroma tables.
    @Test(arguments: photos)
    func kernelsAgreeOnPhotos(_ photo: String) throws {
        let image = Self.gray(try TestPixels.decode(photo))
        let count = image.width / 8
        for blockRow in stride(from: 0, to: image.height / 8, by: max(1, image.height / 8 / 12)) {
            let rows = Array(image.bytes[(blockRow * 8 * image.width)..<((blockRow * 8 + 8) * image.width)])
            Self.expectKernelsAgree(rows, stride: image.width, count: count, "\((photo as NSString).lastPathComponent) block row \(blockRow)")
        }
    }

    // ---- the writers' contract ----

    @Test func refusesPlanesOfTheWrongSize() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/out.jpg"
        let y = (bytes: [UInt8](repeating: 9, count: 20 * 10), width: 20, height: 10)
        for chroma in [(10, 6), (11, 5), (9, 5)] {
            let c = (bytes: [UInt8](repeating: 9, count: chroma.0 * chroma.1), width: chroma.0, height: chroma.1)
            var message = [CChar](repeating: 0, count: 300)
            let status = Self.withPlanes([y, c, c]) { pointers, widths, heights in
                wf_encode_jpeg_planes_for_tests(path, pointers, widths, heights, 3, 82, nil, 0, 0, &message, 300)
            }
            #expect(status == WF_DERIVE_ERR_REQUEST, "\(chroma)")
            #expect(Self.text(message).contains("chroma plane"))
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    /// A file already there is never written through, and a failed encode leaves nothing behind.
    @Test func createsNewFilesOnly() throws {
        let folder = try TemporaryFolder()
        let existing = try folder.write("there.jpg", [1, 2, 3])
        let image = TestPixels(width: 4, height: 4, channels: 3, bytes: [UInt8](repeating: 77, count: 48))
        var message = [CChar](repeating: 0, count: 300)
        let status = image.bytes.withUnsafeBufferPointer {
            wf_encode_jpeg_for_tests(existing, $0.baseAddress, 4, 4, 3, 82, nil, 0, 0, &message, 300)
        }
        #expect(status == WF_DERIVE_ERR_SAVE)
        #expect(Self.text(message).hasPrefix("cannot create the output"))
        #expect(try Fixtures.bytes(existing) == [1, 2, 3])

        let empty = folder.path + "/empty.jpg"
        let refused = image.bytes.withUnsafeBufferPointer {
            wf_encode_jpeg_for_tests(empty, $0.baseAddress, 0, 4, 3, 82, nil, 0, 0, &message, 300)
        }
        #expect(refused == WF_DERIVE_ERR_WRITE)
        #expect(Self.text(message).hasPrefix("cannot write the JPEG: empty JPEG image"), "\(Self.text(message))")
        #expect(!FileManager.default.fileExists(atPath: empty))
    }
}
