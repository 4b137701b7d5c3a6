import CImageIO
import Testing

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The resampler filters opaque images in fixed point, with AVX2 kernels where the machine has them and
/// portable ones elsewhere. Both must give the same bytes, or a site would depend on the machine that built
/// it. Real photos, at the sizes a build asks for and at odd ones (slivers, one short of the source, widths
/// that are not a multiple of the kernels' eight-pixel step).
struct ResampleKernelTests {
    static let photos = ["SampleGallery/chelsea-the-cat.jpg", "SampleGallery/retina-fundus.jpg",
                         "SampleGallery/cameraman.jpg"]

    /// The resampled bytes, by the fastest kernels or the portable ones.
    static func resample(_ image: TestPixels, _ width: Int, _ height: Int, portable: Bool) -> [UInt8]? {
        let output = image.bytes.withUnsafeBufferPointer {
            wf_resample_image($0.baseAddress, UInt32(image.width), UInt32(image.height), Int32(image.channels),
                              UInt32(width), UInt32(height), portable ? 1 : 0)
        }
        guard let output else { return nil }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: width * height * image.channels))
    }

    static func sizes(_ w: Int, _ h: Int) -> [(Int, Int)] {
        [(w / 2, h / 2), (w * 3 / 10, h * 3 / 10), (w / 7, h / 7), (w - 1, h - 1), (w, h - 1), (w - 1, h), (w, 1),
         (1, h), (9, 7), (w / 3 + 5, h / 5 + 3)].filter { $0.0 >= 1 && $0.1 >= 1 }
    }

    @Test(arguments: photos)
    func kernelsAgree(_ photo: String) throws {
        let image = try TestPixels.decode(Fixtures.inRepository(photo))
        for (width, height) in Self.sizes(image.width, image.height) {
            let fastest = try #require(Self.resample(image, width, height, portable: false))
            let portable = try #require(Self.resample(image, width, height, portable: true))
            let differing = zip(fastest, portable).filter { $0 != $1 }.count
            #expect(differing == 0, "\(photo) (\(image.channels) channels) → \(width)×\(height): \(differing) bytes differ")
        }
    }

    /// Gray takes the one-plane path.
    @Test func grayKernelsAgree() throws {
        let rgb = try TestPixels.decode(Fixtures.inRepository(Self.photos[0]))
        let gray = TestPixels(width: rgb.width, height: rgb.height, channels: 1,
                              bytes: stride(from: 1, to: rgb.bytes.count, by: 3).map { rgb.bytes[$0] })
        for (width, height) in Self.sizes(gray.width, gray.height) {
            #expect(Self.resample(gray, width, height, portable: false) == Self.resample(gray, width, height, portable: true),
                    "gray → \(width)×\(height)")
        }
    }

    /// The weights sum to exactly one: a flat area comes out the same flat colour, at every shrink.
    @Test(arguments: [false, true])
    func flatStaysFlat(portable: Bool) throws {
        let colour: [UInt8] = [200, 17, 255]
        let image = TestPixels(width: 257, height: 131, channels: 3, bytes: Array((0..<(257 * 131)).map { _ in colour }.joined()))
        for (width, height) in [(128, 65), (100, 51), (31, 16), (256, 130), (5, 3), (1, 1)] {
            let made = try #require(Self.resample(image, width, height, portable: portable))
            #expect(made == Array((0..<(width * height)).map { _ in colour }.joined()), "\(width)×\(height)")
        }
    }
}
