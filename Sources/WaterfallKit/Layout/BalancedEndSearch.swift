/// The exact search behind ``PlacementPolicy/balanced``: every way of appending the tail items, in
/// order, to the columns' ends, keeping the one with the smallest spread (tallest bottom − shortest).
///
/// Depth-first, branch and bound. The shortest-column tail is the incumbent and is only replaced by a
/// strictly smaller spread, so balanced is never more ragged than shortest. Columns are tried from the
/// shortest (good answers first, so the bound bites early), and a column in the same state as one
/// already tried is skipped (the same subtree). A node budget keeps many-column layouts bounded;
/// it counts nodes, not time, so the answer is the same on every machine.
struct BalancedEndSearch {
    /// Nodes visited at most: c^(c+3) assignments are too many to try for many columns. When the
    /// budget runs out the best assignment found so far stands (at worst shortest's own).
    static let nodeBudget = 200_000

    private let tailHeights: [Double]
    /// remaining[i]: the most the tail from item i can add to the columns, Σ (height + row spacing).
    private let remaining: [Double]
    private var stacks: ColumnStacks
    private var current: [Int]
    private var best: [Int]
    private var bestSpread: Double
    private var nodes = 0

    init(tailHeights: [Double], stacks: ColumnStacks, incumbent: [Int], incumbentSpread: Double) {
        self.tailHeights = tailHeights
        var sums = [Double](repeating: 0, count: tailHeights.count + 1)
        for index in tailHeights.indices.reversed() {
            sums[index] = sums[index + 1] + tailHeights[index] + stacks.rowSpacing
        }
        remaining = sums
        self.stacks = stacks
        current = []
        current.reserveCapacity(tailHeights.count)
        best = incumbent
        bestSpread = incumbentSpread
    }

    /// The tail's columns, in order.
    mutating func run() -> [Int] {
        visit(depth: 0)
        return best
    }

    private mutating func visit(depth: Int) {
        nodes += 1
        if depth == tailHeights.count {
            let spread = stacks.spread
            if spread < bestSpread {
                bestSpread = spread
                best = current
            }
            return
        }
        guard nodes < Self.nodeBudget, canImprove(depth: depth) else { return }
        for column in candidateColumns() {
            let undo = stacks.place(height: tailHeights[depth], in: column)
            current.append(column)
            visit(depth: depth + 1)
            current.removeLast()
            stacks.undo(undo)
        }
    }

    /// The bound: the tallest bottom never comes down, so to beat `bestSpread` every column must
    /// end above `tallest − bestSpread`; if the tail cannot fill all those gaps, nothing below helps.
    private func canImprove(depth: Int) -> Bool {
        let floor = stacks.bottoms.max()! - bestSpread
        var needed = 0.0
        for bottom in stacks.bottoms where bottom < floor { needed += floor - bottom }
        return needed < remaining[depth]
    }

    /// Columns by next top, lowest first (leftmost on ties), one per distinct column state.
    private func candidateColumns() -> [Int] {
        let order = stacks.nextTops.indices.sorted {
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
