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
    /// With a flush bottom that the crop limit reaches: the y where every column ends.
    public let flushLine: Double?
    /// The natural height of each tile a flush bottom reshaped, by item index (empty unless flush).
    public let naturalHeights: [Int: Double]
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
    /// original does; c is small), plus, for balanced placement, a bounded search over the last
    /// 2c + 4 items; O(n) memory.
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

        let heights = try Self.heights(from: delegate, count: itemCount, itemWidth: itemWidth)
        let columns = columnAssignment
            ?? ColumnPlanner(configuration: configuration).columns(forHeights: heights, placement: configuration.placement)
        let columnCount = configuration.columnCount
        // x = L + column·(w + g), summed column by column: since rounding is monotonic and g ≥ 0,
        // each column then starts at or after the previous column's maxX (x + w), whereas the
        // product form can land one ulp inside its neighbour.
        let pitch = itemWidth + configuration.columnSpacing
        var columnX = [configuration.edgeInsets.left]
        for _ in 1..<columnCount { columnX.append(columnX[columnX.count - 1] + pitch) }
        // The same stacking arithmetic as the planner's, so the frames are the ones it judged.
        var stacks = ColumnStacks(columnCount: columnCount,
                                  firstTop: configuration.headerHeight + configuration.edgeInsets.top,
                                  rowSpacing: configuration.rowSpacing)
        var items: [LayoutAttributes] = []
        items.reserveCapacity(itemCount)
        var columnItems = [[Int]](repeating: [], count: columnCount)
        for column in 0..<columnCount { columnItems[column].reserveCapacity(itemCount / columnCount + 1) }

        for (index, column) in columns.enumerated() {
            precondition((0..<columnCount).contains(column), "assigned column out of range")
            let frame = Rect(x: columnX[column], y: stacks.nextTops[column], width: itemWidth, height: heights[index])
            stacks.place(height: heights[index], in: column)
            guard stacks.nextTops[column].isFinite else { throw .coordinateOverflow(index: index) }
            items.append(LayoutAttributes(kind: .item, index: index, frame: frame, column: column))
            columnItems[column].append(index)
        }

        let flush = configuration.bottom.maxCrop.flatMap {
            Self.flush(&items, columnItems: columnItems, bottoms: stacks.bottoms, maxCrop: $0)
        }
        let footerY = (flush?.line ?? stacks.bottoms.max()!) + configuration.edgeInsets.bottom
        let contentHeight = footerY + configuration.footerHeight
        guard contentHeight.isFinite else { throw .coordinateOverflow(index: nil) }
        self.init(
            containerWidth: containerWidth, configuration: configuration, itemWidth: itemWidth,
            itemAttributes: items, columnItems: columnItems, footerY: footerY,
            flushLine: flush?.line, naturalHeights: flush?.naturalHeights ?? [:]
        )
    }

    /// Reshapes each column's last tile so that every column ends on one line (``FlushBottom``), if
    /// no tile changes by more than `maxCrop` of its height; nil (and `items` untouched) otherwise.
    private static func flush(_ items: inout [LayoutAttributes], columnItems: [[Int]], bottoms: [Double],
                              maxCrop: Double) -> (line: Double, naturalHeights: [Int: Double])? {
        let last = columnItems.compactMap(\.last)
        guard last.count == columnItems.count else { return nil }
        let line = FlushBottom.line(bottoms: bottoms, heights: last.map { items[$0].frame.height })
        guard line.share <= maxCrop else { return nil }
        var natural: [Int: Double] = [:]
        for index in last where items[index].frame.maxY != line.y {
            natural[index] = items[index].frame.height
            items[index].frame.height = line.y - items[index].frame.y
        }
        return (line.y, natural)
    }

    /// Assembles a layout from frames computed elsewhere (a band evaluated at one width). The
    /// items must already be stacked per column (each column's tops increasing with the index).
    init(
        containerWidth: Double,
        configuration: WaterfallConfiguration,
        itemWidth: Double,
        itemAttributes: [LayoutAttributes],
        columnItems: [[Int]]? = nil,
        footerY: Double,
        flushLine: Double? = nil,
        naturalHeights: [Int: Double] = [:]
    ) {
        self.containerWidth = containerWidth
        self.configuration = configuration
        self.itemWidth = itemWidth
        self.itemAttributes = itemAttributes
        self.columnItems = columnItems ?? Self.groupByColumn(itemAttributes, columnCount: configuration.columnCount)
        self.footerY = footerY
        self.flushLine = flushLine
        self.naturalHeights = naturalHeights
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

    /// Where each column ends: its last item's maxY, or the first top for an empty column.
    public var columnBottoms: [Double] {
        let firstTop = configuration.headerHeight + configuration.edgeInsets.top
        return columnItems.map { $0.last.map { itemAttributes[$0].frame.maxY } ?? firstTop }
    }

    /// Tallest column bottom − shortest column bottom, in pixels: how ragged the board's end is.
    public var bottomSpread: Double {
        let bottoms = columnBottoms
        return bottoms.max()! - bottoms.min()!
    }

    /// Every item's height at `itemWidth`, asked once each, in index order.
    private static func heights(from delegate: some WaterfallLayoutDelegate, count: Int,
                                itemWidth: Double) throws(LayoutError) -> [Double] {
        var heights: [Double] = []
        heights.reserveCapacity(count)
        for index in 0..<count {
            let height = delegate.heightForItem(at: index, itemWidth: itemWidth)
            guard height.isFinite, height >= 0 else { throw .invalidItemHeight(index: index, height: height) }
            heights.append(height)
        }
        return heights
    }

    private static func groupByColumn(_ items: [LayoutAttributes], columnCount: Int) -> [[Int]] {
        var result = [[Int]](repeating: [], count: columnCount)
        for item in items {
            result[item.column!].append(item.index)
        }
        return result
    }
}
