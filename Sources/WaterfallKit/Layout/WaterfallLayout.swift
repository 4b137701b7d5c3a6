/// A computed waterfall (masonry) layout for one container width: a port of the classic
/// UICollectionView waterfall layouts (CHTCollectionViewWaterfallLayout), as a value.
///
/// The initialiser is `prepare()`: it asks the delegate for every item's height once, places the
/// items and caches all attributes, so the queries afterwards never call the delegate again.
/// With container width W, c columns, column spacing g, row spacing r and insets T L B R:
///
///     header     = (0, 0, W, headerHeight)                  only when headerHeight > 0
///     itemWidth  w = (W − L − R − (c − 1)·g) / c
///     x          = L + column · (w + g)                    (summed column by column, see below)
///     y          = headerHeight + T                       if the column is empty
///                = columnBottom + r                         otherwise (no spacing above the first row)
///     footer     = (0, maxColumnBottom + B, W, footerHeight)  only when footerHeight > 0;
///                  maxColumnBottom = headerHeight + T when there are no items
///     contentSize = (W, maxColumnBottom + B + footerHeight)
///
/// As in CHTCollectionViewWaterfallLayout the header sits at the very top and the top inset
/// separates it from the first row, just as the bottom inset separates the last row from the footer.
public struct WaterfallLayout: Sendable {
    public let containerWidth: Double
    /// The configuration actually used: the one given, with the delegate's overrides applied.
    public let configuration: WaterfallConfiguration
    public let itemWidth: Double
    /// Every item's attributes, in index (reading) order.
    public let itemAttributes: [LayoutAttributes]
    public let header: LayoutAttributes?
    public let footer: LayoutAttributes?
    /// The y where the footer starts (`maxColumnBottom + B`), also when there is no footer element.
    public let footerY: Double
    public let contentSize: Size
    /// Item indices per column, top to bottom: both minY and maxY increase along each list, which
    /// is what lets ``layoutAttributesForElements(in:)`` binary-search instead of scanning.
    let columnItems: [[Int]]

    /// Lays out the delegate's items (this is `prepare()`).
    ///
    /// Throws ``LayoutError`` for an invalid configuration (after the delegate's overrides), a
    /// container width that is negative, non-finite or leaves no room for the items, a negative
    /// item count, or an item height that is negative or non-finite.
    /// Cost: O(n·c) time for n items and c columns (a linear scan for the shortest column, as the
    /// original does; c is small), O(n) memory.
    public init(
        containerWidth: Double,
        configuration: WaterfallConfiguration = WaterfallConfiguration(),
        delegate: some WaterfallLayoutDelegate
    ) throws(LayoutError) {
        try self.init(containerWidth: containerWidth, configuration: configuration, delegate: delegate,
                      columnAssignment: nil)
    }

