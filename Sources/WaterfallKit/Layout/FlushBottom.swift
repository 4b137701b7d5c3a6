/// A flush bottom: the line every column ends on, reached by reshaping each column's last tile, whose
/// picture `object-fit: cover` then crops (top and bottom when the tile is shortened, the sides when
/// it is lengthened) by at most `maxCrop`.
///
/// At one width: a column whose last tile is h high and ends at B reaches a line F by a change of
/// |F − B| / h of its height. The line that needs the least of the worst change is where two columns
/// i, j meet at the same share s = (B_i − B_j) / (h_i + h_j), the largest over pairs
/// (``BalancedEndSearch/cropShare(bottoms:lastHeights:)``), at F = max_j (B_j − s·h_j). Lengthening a
/// tile by s of its height crops only s / (1 + s) of its picture, so the limit holds with room.
///
/// Across a responsive band, with the assignment fixed, B_j and h_j are affine in the width W, and so
/// are the limits L_j = B_j − maxCrop·h_j and U_j = B_j + maxCrop / (1 − maxCrop)·h_j. The line F is
/// the chord through the best lines at the ends of the band's level widths [W₁, W₂]: max_j L_j is
/// convex and min_j U_j concave, so a chord inside both limits at the ends stays inside throughout.
/// Each column then ends at clamp(L_j, F, U_j): exactly F across the level widths, and outside them
/// (the narrowest phones, boards wider than any screen) never reshaped past the limit, with the
/// footer under the lowest of those ends.
public struct FlushBottom: Sendable, Hashable {
    /// F: where every column ends across ``levelWidths``.
    public let line: AffineLength
    /// The widths where every column ends exactly on ``line``.
    public let levelWidths: ClosedRange<Double>
    /// Per column: its last tile's index, and the highest and lowest that tile's bottom may go (L_j, U_j).
    public let lastItems: [Int]
    public let highestBottoms: [AffineLength]
    public let lowestBottoms: [AffineLength]

    /// The widest board a band is kept level up to: a 4K screen's CSS width. The open-ended last
    /// band's level widths end here (or at twice its minimum width, if that is wider).
    public static let widestLevelBoard: Double = 3840

    /// The line that levels columns ending at `bottoms` whose last tiles are `heights` high, and the
    /// share of its height the most reshaped tile changes by.
    static func line(bottoms: [Double], heights: [Double]) -> (y: Double, share: Double) {
        let share = BalancedEndSearch.cropShare(bottoms: bottoms, lastHeights: heights)
        guard share.isFinite else { return (bottoms.max()!, share) }
        return (zip(bottoms, heights).map { $0 - share * $1 }.max()!, share)
    }

    /// The flush bottom of a band whose item frames and columns are given, level on `widths`; nil
    /// when some column cannot reach the line within `maxCrop` at one end of them.
    init?(frames: [AffineRect], columns: [Int], columnCount: Int, maxCrop: Double, widths: ClosedRange<Double>) {
        var last = [Int?](repeating: nil, count: columnCount)
        for (index, column) in columns.enumerated() { last[column] = index }
        // An empty column has no tile to reshape; flush only with every column in use.
        let lastItems = last.compactMap { $0 }
        guard lastItems.count == columnCount else { return nil }
        let bottoms = lastItems.map { frames[$0].maxY }
        let heights = lastItems.map { frames[$0].height }
        let ends = [widths.lowerBound, widths.upperBound]
        var lineEnds: [Double] = []
        for width in ends {
            let best = Self.line(bottoms: bottoms.map { $0.evaluate(at: width) }, heights: heights.map { $0.evaluate(at: width) })
            guard best.share <= maxCrop else { return nil }
            lineEnds.append(best.y)
        }
        let span = widths.upperBound - widths.lowerBound
        let slope = span > 0 ? (lineEnds[1] - lineEnds[0]) / span : 0
        line = AffineLength(scale: slope, offset: lineEnds[0] - slope * widths.lowerBound)
        levelWidths = widths
        self.lastItems = lastItems
        highestBottoms = zip(bottoms, heights).map { $0 - maxCrop * $1 }
        lowestBottoms = zip(bottoms, heights).map { $0 + maxCrop / (1 - maxCrop) * $1 }
    }

    /// Where column `column` ends at board width `width`: clamp(L_j, F, U_j).
    public func bottom(ofColumn column: Int, at width: Double) -> Double {
        max(highestBottoms[column].evaluate(at: width),
            min(line.evaluate(at: width), lowestBottoms[column].evaluate(at: width)))
    }

    /// The largest y any column ends at, at `width` (F itself across the level widths).
    public func maxBottom(at width: Double) -> Double {
        lastItems.indices.map { bottom(ofColumn: $0, at: width) }.max()!
    }
}
