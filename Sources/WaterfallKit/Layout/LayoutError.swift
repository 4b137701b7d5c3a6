/// Why a layout could not be computed. Each case says what was wrong and with which value, in one
/// line, so the CLI can print it as it is (prefixed by the file or setting it came from).
public enum LayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `columnCount` below 1.
    case invalidColumnCount(Int)
    /// A length (spacing, inset, header or footer height, container width) that is negative, NaN
    /// or infinite; `name` is the configuration key.
    case invalidLength(name: String, value: Double)
    /// A flush bottom's crop limit is not a share of a tile's height in [0, 1).
    case invalidMaxCrop(Double)
    /// The container is too narrow for its columns, spacing and insets.
    case nonPositiveItemWidth(containerWidth: Double, columnCount: Int, itemWidth: Double)
    /// A delegate reported a negative number of items.
    case invalidItemCount(Int)
    /// A delegate returned a negative, NaN or infinite height.
    case invalidItemHeight(index: Int, height: Double)
    /// A display size whose width or height is zero, negative, NaN or infinite (or whose ratio is
    /// not finite); `index` is the item's index when the size belongs to a list of items.
    case invalidDisplaySize(index: Int?, size: Size)
    /// An item width given to the aspect scaler that is zero, negative, NaN or infinite.
    case invalidItemWidth(Double)
    /// Coordinates grew past the largest finite `Double` (only with absurd heights); `index` is
    /// the first item affected, nil for the footer.
    case coordinateOverflow(index: Int?)
    /// The list of responsive bands is unusable as a whole (empty, duplicate or invalid minimum width).
    case invalidBands(String)
    /// A problem inside one responsive band, named by its minimum width.
    indirect case inBand(minimumWidth: Double, LayoutError)
    /// A band's layout was asked for at a width the band does not serve.
    case widthOutsideBand(width: Double, servedWidths: Range<Double>)

    public var description: String {
        switch self {
        case .invalidColumnCount(let count):
            "columnCount must be at least 1, got \(count)"
        case .invalidLength(let name, let value):
            "\(name) must be a finite number ≥ 0, got \(value)"
        case .invalidMaxCrop(let value):
            "maxCrop must be a share of a tile's height from 0 up to (not including) 1, got \(value)"
        case .nonPositiveItemWidth(let containerWidth, let columnCount, let itemWidth):
            "a container \(containerWidth) px wide leaves \(columnCount) column(s) \(itemWidth) px wide after spacing and insets; the item width must be > 0"
        case .invalidItemCount(let count):
            "numberOfItems must be ≥ 0, got \(count)"
        case .invalidItemHeight(let index, let height):
            "item \(index): height must be a finite number ≥ 0, got \(height)"
        case .invalidDisplaySize(let index, let size):
            (index.map { "item \($0): " } ?? "")
                + "display size \(size.width) × \(size.height) is unusable; width and height must be finite numbers > 0"
        case .invalidItemWidth(let width):
            "item width must be a finite number > 0, got \(width)"
        case .coordinateOverflow(let index):
            (index.map { "item \($0): " } ?? "footer: ") + "coordinates overflow (heights too large to add up)"
        case .invalidBands(let reason):
            "bands: \(reason)"
        case .inBand(let minimumWidth, let error):
            "band from \(minimumWidth) px: \(error)"
        case .widthOutsideBand(let width, let served):
            "width \(width) px is outside the band's widths \(served.lowerBound)..<\(served.upperBound) px"
        }
    }
}
