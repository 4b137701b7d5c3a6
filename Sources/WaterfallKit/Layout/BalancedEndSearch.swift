/// The exact search behind ``PlacementPolicy/balanced``: every way of appending the tail items to
/// the columns' ends, keeping the one that scores best: the smallest spread (tallest bottom −
/// shortest), or for a flush bottom the smallest share of a last tile that levelling may crop.
///
/// A column's bottom depends only on which tail items it gets, not on their order, and each column
/// keeps its items in gallery order whatever the split, so this is a partition problem: items are
/// tried tallest first (good answers early, so the bound bites), and two symmetries are cut: a
/// column in the same state as one already tried, and items of equal height in a different order
/// (a run of equal heights takes columns in non-decreasing index order).
///
/// For the spread the search is exact. For the crop score it is a heuristic: which tile ends a column
/// depends on gallery positions, which the two cuts ignore, so it can miss the least crop (a review
/// found 508 of 3,000 small random tails cropped more than they need, and 60 of 20,000 2-column
/// galleries not levelled that could be). Cuts that respect positions make it exact but, within the
/// node budget, level fewer phone-like galleries (79% of 5-column ones against about 93%). Its answer is
/// always judged exactly, so a flush bottom never breaks its limit.
///
/// Depth-first, branch and bound. The caller's incumbent (shortest-column's tail) is only replaced by
/// a strictly better score. A node budget keeps many-column layouts bounded; it counts nodes, not
/// time, so the answer is the same on every machine.
struct BalancedEndSearch {
    /// Nodes visited at most. When the budget runs out the best assignment found so far stands.
    /// The crop score's bound is looser (it must allow for any tile ending last), so its search
    /// gets a smaller budget: on phone-like galleries 99% of its searches need under 155,000
    /// nodes, and cutting the rest at 50,000 costs under 1% of flush bottoms.
    static func nodeBudget(for objective: Objective) -> Int {
        switch objective {
        case .spread: 200_000
        case .crop: 50_000
        }
    }

    enum Objective {
        /// Tallest bottom − shortest bottom.
        case spread
        /// The crop share levelling needs (``cropShare(bottoms:lastHeights:)``); `headLastHeights`
        /// are the columns' last tiles before the tail (nil: an empty column).
        case crop(headLastHeights: [Double?])
    }

    private let objective: Objective
    /// Tail positions, tallest first (ties in gallery order).
    private let order: [Int]
    private let tailHeights: [Double]
    /// remaining[d]: the most the items from search depth d on can add, Σ (height + row spacing).
    private let remaining: [Double]
    /// The score's bound in pixels of spread: a spread at least `score · spreadPerScore` cannot win.
    private let spreadPerScore: Double
    private var stacks: ColumnStacks
    /// Column of each search depth so far.
    private var current: [Int]
    /// The highest tail position each column has been given so far (−1: none).
    private var lastPositions: [Int]
    private var best: [Int]?
    private var bestScore: Double
    private var nodes = 0
    private let nodeBudget: Int

    init(tailHeights: [Double], stacks: ColumnStacks, objective: Objective, incumbentScore: Double) {
        self.objective = objective
        nodeBudget = Self.nodeBudget(for: objective)
        order = tailHeights.indices.sorted { (-tailHeights[$0], $0) < (-tailHeights[$1], $1) }
        self.tailHeights = tailHeights
        var sums = [Double](repeating: 0, count: tailHeights.count + 1)
        for depth in order.indices.reversed() {
            sums[depth] = sums[depth + 1] + tailHeights[order[depth]] + stacks.rowSpacing
        }
        remaining = sums
        switch objective {
        case .spread: spreadPerScore = 1
        case .crop(let headLast):
            // Two columns at share s are at most s·(h_i + h_j) apart, so the spread is below 2·s·tallest.
            spreadPerScore = 2 * ((tailHeights + headLast.compactMap { $0 }).max() ?? 0)
        }
        self.stacks = stacks
        current = []
        current.reserveCapacity(tailHeights.count)
        lastPositions = [Int](repeating: -1, count: stacks.columnCount)
        bestScore = incumbentScore
    }