    /// `prepare()` with an optional forced column per item instead of the placement policy: a
    /// responsive band re-uses the assignment it chose at its reference width (and tests compare
    /// against it).
    init(
        containerWidth: Double,
        configuration base: WaterfallConfiguration,
        delegate: some WaterfallLayoutDelegate,
        columnAssignment: [Int]?
    ) throws(LayoutError) {
        let configuration = base.overridden(by: delegate)
        try configuration.validate()
        let itemWidth = try configuration.checkedItemWidth(forContainerWidth: containerWidth)
        let itemCount = delegate.numberOfItems
        guard itemCount >= 0 else { throw .invalidItemCount(itemCount) }
        precondition(columnAssignment.map { $0.count == itemCount } ?? true,
                     "column assignment must have one column per item")

        let columnCount = configuration.columnCount
        let rowSpacing = configuration.rowSpacing
        let firstTop = configuration.headerHeight + configuration.edgeInsets.top
        // x = L + column·(w + g), summed column by column: since rounding is monotonic and g ≥ 0,
        // each column then starts at or after the previous column's maxX (x + w), whereas the
        // product form can land one ulp inside its neighbour.
        let pitch = itemWidth + configuration.columnSpacing
        var columnX = [configuration.edgeInsets.left]
        for _ in 1..<columnCount { columnX.append(columnX[columnX.count - 1] + pitch) }
        // bottoms: maxY of each column's last item; nextTops: where the next item of the column
        // would start. Both are kept so that the footer uses the exact bottom (no `+ r − r`).
        var bottoms = [Double](repeating: firstTop, count: columnCount)
        var nextTops = bottoms
        var items: [LayoutAttributes] = []
        items.reserveCapacity(itemCount)
        var columnItems = [[Int]](repeating: [], count: columnCount)
        for column in 0..<columnCount { columnItems[column].reserveCapacity(itemCount / columnCount + 1) }

        for index in 0..<itemCount {
            let height = delegate.heightForItem(at: index, itemWidth: itemWidth)
            guard height.isFinite, height >= 0 else { throw .invalidItemHeight(index: index, height: height) }
            let column: Int
            if let columnAssignment {
                column = columnAssignment[index]
                precondition((0..<columnCount).contains(column), "assigned column out of range")
            } else {
                switch configuration.placement {
                case .roundRobin: column = index % columnCount
                case .shortestColumn: column = Self.shortestColumn(nextTops)
                }
            }
            let frame = Rect(x: columnX[column], y: nextTops[column], width: itemWidth, height: height)
            guard frame.maxY.isFinite, (frame.maxY + rowSpacing).isFinite else {
                throw .coordinateOverflow(index: index)
            }
            bottoms[column] = frame.maxY
            nextTops[column] = frame.maxY + rowSpacing
            items.append(LayoutAttributes(kind: .item, index: index, frame: frame, column: column))
            columnItems[column].append(index)
        }

        let footerY = bottoms.max()! + configuration.edgeInsets.bottom
        let contentHeight = footerY + configuration.footerHeight
        guard contentHeight.isFinite else { throw .coordinateOverflow(index: nil) }
        self.init(
            containerWidth: containerWidth, configuration: configuration, itemWidth: itemWidth,
            itemAttributes: items, columnItems: columnItems, footerY: footerY
        )
    }

    /// Assembles a layout from frames computed elsewhere (a band evaluated at one width). The
    /// items must already be stacked per column (each column's tops increasing with the index).
    init(
        containerWidth: Double,
        configuration: WaterfallConfiguration,
        itemWidth: Double,
        itemAttributes: [LayoutAttributes],
        columnItems: [[Int]]? = nil,
        footerY: Double
    ) {
        self.containerWidth = containerWidth
        self.configuration = configuration
        self.itemWidth = itemWidth
        self.itemAttributes = itemAttributes
        self.columnItems = columnItems ?? Self.groupByColumn(itemAttributes, columnCount: configuration.columnCount)
        self.footerY = footerY
        self.header = configuration.headerHeight > 0
            ? LayoutAttributes(kind: .header, index: 0,
                               frame: Rect(x: 0, y: 0, width: containerWidth, height: configuration.headerHeight),
                               column: nil)
            : nil
        self.footer = configuration.footerHeight > 0
            ? LayoutAttributes(kind: .footer, index: 0,
                               frame: Rect(x: 0, y: footerY, width: containerWidth, height: configuration.footerHeight),
                               column: nil)
            : nil
        self.contentSize = Size(width: containerWidth, height: footerY + configuration.footerHeight)
    }

    public var numberOfItems: Int { itemAttributes.count }

    /// The item's attributes, or nil when `index` is out of range.
    public func layoutAttributesForItem(at index: Int) -> LayoutAttributes? {
        itemAttributes.indices.contains(index) ? itemAttributes[index] : nil
    }

    /// The header or footer attributes (nil when its height is 0, and for `.item`).
    public func layoutAttributesForSupplementaryElement(ofKind kind: LayoutAttributes.Kind) -> LayoutAttributes? {
        switch kind {
        case .header: header
        case .footer: footer
        case .item: nil
        }
    }

    /// The leftmost column whose next top is the smallest: strict `<` keeps the first of equals.
    static func shortestColumn(_ nextTops: [Double]) -> Int {
        var best = 0
        for column in nextTops.indices.dropFirst() where nextTops[column] < nextTops[best] {
            best = column
        }
        return best
    }

    private static func groupByColumn(_ items: [LayoutAttributes], columnCount: Int) -> [[Int]] {
        var result = [[Int]](repeating: [], count: columnCount)
        for item in items {
            result[item.column!].append(item.index)
        }
        return result
    }
}
