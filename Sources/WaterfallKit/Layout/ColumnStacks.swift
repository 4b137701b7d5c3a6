/// The columns' running state while items are placed: where each column ends and where its next
/// item would start. Placement arithmetic lives here only, so every policy and the final frames
/// round identically (a tile's maxY is `top + height`, the next top `maxY + rowSpacing`).
struct ColumnStacks: Sendable {
    /// maxY of each column's last item; the first top for an empty column.
    private(set) var bottoms: [Double]
    /// Where the next item of each column would start.
    private(set) var nextTops: [Double]
    let rowSpacing: Double

    init(columnCount: Int, firstTop: Double, rowSpacing: Double) {
        bottoms = [Double](repeating: firstTop, count: columnCount)
        nextTops = bottoms
        self.rowSpacing = rowSpacing
    }

    var columnCount: Int { bottoms.count }

    /// Stacks an item of `height` on `column`; returns what ``undo(_:)`` needs to take it off.
    @discardableResult
    mutating func place(height: Double, in column: Int) -> Undo {
        let undo = Undo(column: column, bottom: bottoms[column], nextTop: nextTops[column])
        bottoms[column] = nextTops[column] + height
        nextTops[column] = bottoms[column] + rowSpacing
        return undo
    }

    mutating func undo(_ undo: Undo) {
        bottoms[undo.column] = undo.bottom
        nextTops[undo.column] = undo.nextTop
    }

    /// Tallest column bottom − shortest column bottom: how ragged the end of the board is.
    var spread: Double { bottoms.max()! - bottoms.min()! }

    /// The leftmost column whose next top is within `tolerance` of the lowest. With a tolerance of
    /// 0 this is exactly the classic rule: the shortest column, the leftmost on ties.
    func shortestColumn(tolerance: Double) -> Int {
        let limit = nextTops.min()! + tolerance
        return nextTops.firstIndex { $0 <= limit }!
    }

    struct Undo: Sendable {
        let column: Int
        let bottom: Double
        let nextTop: Double
    }
}
