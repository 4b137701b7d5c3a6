/// A derived image that was written: its upright size and format, and what was learnt on the way.
public struct DerivedImage: Sendable, Equatable {
    /// JPEG when every pixel is opaque, PNG when some alpha is below 255 (or PNG was asked for), WebP for an
    /// animation kept animated.
    public var format: ImageFormat
    /// Upright: the orientation is applied to the pixels, and the file carries no orientation tag.
    public var width: Int
    public var height: Int
    /// The source's header, as `HeaderReader` reads it.
    public var source: ImageHeader
    /// The JPEG was decoded at 1/`dctScale` of its size (1, 2, 4 or 8); 1 for PNG.
    public var dctScale: Int
    /// Bytes of ICC profile carried over; 0 when the source had none (or an unusable one).
    public var colorProfileLength: Int
    /// Recoverable oddities on the way: a dropped profile, a damaged ancillary PNG chunk.
    public var warnings: Int
    /// The one a user should hear of, as one line without the file's name ("its 4.0 MiB ICC colour profile
    /// is over the 1 MiB limit: …"), or nil.
    public var warning: String?
    /// The image's mean colour; nil for an animation (its still tile has one) or a wholly transparent image.
    public var averageColor: AverageColor?
    /// The still's sketch, on the set's smallest image of an opaque still; nil elsewhere.
    public var sketch: Sketch?

    public init(format: ImageFormat, width: Int, height: Int, source: ImageHeader, dctScale: Int = 1,
                colorProfileLength: Int = 0, warnings: Int = 0, warning: String? = nil, averageColor: AverageColor? = nil,
                sketch: Sketch? = nil) {
        self.format = format
        self.width = width
        self.height = height
        self.source = source
        self.dctScale = dctScale
        self.colorProfileLength = colorProfileLength
        self.warnings = warnings
        self.warning = warning
        self.averageColor = averageColor
        self.sketch = sketch
    }
}
