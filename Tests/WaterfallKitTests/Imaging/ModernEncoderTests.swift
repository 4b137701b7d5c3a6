import CImageIO
import Foundation
import Testing
@testable import WaterfallKit

/// Derived images written as WebP and AVIF (`wf_derive_request.encode_format`): read back by independent
/// decoders (libwebp's WebPDecode and libheif, through `wf_decode_image`; libwebpmux and libheif for the ICC
/// profile, through `wf_read_icc_profile`), against a lossless PNG of the same box.
@Suite struct ModernEncoderTests {
    struct Source: Sendable, CustomTestStringConvertible {
        var name: String
        var path: String
        var alpha: Bool
        var gray: Bool = false
        /// The source carries an ICC profile that must arrive byte for byte.
        var icc: Bool = false
        var testDescription: String { name }
    }

    static let sources: [Source] = [
        Source(name: "JPEG photo with ICC, GPS, XMP, comment", path: Fixtures.thumbnail("gps-xmp-comment-icc.jpg"),
               alpha: false, icc: true),
        Source(name: "JPEG photo", path: Fixtures.inRepository("SampleGallery/coffee-cup.jpg"), alpha: false),
        Source(name: "PNG with alpha, ICC and EXIF", path: Fixtures.thumbnail("text-exif-icc-alpha.png"), alpha: true,
               icc: true),
        Source(name: "PNG cut-out", path: Fixtures.inRepository("SampleGallery/chelsea-cutout.png"), alpha: true),
        Source(name: "grayscale JPEG", path: Fixtures.header("J34-grayscale.jpg"), alpha: false, gray: true),
        Source(name: "CMYK JPEG", path: Fixtures.header("J34-cmyk-adobe.jpg"), alpha: false),
        Source(name: "16-bit PNG", path: Fixtures.conformance("pngsuite/basn2c16.png"), alpha: false),
        Source(name: "16-bit RGBA PNG", path: Fixtures.conformance("pngsuite/basn6a16.png"), alpha: true),
    ]

    enum Format: Int32, CaseIterable, Sendable {
        case webp, avif
        var raw: Int32 { self == .webp ? Int32(WF_FORMAT_WEBP.rawValue) : Int32(WF_FORMAT_AVIF.rawValue) }
        var written: wf_format { self == .webp ? WF_FORMAT_WEBP : WF_FORMAT_AVIF }
        /// PSNR floors at the default qualities (WebP 88, AVIF 83 at speed 9), measured with a margin: a broken colour conversion,
        /// a swapped channel or a lost alpha falls far below them (measured: 29-52 dB at 160 px; the smallest,
        /// 29, is the 32 px CMYK fixture).
        var floor: Double { 26 }
    }

    static func derive(_ source: String, _ output: String, _ request: wf_derive_request) -> wf_derive_result {
        var request = request
        var result = wf_derive_result()
        wf_derive(source, output, &request, &result)
        return result
    }

