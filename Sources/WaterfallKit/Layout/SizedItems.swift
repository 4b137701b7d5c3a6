/// The common delegate: a list of display sizes (one per photo, in reading order) whose heights
/// follow from their aspect ratios through ``AspectScaler``.
///
/// Sizes are validated once, in the initialiser, so ``heightForItem(at:itemWidth:)`` cannot fail.
/// It overrides nothing in the configuration. ``ResponsiveLayout`` needs this type rather than any
/// delegate because the affine band maths relies on heights being proportional to the item width.
public struct SizedItems: WaterfallLayoutDelegate, Sendable, Hashable {
    public let displaySizes: [Size]
    /// `height / width` of each item, finite and > 0.
    public let aspectRatios: [Double]

    /// Throws ``LayoutError/invalidDisplaySize(index:size:)`` naming the first bad item.
    public init(displaySizes: [Size]) throws(LayoutError) {
        var ratios: [Double] = []
        ratios.reserveCapacity(displaySizes.count)
        for (index, size) in displaySizes.enumerated() {
            do {
                ratios.append(try AspectScaler(displaySize: size).aspectRatio)
            } catch {
                throw .invalidDisplaySize(index: index, size: size)
            }
        }
        self.displaySizes = displaySizes
        self.aspectRatios = ratios
    }

    public var numberOfItems: Int { aspectRatios.count }

    public func heightForItem(at index: Int, itemWidth: Double) -> Double {
        // Same operation as AspectScaler.height(forItemWidth:), so both paths agree to the bit.
        aspectRatios[index] * itemWidth
    }
}
