/// What a decoder process may spend: its address space, and each job's wall-clock time. Generous for any real
/// photo (the pixel limit's worth of decoding on a slow machine), finite for anything: the header's own
/// budgets (pixels, frames, items) refuse what would need more before a byte is decoded.
struct DecoderLimits: Sendable, Equatable {
    /// The address space of one decoder process: the runtime and the libraries' own (some 1 GiB of mappings
    /// and arenas), and 16 bytes a pixel of the largest photo allowed (an RGBA image, and its resampling).
    var memoryBytes: UInt64
    /// A header and metadata read: a few milliseconds for any photo.
    var readMilliseconds: UInt32 = 30_000

    /// (No limit at all where the pixel limit is so high that its memory passes what any machine has.)
    init(maxPixels: Int) {
        let (pixels, overflow) = UInt64(max(0, maxPixels)).multipliedReportingOverflow(by: 16)
        memoryBytes = overflow || pixels > 1 << 46 ? 0 : (1 << 30) + pixels
    }

    /// A set of derived images from a photo of `pixels` stored pixels (canvas × frames for an animation): a
    /// minute, and a second for every 2 megapixels on top (a 250-megapixel photo decodes in a few seconds).
    func deriveMilliseconds(pixels: Int) -> UInt32 {
        UInt32(min(60_000 + max(0, pixels) / 2_000, 3_600_000))
    }
}