    static func message(_ result: wf_derive_result) -> String {
        withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// What an output file says about itself: WebP chunk tags, or the item types of an AVIF's `iinf`.
    static func metadataNames(_ bytes: [UInt8], _ format: Format) -> [String] {
        switch format {
        case .webp: return webpChunks(bytes).map(\.tag)
        case .avif: return isobmffItemTypes(bytes)
        }
    }

    static func check(_ source: Source, _ format: Format, width: UInt32) throws {
        let folder = try TemporaryFolder()
        let reference = folder.url.appendingPathComponent("reference.png").path
        let output = folder.url.appendingPathComponent("out").path
        let again = folder.url.appendingPathComponent("again").path
        let automatic = folder.url.appendingPathComponent("automatic").path

        let lossless = derive(source.path, reference, deriveRequest(width: width, forcePNG: 1))
        try #require(lossless.status == WF_DERIVE_OK, "\(message(lossless))")
        let jpegOrPng = derive(source.path, automatic, deriveRequest(width: width))
        try #require(jpegOrPng.status == WF_DERIVE_OK, "\(message(jpegOrPng))")
        let asked = deriveRequest(width: width, format: format.raw)
        let result = derive(source.path, output, asked)
        try #require(result.status == WF_DERIVE_OK, "\(message(result))")
        #expect(result.output_format == format.written)
        #expect(result.width == lossless.width && result.height == lossless.height)
        #expect(result.has_average == lossless.has_average)
        #expect(result.average_rgb == lossless.average_rgb, "the average colour is the resampled image's, as before")

        // The file's own header, through the header reader.
        var header = wf_header()
        wf_read_header_path(output, &header)
        #expect(header.status == WF_OK)
        #expect(header.format == format.written)
        #expect(header.width == result.width && header.height == result.height)
        #expect((header.alpha != 0) == source.alpha, "alpha present exactly when the source has some")

        // Pixels back through libwebp / libheif, against the lossless PNG of the same box.
        let decoded = try TestPixels.decode(output)
        let expected = try TestPixels.decode(reference)
        #expect(decoded.width == Int(result.width) && decoded.height == Int(result.height))
        #expect((decoded.channels == 2 || decoded.channels == 4) == source.alpha)
        let quality = psnr(decoded, expected)
        if ProcessInfo.processInfo.environment["WF_PRINT_PSNR"] != nil { print("PSNR", source.name, format, quality, bytes0(output)) }
        #expect(quality >= format.floor, "PSNR \(quality) dB against the lossless resample")

        // The ICC profile: the one the JPEG/PNG path keeps, byte for byte (the source's own when it has one).
        let profile = iccProfile(output)
        #expect(profile == iccProfile(automatic))
        #expect(Int(result.icc_length) == profile.count)
        if source.icc {
            #expect(!profile.isEmpty)
            #expect(profile == iccProfile(source.path))
        }

        // No Exif, no XMP.
        let bytes = try Fixtures.bytes(output)
        let names = metadataNames(bytes, format)
        #expect(!names.contains("EXIF") && !names.contains("XMP ") && !names.contains("Exif") && !names.contains("mime"),
                "\(names)")

        // The same input gives the same bytes.
        let second = derive(source.path, again, asked)
        try #require(second.status == WF_DERIVE_OK, "\(message(second))")
        #expect(try Fixtures.bytes(again) == bytes, "two runs wrote different bytes")
    }

    @Test("WebP: size, alpha, ICC, no metadata, pixels, determinism", arguments: sources)
    func webp(source: Source) throws {
        try Self.check(source, .webp, width: 160)
    }

    @Test("AVIF: size, alpha, ICC, no metadata, pixels, determinism", arguments: sources)
    func avif(source: Source) throws {
        try Self.check(source, .avif, width: 160)
    }

    /// A Display P3 photo: the AVIF fixture with a P3 nclx, made into a JPEG that carries the P3 profile
    /// (Waterfall writes one from the nclx), then into WebP and AVIF; the profile must survive byte for byte.
    @Test("Display P3 JPEG: the P3 profile survives into WebP and AVIF", arguments: Format.allCases)
    func displayP3(format: Format) throws {
        let folder = try TemporaryFolder()
        let jpeg = folder.url.appendingPathComponent("display-p3.jpg").path
        let made = Self.derive(Fixtures.root.appendingPathComponent("formats/heif/display-p3.avif").path, jpeg,
                               deriveRequest(width: 4096, quality: 95))
        try #require(made.status == WF_DERIVE_OK, "\(Self.message(made))")
        let p3 = iccProfile(jpeg)
        try #require(p3.count > 128 && p3 != (try Fixtures.bytes(Fixtures.thumbnail("srgb.icc"))))
        try Self.check(Source(name: "Display P3 JPEG", path: jpeg, alpha: false, icc: true), format, width: 200)
    }

    @Test("Gray AVIF is monochrome (4:0:0); gray WebP is RGB")
    func grayLayouts() throws {
        let (result, flags) = try Self.avifLayout(of: Fixtures.header("J34-grayscale.jpg"))
        #expect(result.channels == 1)
        #expect(flags & 0x10 != 0, "monochrome flag")
        #expect(flags & 0x40 == 0, "8 bits")
    }

