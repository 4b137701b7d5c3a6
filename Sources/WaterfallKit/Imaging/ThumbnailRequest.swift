import CImageIO

/// What to derive from a photo: the box the result must fit (upright, as the photo is shown), and the
/// encoder's setting and the decoder's limits. The defaults are the ones a gallery build wants.
public struct ThumbnailRequest: Sendable, Equatable {
    /// The box in display orientation; nil leaves that axis free (at least one must be set). A photo
    /// smaller than the box keeps its size: derived images are never upscaled.
    public var maxWidth: Int?
    public var maxHeight: Int?
    /// Quality, 1–100, on the chosen format's scale.
    public var quality: Int
    /// Sources with more stored pixels are refused from their header, before any decoding.
    public var maxPixels: Int
    /// A JPEG with more scans is refused: thousands of tiny progressive scans are a known decoder bomb.
    public var maxScans: Int
    /// What libjpeg may spend on a whole-image coefficient buffer (progressive files need one).
    public var maxDecoderMemory: Int
    /// Write PNG even when the result is opaque (lossless; the quality tests use it).
    public var forcePNG: Bool
    /// An animated source (GIF, WebP) becomes an animated WebP; a still one is made as usual.
    public var animate = false
    /// What to write: JPEG or PNG by alpha (`automatic`), WebP or AVIF (alpha kept in both).
    public var encoding = Encoding.automatic
    /// AVIF encoder speed, 1–10 (10 fastest); 0 means the encoder's default. Ignored by the other formats.
    public var speed = 0
    /// Only screens denser than 1× take this image: a JPEG is made at the dense quality
    /// (`EncoderSettings.request`).
    var dense = false

    public enum Encoding: Sendable, Equatable {
        case automatic
        case webp
        case avif
    }

    public static let defaultQuality = Int(WF_DEFAULT_QUALITY)
    /// How much lower the JPEG quality of images only dense screens take is, by default: at 2× and 3× such an
    /// image still scores above a 1× tile at `defaultQuality` on SSIMULACRA2 (docs/images.md).
    public static let defaultDenseQualityDrop = 10
    /// WebP's and AVIF's defaults, the C target's (cimageio.h): the WebP quality whose SSIMULACRA2 matches the
    /// JPEG's (AVIF's depends on the speed: `matchedAVIFQuality`), and the speed with the most bytes saved
    /// per second of encoding (Benchmarks/calibration/results.md).
    public static let defaultWebPQuality = Int(WF_DEFAULT_WEBP_QUALITY)
    public static let defaultAVIFSpeed = Int(WF_DEFAULT_AVIF_SPEED)
    public static let defaultMaxScans = Int(WF_DEFAULT_MAX_SCANS)
    public static let defaultMaxDecoderMemory = Int(WF_DEFAULT_MAX_MEMORY)

    public init(maxWidth: Int? = nil, maxHeight: Int? = nil, quality: Int = ThumbnailRequest.defaultQuality,
                maxPixels: Int = HeaderReader.defaultMaxPixels, maxScans: Int = ThumbnailRequest.defaultMaxScans,
                maxDecoderMemory: Int = ThumbnailRequest.defaultMaxDecoderMemory, forcePNG: Bool = false) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.quality = quality
        self.maxPixels = maxPixels
        self.maxScans = maxScans
        self.maxDecoderMemory = maxDecoderMemory
        self.forcePNG = forcePNG
    }

    /// "800 px wide", whatever the height.
    public static func width(_ width: Int) -> ThumbnailRequest { ThumbnailRequest(maxWidth: width) }

    /// "Long edge 2048": fits a square box.
    public static func longEdge(_ edge: Int) -> ThumbnailRequest { ThumbnailRequest(maxWidth: edge, maxHeight: edge) }
}
