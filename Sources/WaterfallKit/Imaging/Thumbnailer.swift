import CImageIO
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Makes derived images (thumbnails) through CImageIO's `wf_derive`: JPEG decoded at a DCT scale, PNG in
/// full, Lanczos-3 resampling, the EXIF orientation applied to the pixels, the ICC profile kept and every
/// other piece of metadata (EXIF, GPS, XMP, comments, text chunks) left behind. Reentrant: every call has
/// its own state, so photos can be derived in parallel.
public struct Thumbnailer: Sendable {
    public init() {}

    /// Before making many images: their freed buffers stay in the heap for the next photo instead of going
    /// back to the kernel, which faults in and zeroes fresh pages on every use (wf_keep_freed_buffers). For
    /// the whole process, so only where images are about to be made: a rebuild that makes none keeps the
    /// allocator's defaults, and its peak memory.
    public static func keepFreedBuffers() { wf_keep_freed_buffers() }

    /// The AVIF quality whose SSIMULACRA2 matches the JPEG q82's at this speed (the C target's table).
    public static func matchedAVIFQuality(speed: Int) -> Int { Int(wf_avif_matched_quality(Int32(clamping: speed))) }

    /// Writes the derived image to `output`, a new file (nothing already at that name, a planted link
    /// included, is written over or through; the caller renames it into place), and describes it. On
    /// failure nothing is left at `output`.
    public func make(from source: String, to output: String, request: ThumbnailRequest) throws(DeriveError) -> DerivedImage {
        var raw = wf_derive_request()
        try Self.check(request, into: &raw)
        var result = wf_derive_result()
        wf_derive(source, output, &raw, &result)
        return try Self.image(from: result).get()
    }

    /// Several derived images of one photo from one decode: the largest is resampled from the decoder,
    /// the others from it. Each output succeeds or fails on its own (a bad request fails them all).
    public func make(from source: String, outputs: [(path: String, request: ThumbnailRequest)]) -> [Result<DerivedImage, DeriveError>] {
        var split = WorkSplit()
        return make(from: source, outputs: outputs, split: &split)
    }

    /// As `make(from:outputs:)`, adding the time its decode, resampling and encoding took to `split`.
    public func make(from source: String, outputs: [(path: String, request: ThumbnailRequest)],
                     split: inout WorkSplit) -> [Result<DerivedImage, DeriveError>] {
        var requests = [wf_derive_request](repeating: wf_derive_request(), count: outputs.count)
        for (index, output) in outputs.enumerated() {
            do {
                try Self.check(output.request, into: &requests[index])
            } catch {
                return outputs.map { _ in .failure(error) }
            }
        }
        var results = [wf_derive_result](repeating: wf_derive_result(), count: outputs.count)
        // C strings that live for the whole call.
        let paths = outputs.map { strdup($0.path) }
        defer { paths.forEach { free($0) } }
        let constPaths = paths.map { UnsafePointer<CChar>($0) }
        constPaths.withUnsafeBufferPointer { pathPointers in
            wf_derive_set(source, requests, pathPointers.baseAddress, outputs.count, &results)
        }
        for result in results {
            split.decode += Double(result.decode_ns) * 1e-9
            split.resample += Double(result.resample_ns) * 1e-9
            split.encode += Double(result.encode_ns) * 1e-9
        }
        return results.map { Self.image(from: $0) }
    }

    /// Several derived images of the open file `source` from one decode, in a decoder process (`decoders`), each
    /// encoded in memory (the caller writes the files), or why not. `pixels` (canvas × frames) sets the time the
    /// decoder has; `format` names it in a message when the decoder process fails, which fails them all.
    func make(from source: OpenFile, requests: [ThumbnailRequest], pixels: Int, decoders: DecoderPool, format: String?,
              split: inout WorkSplit) -> [Result<EncodedImage, DeriveError>] {
        var raw = [wf_derive_request](repeating: wf_derive_request(), count: requests.count)
        for (index, request) in requests.enumerated() {
            do {
                try Self.check(request, into: &raw[index])
            } catch {
                return requests.map { _ in .failure(error) }
            }
        }
        switch decoders.derive(source, raw, pixels: pixels) {
        case .failure(let failure):
            return requests.map { _ in .failure(failure.deriveError(format: format)) }
        case .success(let made):
            return made.map { result, bytes in
                split.decode += Double(result.decode_ns) * 1e-9
                split.resample += Double(result.resample_ns) * 1e-9
                split.encode += Double(result.encode_ns) * 1e-9
                return Self.image(from: result).map { EncodedImage(image: $0, bytes: bytes) }
            }
        }
    }