    /// A 64 px AVIF of `source` and its av1C fourth byte: high_bitdepth, twelve_bit, monochrome,
    /// subsampling x, y, chroma position (2 bits).
    static func avifLayout(of source: String) throws -> (result: wf_derive_result, flags: UInt8) {
        let folder = try TemporaryFolder()
        let avif = folder.url.appendingPathComponent("layout.avif").path
        let result = derive(source, avif, deriveRequest(width: 64, format: Format.avif.raw))
        try #require(result.status == WF_DERIVE_OK, "\(message(result))")
        let bytes = try Fixtures.bytes(avif)
        let av1C = try #require(bytes.firstRange(of: Array("av1C".utf8)))
        return (result, bytes[av1C.upperBound + 2])
    }

    @Test("Colour AVIF is 8-bit 4:2:0")
    func colourLayout() throws {
        let flags = try Self.avifLayout(of: Fixtures.inRepository("SampleGallery/coffee-cup.jpg")).flags
        #expect(flags & 0x60 == 0, "neither high_bitdepth nor twelve_bit: 8 bits")
        #expect(flags & 0x10 == 0 && flags & 0x0C == 0x0C, "colour, subsampled in x and y")
    }

    @Test("The same size in JPEG, WebP and AVIF: three files from one set")
    func oneSizeThreeFormats() throws {
        let folder = try TemporaryFolder()
        let formats: [Int32] = [0, Format.webp.raw, Format.avif.raw]
        let paths = formats.indices.map { folder.url.appendingPathComponent("tile-\($0)").path }
        let requests = formats.map { deriveRequest(width: 300, format: $0) }
        // Plus a larger view, so the tiles are the cascade's, not the decoder's, resample.
        let allRequests = requests + [deriveRequest(width: 1000)]
        let allPaths = paths + [folder.url.appendingPathComponent("view").path]
        var results = [wf_derive_result](repeating: wf_derive_result(), count: allRequests.count)
        let cPaths = allPaths.map { strdup($0) }
        defer { cPaths.forEach { free($0) } }
        let constPaths = cPaths.map { UnsafePointer<CChar>($0) }
        constPaths.withUnsafeBufferPointer { pointers in
            wf_derive_set(Fixtures.inRepository("SampleGallery/coffee-cup.jpg"), allRequests, pointers.baseAddress,
                          allRequests.count, &results)
        }
        for result in results { #expect(result.status == WF_DERIVE_OK, "\(Self.message(result))") }
        #expect(results.map(\.output_format) == [WF_FORMAT_JPEG, WF_FORMAT_WEBP, WF_FORMAT_AVIF, WF_FORMAT_JPEG])
        #expect(Set(results.prefix(3).map { "\($0.width)x\($0.height)" }).count == 1)
        // One mean colour per set (the view's included), from its smallest image: the tile's, to within the
        // JPEG's rounding.
        #expect(Set(results.map { "\($0.average_rgb)" }).count == 1, "one mean colour for the whole set")
        let jpeg = try TestPixels.decode(paths[0])
        let rgba = jpeg.rgba, count = rgba.count / 4
        let mean = (0..<3).map { k in stride(from: k, to: rgba.count, by: 4).reduce(0) { $0 + Int(rgba[$1]) } / count }
        let average = [results[0].average_rgb.0, results[0].average_rgb.1, results[0].average_rgb.2].map(Int.init)
        #expect(zip(mean, average).allSatisfy { abs($0 - $1) <= 2 }, "tile's mean \(mean) against \(average)")
        for path in paths.dropFirst() {
            let pixels = try TestPixels.decode(path)
            #expect(psnr(pixels, jpeg) > 28)
        }
    }

    /// A set's sizes are made largest first, each from the one before it where that is about twice as large
    /// (the 150-px tile from the 300-px one, not from the view), else from the largest (from the 400-px one it
    /// came out a dB of chroma PSNR worse): as close to Pillow's Lanczos of the whole photo as the same size made
    /// alone, straight from the decode, within a tenth of a decibel. Through the planar route and the RGB one.
    @Test(arguments: [(false, 300), (true, 300), (false, 400), (true, 400)])
    func smallerSizesFromTheSizeBefore(noPlanes: Bool, middle: UInt32) throws {
        let folder = try TemporaryFolder()
        let source = Fixtures.inRepository("SampleGallery/coffee-cup.jpg")
        var requests = [deriveRequest(width: 1000, quality: 100), deriveRequest(width: 150, quality: 100),
                        deriveRequest(width: middle, quality: 100)]
        for k in requests.indices { requests[k].no_planes = noPlanes ? 1 : 0 }
        let paths = ["view", "small", "tile"].map { folder.url.appendingPathComponent($0).path }
        var results = [wf_derive_result](repeating: wf_derive_result(), count: requests.count)
        let cPaths = paths.map { strdup($0) }
        defer { cPaths.forEach { free($0) } }
        let constPaths = cPaths.map { UnsafePointer<CChar>($0) }
        constPaths.withUnsafeBufferPointer { pointers in
            wf_derive_set(source, requests, pointers.baseAddress, requests.count, &results)
        }
        for result in results { try #require(result.status == WF_DERIVE_OK, "\(Self.message(result))") }
        let alone = Self.derive(source, folder.url.appendingPathComponent("alone").path, requests[1])
        try #require(alone.status == WF_DERIVE_OK)
        let cascaded = try TestPixels.decode(paths[1]), direct = try TestPixels.decode(folder.url.appendingPathComponent("alone").path)
        let reference = try TestPixels.decode(Fixtures.thumbnail("quality/coffee-cup-150.png")) // Pillow's
        let fromTile = psnr(cascaded, reference), fromDecode = psnr(direct, reference)
        #expect(fromTile >= fromDecode - 0.1, "from the \(middle)-px tile \(fromTile) dB, from the decode \(fromDecode) dB")
    }

    @Test("An animated view in a modern set keeps the animated WebP's default quality, 75, not the stills' 88",
          arguments: Format.allCases)
    func animatedViewQuality(format: Format) throws {
        let folder = try TemporaryFolder()
        func animated(quality: Int32) throws -> [UInt8] {
            var request = deriveRequest(width: 120, quality: quality, format: format.raw)
            request.animate = 1
            let path = folder.url.appendingPathComponent("q\(quality).webp").path
            var result = wf_derive_result()
            let cPath = strdup(path)
            defer { free(cPath) }
            var pointer = UnsafePointer<CChar>(cPath)
            wf_derive_set(Fixtures.inRepository("SampleGallery/Phone/chelsea-pan.gif"), [request], &pointer, 1, &result)
            try #require(result.status == WF_DERIVE_OK, "\(Self.message(result))")
            #expect(result.output_format == WF_FORMAT_WEBP)
            return try Fixtures.bytes(path)
        }
        let implicit = try animated(quality: 0)
        #expect(implicit == (try animated(quality: 75)))
        #expect(implicit != (try animated(quality: 88)))
    }

    @Test("Quality 0 is the quality matched to the JPEG at the request's speed (speed 0: 9)", arguments: [
        (Int32(0), Int32(83)), (9, 83), (10, 83), (8, 78), (7, 76), (6, 73), (1, 73),
    ])
    func defaultAVIFQuality(speed: Int32, quality: Int32) throws {
        #expect(wf_avif_matched_quality(speed) == quality)
        let folder = try TemporaryFolder()
        let source = Fixtures.inRepository("SampleGallery/coffee-cup.jpg")
        let avif = Int32(WF_FORMAT_AVIF.rawValue)
        let implicit = folder.url.appendingPathComponent("implicit.avif").path
        let explicit = folder.url.appendingPathComponent("explicit.avif").path
        #expect(Self.derive(source, implicit, deriveRequest(width: 96, format: avif, speed: speed)).status == WF_DERIVE_OK)
        #expect(Self.derive(source, explicit, deriveRequest(width: 96, quality: quality, format: avif, speed: speed == 0 ? 9 : speed)).status == WF_DERIVE_OK)
        #expect(try Fixtures.bytes(implicit) == Fixtures.bytes(explicit))
    }

    @Test("Quantisation matrices are on from speed 9")
    func quantisationMatrices() throws {
        // No header field says so (using_qmatrix is in each frame header), but the bytes do: at the same
        // quantizer, speed 9 without matrices is larger than speed 8 (42,360 against 38,160 bytes for this
        // 500 px tile), and with them much smaller (30,019).
        let folder = try TemporaryFolder()
        let source = Fixtures.inRepository("SampleGallery/coffee-cup.jpg")
        let avif = Int32(WF_FORMAT_AVIF.rawValue)
        var sizes: [Int32: Int] = [:]
        for speed: Int32 in [8, 9] {
            let path = folder.url.appendingPathComponent("s\(speed).avif").path
            #expect(Self.derive(source, path, deriveRequest(width: 500, quality: 83, format: avif, speed: speed)).status == WF_DERIVE_OK)
            sizes[speed] = try Fixtures.bytes(path).count
        }
        #expect(Double(sizes[9]!) < 0.85 * Double(sizes[8]!), "\(sizes)")
    }

    @Test("Requests that make no sense are refused with one line", arguments: [
        (deriveRequest(width: 10, format: Int32(WF_FORMAT_GIF.rawValue)), "encode format"),
        (deriveRequest(width: 10, quality: 101, format: Int32(WF_FORMAT_AVIF.rawValue)), "AVIF quality 101"),
        (deriveRequest(width: 10, quality: -1, format: Int32(WF_FORMAT_WEBP.rawValue)), "WebP quality -1"),
        (deriveRequest(width: 10, format: Int32(WF_FORMAT_AVIF.rawValue), speed: 11), "AVIF speed 11"),
        (deriveRequest(width: 10, format: Int32(WF_FORMAT_AVIF.rawValue), speed: -1), "AVIF speed -1"),
        (deriveRequest(width: 10, forcePNG: 1, format: Int32(WF_FORMAT_WEBP.rawValue)), "force_png"),
    ])
    func refused(request: wf_derive_request, words: String) throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("out").path
        let result = Self.derive(Fixtures.inRepository("SampleGallery/coffee-cup.jpg"), output, request)
        #expect(result.status == WF_DERIVE_ERR_REQUEST)
        #expect(Self.message(result).contains(words), "\(Self.message(result))")
        #expect(!Self.message(result).contains("\n"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("An output already there is neither replaced nor written through", arguments: Format.allCases)
    func existingOutput(format: Format) throws {
        let folder = try TemporaryFolder()
        let output = try folder.write("taken", [1, 2, 3])
        let result = Self.derive(Fixtures.inRepository("SampleGallery/coffee-cup.jpg"), output,
                                 deriveRequest(width: 50, format: format.raw))
        #expect(result.status == WF_DERIVE_ERR_SAVE)
        #expect(try Fixtures.bytes(output) == [1, 2, 3])
    }
}

/// The item types in an ISOBMFF file's `meta`/`iinf` (infe versions 2 and 3), read here, not by CImageIO.
func isobmffItemTypes(_ bytes: [UInt8]) -> [String] {
    func be32(_ i: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[i + $1]) } }
    func be16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
    func tag(_ i: Int) -> String { String(decoding: bytes[i..<(i + 4)], as: UTF8.self) }
    /// Child boxes of [start, end): (type, payload start, end).
    func boxes(_ start: Int, _ end: Int) -> [(String, Int, Int)] {
        var out: [(String, Int, Int)] = []
        var i = start
        while i + 8 <= end {
            let size = be32(i)
            guard size >= 8, i + size <= end else { break }
            out.append((tag(i + 4), i + 8, i + size))
            i += size
        }
        return out
    }
    guard let meta = boxes(0, bytes.count).first(where: { $0.0 == "meta" }) else { return [] }
    guard let iinf = boxes(meta.1 + 4, meta.2).first(where: { $0.0 == "iinf" }) else { return [] }
    let entriesStart = iinf.1 + 4 + (bytes[iinf.1] == 0 ? 2 : 4)
    return boxes(entriesStart, iinf.2).filter { $0.0 == "infe" }.compactMap { infe in
        let version = bytes[infe.1]
        guard version >= 2 else { return nil }
        let typeOffset = infe.1 + 4 + (version == 2 ? 2 : 4) + 2
        return typeOffset + 4 <= infe.2 ? tag(typeOffset) : nil
    }
}

/// A derive request with the fields these tests set; the rest zero (their defaults).
func deriveRequest(width: UInt32, quality: Int32 = 0, forcePNG: Int32 = 0, format: Int32 = 0, speed: Int32 = 0) -> wf_derive_request {
    var r = wf_derive_request()
    r.max_width = width
    r.quality = quality
    r.force_png = forcePNG
    r.encode_format = format
    r.speed = speed
    return r
}
private func bytes0(_ path: String) -> Int { (try? Fixtures.bytes(path).count) ?? -1 }
