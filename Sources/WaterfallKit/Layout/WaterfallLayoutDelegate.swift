/// Supplies the items of a ``WaterfallLayout``, and optionally overrides its configuration.
///
/// The Swift counterpart of CHTCollectionViewDelegateWaterfallLayout: the item height is the one
/// thing a layout cannot know, so it is required; every other requirement has a default (in the
/// extension below) returning nil, which means "use the configuration".
public protocol WaterfallLayoutDelegate {
    /// How many items to lay out, in reading order.
    var numberOfItems: Int { get }

    /// The height of item `index` when it is `itemWidth` pixels wide (for a photo, its display
    /// height scaled to that width; see ``AspectScaler``). Must be finite and ≥ 0.
    func heightForItem(at index: Int, itemWidth: Double) -> Double

    var columnCount: Int? { get }
    var columnSpacing: Double? { get }
    var rowSpacing: Double? { get }
    var edgeInsets: EdgeInsets? { get }
    var footerHeight: Double? { get }
    var headerHeight: Double? { get }
}

extension WaterfallLayoutDelegate {
    public var columnCount: Int? { nil }
    public var columnSpacing: Double? { nil }
    public var rowSpacing: Double? { nil }
    public var edgeInsets: EdgeInsets? { nil }
    public var footerHeight: Double? { nil }
    public var headerHeight: Double? { nil }
}