    /// The tail's columns in gallery order, or nil when nothing beats the incumbent.
    mutating func run() -> [Int]? {
        visit(depth: 0)
        guard let best else { return nil }
        var columns = [Int](repeating: 0, count: best.count)
        for (depth, position) in order.enumerated() { columns[position] = best[depth] }
        return columns
    }

    /// The score of an assignment, given how its columns end (`objective`'s measure).
    static func score(_ objective: Objective, stacks: ColumnStacks, lastHeights: [Double?]) -> Double {
        switch objective {
        case .spread: return stacks.spread
        case .crop: return cropShare(bottoms: stacks.bottoms, lastHeights: lastHeights)
        }
    }

    /// A crop share that levelling the columns surely needs no more than: the largest
    /// (B_i − B_j) / (h_i + h_j) over pairs of columns, since a share s of its height cut from one last
    /// tile and added to the other closes that gap (adding s·h crops a little less than s of the
    /// picture, so this errs on the safe side). Infinity when a gap has no tile to close it.
    static func cropShare(bottoms: [Double], lastHeights: [Double?]) -> Double {
        var share = 0.0
        for (i, upper) in bottoms.enumerated() {
            for (j, lower) in bottoms.enumerated() where upper > lower {
                let reach = (lastHeights[i] ?? 0) + (lastHeights[j] ?? 0)
                guard reach > 0 else { return .infinity }
                share = max(share, (upper - lower) / reach)
            }
        }
        return share
    }

    private mutating func visit(depth: Int) {
        nodes += 1
        if depth == order.count {
            let score = Self.score(objective, stacks: stacks, lastHeights: lastHeights)
            if score < bestScore {
                bestScore = score
                best = current
            }
            return
        }
        guard nodes < nodeBudget, canImprove(depth: depth) else { return }
        let height = tailHeights[order[depth]]
        let lowest = depth > 0 && height == tailHeights[order[depth - 1]] ? current[depth - 1] : 0
        for column in candidateColumns(from: lowest) {
            let undo = stacks.place(height: height, in: column)
            let previousLast = lastPositions[column]
            lastPositions[column] = max(previousLast, order[depth])
            current.append(column)
            visit(depth: depth + 1)
            current.removeLast()
            lastPositions[column] = previousLast
            stacks.undo(undo)
        }
    }

    /// Each column's last tile height so far (nil: an empty column).
    private var lastHeights: [Double?] {
        guard case .crop(let headLast) = objective else { return [] }
        let positions = lastPositions
        let tail = tailHeights
        return positions.indices.map { positions[$0] >= 0 ? tail[positions[$0]] : headLast[$0] }
    }

    /// The bound: the tallest bottom never comes down, so to win every column must end within the
    /// winning spread of it; if the rest cannot fill all those gaps, nothing below helps.
    private func canImprove(depth: Int) -> Bool {
        let limit = bestScore * spreadPerScore
        guard limit.isFinite else { return true }
        let floor = stacks.bottoms.max()! - limit
        var needed = 0.0
        for bottom in stacks.bottoms where bottom < floor { needed += floor - bottom }
        return needed < remaining[depth]
    }

    /// Columns from index `lowest` on, by next top, lowest first (leftmost on ties), one per
    /// distinct column state (for the crop score, the last tile's height is part of the state).
    private func candidateColumns(from lowest: Int) -> [Int] {
        // Locals, not `self`, in the closures: capturing the search copies it on every call.
        let tops = stacks.nextTops
        let bottoms = stacks.bottoms
        let last = lastHeights
        let order = (lowest..<tops.count).sorted { (tops[$0], $0) < (tops[$1], $1) }
        var result: [Int] = []
        for column in order where !result.contains(where: {
            tops[$0] == tops[column] && bottoms[$0] == bottoms[column] && (last.isEmpty || last[$0] == last[column])
        }) {
            result.append(column)
        }
        return result
    }
}
