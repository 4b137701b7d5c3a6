/// A width and a height: a display size in pixels, or the size of a frame in CSS pixels.
///
/// Defined here because CoreGraphics (and so `CGSize`) does not exist on Linux.
public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)
}
