/// A frame whose every side is an ``AffineLength`` of the container width.
public struct AffineRect: Sendable, Hashable {
    public var x: AffineLength
    public var y: AffineLength
    public var width: AffineLength
    public var height: AffineLength

    public init(x: AffineLength, y: AffineLength, width: AffineLength, height: AffineLength) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: AffineLength { x + width }
    public var maxY: AffineLength { y + height }

    /// The concrete frame at container width `containerWidth`.
    public func evaluate(at containerWidth: Double) -> Rect {
        Rect(x: x.evaluate(at: containerWidth), y: y.evaluate(at: containerWidth),
             width: width.evaluate(at: containerWidth), height: height.evaluate(at: containerWidth))
    }
}
