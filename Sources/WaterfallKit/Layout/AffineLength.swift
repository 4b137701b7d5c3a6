/// A length that depends on the container width W as `scale·W + offset` (in CSS pixels).
///
/// With a fixed column count and fixed pixel spacing, every coordinate of a waterfall is of this
/// form, so one expression such as `calc(a·100% + b px)` holds across a whole responsive band.
public struct AffineLength: Sendable, Hashable {
    /// The coefficient of the container width (a).
    public var scale: Double
    /// The constant part in pixels (b).
    public var offset: Double

    public init(scale: Double, offset: Double) {
        self.scale = scale
        self.offset = offset
    }

    /// A length that does not depend on the width.
    public static func constant(_ offset: Double) -> AffineLength {
        AffineLength(scale: 0, offset: offset)
    }

    public static let zero = AffineLength(scale: 0, offset: 0)
    /// The container width W itself.
    public static let containerWidth = AffineLength(scale: 1, offset: 0)

    /// The length at container width `width`.
    public func evaluate(at width: Double) -> Double {
        scale * width + offset
    }

    public static func + (lhs: AffineLength, rhs: AffineLength) -> AffineLength {
        AffineLength(scale: lhs.scale + rhs.scale, offset: lhs.offset + rhs.offset)
    }

    public static func + (lhs: AffineLength, rhs: Double) -> AffineLength {
        AffineLength(scale: lhs.scale, offset: lhs.offset + rhs)
    }

    public static func - (lhs: AffineLength, rhs: AffineLength) -> AffineLength {
        AffineLength(scale: lhs.scale - rhs.scale, offset: lhs.offset - rhs.offset)
    }

    public static func * (factor: Double, length: AffineLength) -> AffineLength {
        AffineLength(scale: factor * length.scale, offset: factor * length.offset)
    }
}
