import CImageIO

/// Reads display sizes from image headers through libjpeg-turbo and libpng, and applies Waterfall's limits.
/// Reentrant: every call has its own state, so files can be read in parallel.
public struct HeaderReader: Sendable {
    /// Claims beyond this many pixels are refused before anything is decoded (decompression bombs).
    public static let defaultMaxPixels = Int(WF_DEFAULT_MAX_PIXELS)

    public var maxPixels: Int

    public init(maxPixels: Int = HeaderReader.defaultMaxPixels) {
        self.maxPixels = maxPixels
    }

    public func read(path: String) -> Result<ImageHeader, ImageReadError> {
        var raw = wf_header()
        wf_read_header_path(path, &raw)
        return interpret(raw)
    }

    public func read(bytes: [UInt8]) -> Result<ImageHeader, ImageReadError> {
        var raw = wf_header()
        bytes.withUnsafeBufferPointer { wf_read_header_memory($0.baseAddress, $0.count, &raw) }
        return interpret(raw)
    }

    /// The header the C reader gave (here or in a decoder process), with Waterfall's limits applied.
    func interpret(_ raw: wf_header) -> Result<ImageHeader, ImageReadError> {
        guard raw.status == WF_OK else { return .failure(Self.error(from: raw)) }
        guard let format = SniffedFormat(raw: raw.format).readable else {
            return .failure(ImageReadError(.unsupported, "unsupported format"))
        }
        let header = ImageHeader(raw, format: format)
        return check(header).map { .failure($0) } ?? .success(header)
    }

    /// Waterfall's own limits, on top of what the libraries enforce.
    private func check(_ header: ImageHeader) -> ImageReadError? {
        if header.pixelWidth == 0 || header.pixelHeight == 0 {
            return ImageReadError(.corrupt, "zero width or height (\(header.pixelWidth)×\(header.pixelHeight))")
        }
        if header.pixelCount > maxPixels {
            return ImageReadError(.tooLarge, "\(header.pixelWidth)×\(header.pixelHeight) is "
                + Self.overLimit(pixels: header.pixelCount, limit: maxPixels))
        }
        return nil
    }

    static func error(from raw: wf_header) -> ImageReadError {
        let message = withUnsafeBytes(of: raw.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch raw.status {
        case WF_ERR_EMPTY:
            return ImageReadError(.empty, "empty file")
        case WF_ERR_DIRECTORY:
            return ImageReadError(.directory, "is a directory")
        // A reader that refuses a file of its own format says why (a JPEG process, a WebP over the frame limit);
        // a format without a reader gets its name.
        case WF_ERR_UNSUPPORTED where message.isEmpty:
            return unsupported(SniffedFormat(raw: raw.format), magic: withUnsafeBytes(of: raw.magic) { Array($0.prefix(Int(raw.magic_length))) })
        case WF_ERR_UNSUPPORTED: return ImageReadError(.unsupported, message)
        case WF_ERR_TRUNCATED: return ImageReadError(.truncated, message)
        case WF_ERR_CORRUPT: return ImageReadError(.corrupt, message)
        default: return ImageReadError(.io, message)
        }
    }

    /// Why a file whose first bytes say `sniffed` is not read as an image: a format without a reader gets its
    /// name (a video is marked as one), anything else its first bytes.
    static func unsupported(_ sniffed: SniffedFormat, magic: [UInt8]) -> ImageReadError {
        if let name = sniffed.name {
            var error = ImageReadError(.unsupported, "unsupported format (\(name))")
            error.isVideo = sniffed.isVideo
            return error
        }
        if magic.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            // Line-ending conversion by a text-mode transfer is the classic way to get here.
            return ImageReadError(.corrupt, "damaged PNG signature (\(hex(magic.prefix(8))), expected 89 50 4E 47 0D 0A 1A 0A)")
        }
        return ImageReadError(.unsupported, "not an image format Waterfall reads (starts with \(hex(magic.prefix(4))))")
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }

    /// "12 megapixels, over the 10-megapixel limit" when one decimal of megapixels says it truly (the limit is
    /// a whole number of tenths and the two differ); else exact: "240000 pixels, over the 239999-pixel limit",
    /// "12000000 pixels, over the 1-pixel limit". derive.c's `over_limit` writes the same words.
    static func overLimit(pixels: Int, limit: Int) -> String {
        let (have, cap) = (megapixels(pixels), megapixels(limit))
        if limit % 100_000 == 0 && have != cap { return "\(have) megapixels, over the \(cap)-megapixel limit" }
        return "\(pixels) pixels, over the \(limit)-pixel limit"
    }

    static func megapixels(_ pixels: Int) -> String {
        let tenths = pixels / 100_000 + (pixels % 100_000 >= 50_000 ? 1 : 0)  // no overflow near Int.max
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
