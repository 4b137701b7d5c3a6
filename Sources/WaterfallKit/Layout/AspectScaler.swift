/// Scales a photo's display size to a tile width, keeping its aspect ratio:
/// `height = pixelHeight / pixelWidth · itemWidth`.
///
/// The display size is the size after EXIF orientation (5–8 swap width and height). Bad sizes
/// are rejected here, once, so that no NaN or infinite frame can ever reach the layout or the CSS.
public struct AspectScaler: Sendable, Hashable {
    /// The display size the scaler was made from.
    public let displaySize: Size
    /// `pixelHeight / pixelWidth`, finite and > 0.
    public let aspectRatio: Double

    /// Throws ``LayoutError/invalidDisplaySize(index:size:)`` when a side is zero, negative, NaN or
    /// infinite, or when their ratio is not a finite number > 0 (e.g. 1e300 × 1e-300).
    public init(displaySize: Size) throws(LayoutError) {
        let ratio = displaySize.height / displaySize.width
        guard displaySize.width.isFinite, displaySize.width > 0,
              displaySize.height.isFinite, displaySize.height > 0,
              ratio.isFinite, ratio > 0
        else { throw .invalidDisplaySize(index: nil, size: displaySize) }
        self.displaySize = displaySize
        self.aspectRatio = ratio
    }

    /// The tile height for `itemWidth`; the width must be a finite number > 0.
    public func height(forItemWidth itemWidth: Double) throws(LayoutError) -> Double {
        guard itemWidth.isFinite, itemWidth > 0 else { throw .invalidItemWidth(itemWidth) }
        let height = aspectRatio * itemWidth
        guard height.isFinite else { throw .invalidItemWidth(itemWidth) }
        return height
    }

    /// One-shot form of `AspectScaler(displaySize:).height(forItemWidth:)`.
    public static func height(displaySize: Size, itemWidth: Double) throws(LayoutError) -> Double {
        try AspectScaler(displaySize: displaySize).height(forItemWidth: itemWidth)
    }
}