    private static func image(from result: wf_derive_result) -> Result<DerivedImage, DeriveError> {
        guard result.status == WF_DERIVE_OK else { return .failure(error(from: result)) }
        let header = result.source
        let note = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return .success(DerivedImage(
            format: ImageFormat(output: result.output_format) ?? .jpeg,
            width: Int(result.width),
            height: Int(result.height),
            source: ImageHeader(header, format: SniffedFormat(raw: header.format).readable ?? .jpeg),
            dctScale: Int(result.scale_denom),
            colorProfileLength: Int(result.icc_length),
            warnings: Int(result.warnings),
            warning: note.isEmpty ? nil : note,
            averageColor: result.has_average != 0
                ? AverageColor(red: result.average_rgb.0, green: result.average_rgb.1, blue: result.average_rgb.2) : nil,
            sketch: sketch(from: result)
        ))
    }

    private static func sketch(from result: wf_derive_result) -> Sketch? {
        let length = Int(result.sketch_length)
        guard length > 0 else { return nil }
        return withUnsafeBytes(of: result.sketch) { bytes in
            length <= bytes.count ? Sketch(png: bytes.prefix(length)) : nil
        }
    }

    private static func check(_ request: ThumbnailRequest, into raw: inout wf_derive_request) throws(DeriveError) {
        func dimension(_ value: Int?, _ name: String) throws(DeriveError) -> UInt32 {
            guard let value else { return 0 }
            guard value > 0, let fitting = UInt32(exactly: value) else {
                throw DeriveError(.invalidRequest, "\(name) \(value) is not a positive pixel count")
            }
            return fitting
        }
        raw.max_width = try dimension(request.maxWidth, "maximum width")
        raw.max_height = try dimension(request.maxHeight, "maximum height")
        guard raw.max_width != 0 || raw.max_height != 0 else {
            throw DeriveError(.invalidRequest, "a derived image needs a maximum width or height")
        }
        guard (1...100).contains(request.quality) else {
            throw DeriveError(.invalidRequest, "quality \(request.quality) is outside 1-100")
        }
        guard (0...10).contains(request.speed) else {
            throw DeriveError(.invalidRequest, "AVIF speed \(request.speed) is outside 1-10")
        }
        guard request.maxPixels > 0, request.maxScans > 0, request.maxDecoderMemory > 0,
              let scans = UInt32(exactly: request.maxScans) else {
            throw DeriveError(.invalidRequest, "the decoder limits must be positive")
        }
        raw.quality = Int32(request.quality)
        raw.force_png = request.forcePNG ? 1 : 0
        raw.animate = request.animate ? 1 : 0
        switch request.encoding {
        case .automatic: raw.encode_format = 0
        case .webp: raw.encode_format = Int32(WF_FORMAT_WEBP.rawValue)
        case .avif: raw.encode_format = Int32(WF_FORMAT_AVIF.rawValue)
        }
        raw.speed = Int32(request.speed)
        raw.max_pixels = UInt64(request.maxPixels)
        raw.max_scans = scans
        raw.max_memory = UInt64(request.maxDecoderMemory)
    }

    private static func error(from result: wf_derive_result) -> DeriveError {
        let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch result.status {
        case WF_DERIVE_ERR_READ:
            // The header reader refused the file: in the words HeaderReader uses for it, which name formats and
            // magic bytes exactly as `waterfall build` does.
            if result.source.status != WF_OK { return DeriveError(HeaderReader.error(from: result.source)) }
            return DeriveError(.io, message)
        case WF_DERIVE_ERR_TOO_LARGE: return DeriveError(.tooLarge, message)
        case WF_DERIVE_ERR_TRUNCATED: return DeriveError(.truncated, message)
        case WF_DERIVE_ERR_CORRUPT: return DeriveError(.corrupt, message)
        case WF_DERIVE_ERR_UNSUPPORTED: return DeriveError(.unsupported, message)
        case WF_DERIVE_ERR_LIMIT: return DeriveError(.limit, message)
        case WF_DERIVE_ERR_WRITE: return DeriveError(.encode, message)
        case WF_DERIVE_ERR_SAVE: return DeriveError(.write, message)
        default: return DeriveError(.invalidRequest, message)
        }
    }
}
