/// The exact search behind ``PlacementPolicy/balanced``: every way of appending the tail items to
/// the columns' ends, keeping the one with the smallest spread (tallest bottom − shortest).
///
/// A column's bottom depends only on which tail items it gets, not on their order, and each column
/// keeps its items in gallery order whatever the split, so this is a partition problem: items are
/// tried tallest first (good answers early, so the bound bites), and two symmetries are cut — a
/// column in the same state as one already tried, and items of equal height in a different order
/// (a run of equal heights takes columns in non-decreasing index order).
///
/// Depth-first, branch and bound. The shortest-column tail is the incumbent and is only replaced by a
/// strictly smaller spread, so balanced is never more ragged than shortest. A node budget keeps
/// many-column layouts bounded; it counts nodes, not time, so the answer is the same on every machine.
struct BalancedEndSearch {
    /// Nodes visited at most. When the budget runs out the best assignment found so far stands
    /// (at worst shortest's own).
    static let nodeBudget = 200_000

    /// Tail positions, tallest first (ties in gallery order).
    private let order: [Int]
    private let heights: [Double]
    /// remaining[d]: the most the items from search depth d on can add, Σ (height + row spacing).
    private let remaining: [Double]
    private var stacks: ColumnStacks
    /// Column of each search depth so far.
    private var current: [Int]
    private var best: [Int]?
    private var bestSpread: Double
    private var nodes = 0

    init(tailHeights: [Double], stacks: ColumnStacks, incumbentSpread: Double) {
        order = tailHeights.indices.sorted { (-tailHeights[$0], $0) < (-tailHeights[$1], $1) }
        heights = order.map { tailHeights[$0] }
        var sums = [Double](repeating: 0, count: heights.count + 1)
        for depth in heights.indices.reversed() {
            sums[depth] = sums[depth + 1] + heights[depth] + stacks.rowSpacing
        }
        remaining = sums
        self.stacks = stacks
        current = []
        current.reserveCapacity(heights.count)
        bestSpread = incumbentSpread
    }

    /// The tail's columns in gallery order, or nil when nothing beats the incumbent.
    mutating func run() -> [Int]? {
        visit(depth: 0)
        guard let best else { return nil }
        var columns = [Int](repeating: 0, count: best.count)
        for (depth, position) in order.enumerated() { columns[position] = best[depth] }
        return columns
    }

    private mutating func visit(depth: Int) {
        nodes += 1
        if depth == heights.count {
            let spread = stacks.spread
            if spread < bestSpread {
                bestSpread = spread
                best = current
            }
            return
        }
        guard nodes < Self.nodeBudget, canImprove(depth: depth) else { return }
        let lowest = depth > 0 && heights[depth] == heights[depth - 1] ? current[depth - 1] : 0
        for column in candidateColumns(from: lowest) {
            let undo = stacks.place(height: heights[depth], in: column)
            current.append(column)
            visit(depth: depth + 1)
            current.removeLast()
            stacks.undo(undo)
        }
    }

    /// The bound: the tallest bottom never comes down, so to beat `bestSpread` every column must
    /// end above `tallest − bestSpread`; if the rest cannot fill all those gaps, nothing below helps.
    private func canImprove(depth: Int) -> Bool {
        let floor = stacks.bottoms.max()! - bestSpread
        var needed = 0.0
        for bottom in stacks.bottoms where bottom < floor { needed += floor - bottom }
        return needed < remaining[depth]
    }

    /// Columns from index `lowest` on, by next top, lowest first (leftmost on ties), one per
    /// distinct column state.
    private func candidateColumns(from lowest: Int) -> [Int] {
        let order = (lowest..<stacks.columnCount).sorted {
            (stacks.nextTops[$0], $0) < (stacks.nextTops[$1], $1)
        }
        var result: [Int] = []
        for column in order where !result.contains(where: {
            stacks.nextTops[$0] == stacks.nextTops[column] && stacks.bottoms[$0] == stacks.bottoms[column]
        }) {
            result.append(column)
        }
        return result
    }
}
