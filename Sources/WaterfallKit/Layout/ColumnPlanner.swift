/// Chooses every item's column from the item heights, per ``PlacementPolicy``.
struct ColumnPlanner: Sendable {
    let columnCount: Int
    let firstTop: Double
    let rowSpacing: Double
    /// See ``WaterfallConfiguration/flowTolerance``.
    let flowTolerance: Double
    let bottom: BottomPolicy

    init(configuration: WaterfallConfiguration) {
        columnCount = configuration.columnCount
        firstTop = configuration.headerHeight + configuration.edgeInsets.top
        rowSpacing = configuration.rowSpacing
        flowTolerance = configuration.flowTolerance
        bottom = configuration.bottom
    }

    /// How many of the last items balanced placement may re-place: two rows plus four. On
    /// phone-like galleries a row plus three leaves a median spread of 0.4 tile widths at 4 columns
    /// and 0.44 at 5; two rows plus four bring every column count from 2 to 5 under 0.3 (the
    /// README's figures) in a few thousand search nodes. Reading order only ever changes among these.
    static func tailLength(columnCount: Int) -> Int { 2 * columnCount + 4 }

    /// How many a flush bottom may re-place: three rows plus eight. Levelling within a crop limit is
    /// harder than levelling at all; with 2c + 4 it was reachable on 61% of phone-like galleries'
    /// 5-column bands, with this on over 90% (the README's figures), searched in a few milliseconds.
    static func flushTailLength(columnCount: Int) -> Int { 3 * columnCount + 8 }

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

    /// Shortest-column placement up to the tail, then the tail's best assignment from there: for a
    /// flush bottom the one that needs the least crop, if that is within the limit; otherwise (and
    /// for a natural bottom) the one with the least spread.
    private func balancedColumns(_ heights: [Double]) -> [Int] {
        if let maxCrop = bottom.maxCrop, let flush = leastCropColumns(heights, maxCrop: maxCrop) { return flush }
        let (head, tail, shortestTail) = split(heights, tailLength: Self.tailLength(columnCount: columnCount))
        return head + tail.best(.spread, incumbent: shortestTail)
    }

    /// An assignment that levels the columns within `maxCrop`, the least crop the search finds.
    private func leastCropColumns(_ heights: [Double], maxCrop: Double) -> [Int]? {
        // An empty column has nothing to reshape.
        guard heights.count >= columnCount else { return nil }
        let (head, tail, shortestTail) = split(heights, tailLength: Self.flushTailLength(columnCount: columnCount))
        let objective = BalancedEndSearch.Objective.crop(headLastHeights: tail.headLastHeights)
        // Scores over the limit are of no use, so the search never explores for them.
        let leastCrop = tail.best(objective, incumbent: shortestTail, worthBeating: maxCrop.nextUp)
        return tail.score(leastCrop, objective) <= maxCrop ? head + leastCrop : nil
    }

    /// Shortest-column placement of all but the last `tailLength` items; the tail to choose, and
    /// shortest-column placement's own choice for it.
    private func split(_ heights: [Double], tailLength: Int) -> (head: [Int], tail: TailChoice, shortest: [Int]) {
        let tailStart = max(0, heights.count - tailLength)
        var stacks = emptyStacks
        let head = greedy(heights[..<tailStart], on: &stacks)
        let tail = TailChoice(heights: heights, head: head, stacks: stacks)
        let shortestTail = greedy(heights[tailStart...], on: &stacks)
        return (head, tail, shortestTail)
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

/// The items after the head, on the columns the head left: the search for their best assignment,
/// and the judge of an assignment, which stacks it in gallery order exactly as the frames will.
private struct TailChoice {
    let heights: ArraySlice<Double>
    let stacks: ColumnStacks
    /// Each column's last head tile's height (nil: nothing in the column yet).
    let headLastHeights: [Double?]

    init(heights: [Double], head: [Int], stacks: ColumnStacks) {
        self.heights = heights[head.count...]
        self.stacks = stacks
        var last = [Double?](repeating: nil, count: stacks.columnCount)
        for (index, column) in head.enumerated() { last[column] = heights[index] }
        headLastHeights = last
    }

    /// The search's winner, or `incumbent` unless the winner, judged in gallery order, is strictly better.
    /// Only scores below `worthBeating` (and the incumbent's) are searched for.
    func best(_ objective: BalancedEndSearch.Objective, incumbent: [Int], worthBeating: Double = .infinity) -> [Int] {
        let incumbentScore = score(incumbent, objective)
        var search = BalancedEndSearch(tailHeights: Array(heights), stacks: stacks, objective: objective,
                                       incumbentScore: min(incumbentScore, worthBeating))
        // The search adds heights tallest first; the frames add them in gallery order, which can
        // round differently, so the winner is judged again the way the frames will be.
        guard let found = search.run(), score(found, objective) < incumbentScore else { return incumbent }
        return found
    }

    func score(_ columns: [Int], _ objective: BalancedEndSearch.Objective) -> Double {
        var stacks = stacks
        var last = headLastHeights
        for (height, column) in zip(heights, columns) {
            stacks.place(height: height, in: column)
            last[column] = height
        }
        return BalancedEndSearch.score(objective, stacks: stacks, lastHeights: last)
    }
}
