/// The layout's settings, with every default in one place: the initialiser's default arguments.
///
/// A ``WaterfallLayoutDelegate`` may override any of them per layout (see
/// ``overridden(by:)``), and a responsive ``Band`` may override the column count and spacing.
public struct WaterfallConfiguration: Sendable, Hashable {
    public var columnCount: Int
    /// Horizontal gap between two columns, in CSS pixels.
    public var columnSpacing: Double
    /// Vertical gap between two tiles of the same column, in CSS pixels.
    public var rowSpacing: Double
    public var edgeInsets: EdgeInsets
    /// Height of the full-width footer under the tallest column; 0 means no footer element.
    public var footerHeight: Double
    /// Height of the full-width header at the very top; 0 means no header element.
    public var headerHeight: Double
    public var placement: PlacementPolicy
    /// Shortest-column placement takes the leftmost column whose next top is within this many
    /// pixels of the lowest, like CSS Grid Lanes' `flow-tolerance`: a small tolerance keeps
    /// reading order left to right when columns are almost level. 0 by default, so `shortest`
    /// stays exactly CHTCollectionViewWaterfallLayout's rule; balanced placement levels the end
    /// anyway, and any tolerance makes the columns' ends up to that much more ragged.
    public var flowTolerance: Double
    /// Whether the columns end where they fall or on one line (see ``BottomPolicy``).
    public var bottom: BottomPolicy

    public init(
        columnCount: Int = 3,
        columnSpacing: Double = 10,
        rowSpacing: Double = 10,
        edgeInsets: EdgeInsets = EdgeInsets(top: 10, left: 10, bottom: 10, right: 10),
        footerHeight: Double = 50,
        headerHeight: Double = 0,
        placement: PlacementPolicy = .balanced,
        flowTolerance: Double = 0,
        bottom: BottomPolicy = .natural
    ) {
        self.columnCount = columnCount
        self.columnSpacing = columnSpacing
        self.rowSpacing = rowSpacing
        self.edgeInsets = edgeInsets
        self.footerHeight = footerHeight
        self.headerHeight = headerHeight
        self.placement = placement
        self.flowTolerance = flowTolerance
        self.bottom = bottom
    }

    /// This configuration with every value the delegate supplies (non-nil) taking precedence,
    /// as the optional delegate methods of CHTCollectionViewWaterfallLayout do.
    public func overridden(by delegate: some WaterfallLayoutDelegate) -> WaterfallConfiguration {
        var result = self
        if let value = delegate.columnCount { result.columnCount = value }
        if let value = delegate.columnSpacing { result.columnSpacing = value }
        if let value = delegate.rowSpacing { result.rowSpacing = value }
        if let value = delegate.edgeInsets { result.edgeInsets = value }
        if let value = delegate.footerHeight { result.footerHeight = value }
        if let value = delegate.headerHeight { result.headerHeight = value }
        return result
    }

    /// Throws the first invalid setting: a column count below 1, a negative or non-finite length, or a
    /// flush bottom's crop limit outside [0, 1).
    public func validate() throws(LayoutError) {
        guard columnCount >= 1 else { throw .invalidColumnCount(columnCount) }
        let lengths: [(String, Double)] = [
            ("columnSpacing", columnSpacing), ("rowSpacing", rowSpacing),
            ("edgeInsets.top", edgeInsets.top), ("edgeInsets.left", edgeInsets.left),
            ("edgeInsets.bottom", edgeInsets.bottom), ("edgeInsets.right", edgeInsets.right),
            ("footerHeight", footerHeight), ("headerHeight", headerHeight), ("flowTolerance", flowTolerance),
        ]
        for (name, value) in lengths where !(value.isFinite && value >= 0) {
            throw .invalidLength(name: name, value: value)
        }
        if let limit = bottom.maxCrop, !(limit >= 0 && limit < 1) {
            throw .invalidMaxCrop(limit)
        }
    }

    /// `w = (W − L − R − (c − 1)·g) / c`, unchecked: may be zero or negative for a narrow container.
    public func itemWidth(forContainerWidth width: Double) -> Double {
        (width - edgeInsets.left - edgeInsets.right - Double(columnCount - 1) * columnSpacing)
            / Double(columnCount)
    }

    /// The inverse of ``itemWidth(forContainerWidth:)``: `W = c·w + L + R + (c − 1)·g`.
    public func containerWidth(forItemWidth itemWidth: Double) -> Double {
        Double(columnCount) * itemWidth + edgeInsets.left + edgeInsets.right
            + Double(columnCount - 1) * columnSpacing
    }

    /// The item width for a container width, or an error when the width is not a finite number
    /// ≥ 0 or leaves no room for the items. Assumes ``validate()`` passed.
    func checkedItemWidth(forContainerWidth width: Double) throws(LayoutError) -> Double {
        guard width.isFinite, width >= 0 else {
            throw .invalidLength(name: "containerWidth", value: width)
        }
        let itemWidth = itemWidth(forContainerWidth: width)
        guard itemWidth > 0 else {
            throw .nonPositiveItemWidth(containerWidth: width, columnCount: columnCount, itemWidth: itemWidth)
        }
        return itemWidth
    }
}
