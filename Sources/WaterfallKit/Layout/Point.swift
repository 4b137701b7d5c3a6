/// A point in layout coordinates: CSS pixels, origin at the top left of the board, y grows downwards.
///
/// Defined here because CoreGraphics (and so `CGPoint`) does not exist on Linux.
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)
}
