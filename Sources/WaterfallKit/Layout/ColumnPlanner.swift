/// Chooses every item's column from the item heights, per ``PlacementPolicy``.
struct ColumnPlanner: Sendable {
    let columnCount: Int
    let firstTop: Double
    let rowSpacing: Double
    /// See ``WaterfallConfiguration/flowTolerance``.
    let flowTolerance: Double

    init(configuration: WaterfallConfiguration) {
        columnCount = configuration.columnCount
        firstTop = configuration.headerHeight + configuration.edgeInsets.top
        rowSpacing = configuration.rowSpacing
        flowTolerance = configuration.flowTolerance
    }

    /// How many of the last items balanced placement may re-place: two rows plus four. On
    /// phone-like galleries a row plus three leaves a median spread of 0.4 tile widths at 4 columns
    /// and 0.44 at 5; two rows plus four bring every column count from 2 to 5 under 0.3 (the
    /// README's figures) in a few thousand search nodes. Reading order only ever changes among these.
    static func tailLength(columnCount: Int) -> Int { 2 * columnCount + 4 }

    /// One column per item, in index order.
    func columns(forHeights heights: [Double], placement: PlacementPolicy) -> [Int] {
        switch placement {
        case .roundRobin: return heights.indices.map { $0 % columnCount }
        case .shortestColumn: return shortestColumns(heights)
        case .balanced: return balancedColumns(heights)
        }
    }

    private var emptyStacks: ColumnStacks {
        ColumnStacks(columnCount: columnCount, firstTop: firstTop, rowSpacing: rowSpacing)
    }

    private func shortestColumns(_ heights: [Double]) -> [Int] {
        var stacks = emptyStacks
        return greedy(heights[...], on: &stacks)
    }

    /// Shortest-column placement up to the tail, then the tail's best assignment from there.
    private func balancedColumns(_ heights: [Double]) -> [Int] {
        let tailStart = max(0, heights.count - Self.tailLength(columnCount: columnCount))
        var stacks = emptyStacks
        let head = greedy(heights[..<tailStart], on: &stacks)
        let tailStacks = stacks
        let shortestTail = greedy(heights[tailStart...], on: &stacks)
        var search = BalancedEndSearch(tailHeights: Array(heights[tailStart...]), stacks: tailStacks,
                                       incumbentSpread: stacks.spread)
        guard let tail = search.run() else { return head + shortestTail }
        // The search adds heights tallest first; the frames add them in gallery order, which can
        // round differently, so the winner is judged again the way the frames will be.
        var replaced = tailStacks
        for (height, column) in zip(heights[tailStart...], tail) { replaced.place(height: height, in: column) }
        return head + (replaced.spread < stacks.spread ? tail : shortestTail)
    }

    /// Shortest-column placement (within the tolerance) of `heights` onto `stacks`.
    private func greedy(_ heights: ArraySlice<Double>, on stacks: inout ColumnStacks) -> [Int] {
        var columns: [Int] = []
        columns.reserveCapacity(heights.count)
        for height in heights {
            let column = stacks.shortestColumn(tolerance: flowTolerance)
            stacks.place(height: height, in: column)
            columns.append(column)
        }
        return columns
    }
}
