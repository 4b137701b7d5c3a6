/// An axis-aligned rectangle in layout coordinates (y grows downwards).
///
/// The engine only builds rectangles with non-negative width and height, so there is no
/// "standardising" of negative sizes as `CGRect` does.
public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var origin: Point { Point(x: x, y: y) }
    public var size: Size { Size(width: width, height: height) }
    public var minX: Double { x }
    public var maxX: Double { x + width }
    public var minY: Double { y }
    public var maxY: Double { y + height }

    /// Whether the two rectangles share an interior point.
    ///
    /// Touching edges do not count, so tiles laid out with zero spacing do not "intersect" their
    /// neighbours; a zero-width or zero-height rectangle (a line) intersects what it passes through.
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
}
