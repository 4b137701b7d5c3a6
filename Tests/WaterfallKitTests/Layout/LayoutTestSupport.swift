import Testing
@testable import WaterfallKit

/// The parent suite of every layout-engine test, so that `swift test --filter Layout` runs them all.
@Suite enum LayoutTests {}

/// A delegate with fixed heights (whatever the item width) and optional overrides, so that
/// hand-computed layouts use round numbers.
struct FixedHeights: WaterfallLayoutDelegate {
    var heights: [Double]
    var columnCount: Int?
    var columnSpacing: Double?
    var rowSpacing: Double?
    var edgeInsets: EdgeInsets?
    var footerHeight: Double?
    var headerHeight: Double?

    init(_ heights: [Double]) {
        self.heights = heights
    }

    var numberOfItems: Int { heights.count }

    func heightForItem(at index: Int, itemWidth: Double) -> Double {
        heights[index]
    }
}

/// Whether two frames share an interior point, written independently of `Rect.intersects`.
func interiorsOverlap(_ a: Rect, _ b: Rect) -> Bool {
    let xOverlap = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
    let yOverlap = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
    // A zero-size side still "passes through" the other's interior when strictly inside it.
    let xHits = xOverlap > 0 || (a.width == 0 && b.x < a.x && a.x < b.x + b.width)
        || (b.width == 0 && a.x < b.x && b.x < a.x + a.width)
    let yHits = yOverlap > 0 || (a.height == 0 && b.y < a.y && a.y < b.y + b.height)
        || (b.height == 0 && a.y < b.y && b.y < a.y + a.height)
    return xHits && yHits
}

/// `a` and `b` agree to `relative` of their magnitude (and absolutely near zero).
func nearlyEqual(_ a: Double, _ b: Double, relative: Double = 1e-9) -> Bool {
    abs(a - b) <= relative * max(1, abs(a), abs(b))
}

func nearlyEqual(_ a: Rect, _ b: Rect, relative: Double = 1e-9) -> Bool {
    nearlyEqual(a.x, b.x, relative: relative) && nearlyEqual(a.y, b.y, relative: relative)
        && nearlyEqual(a.width, b.width, relative: relative) && nearlyEqual(a.height, b.height, relative: relative)
}

extension SplitMix64 {
    /// Display sizes mixing a few common aspect ratios (so that equal heights, and thus ties, are
    /// frequent) with arbitrary ones, including extreme panoramas and towers.
    mutating func displaySizes(count: Int) -> [Size] {
        let common = [Size(width: 4000, height: 3000), Size(width: 3000, height: 4000),
                      Size(width: 1920, height: 1080), Size(width: 1000, height: 1000)]
        return (0..<count).map { _ in
            switch nextInt(in: 0...9) {
            case 0...4: common[nextInt(in: 0...3)]
            case 5: Size(width: nextDouble(in: 1..<20_000), height: nextDouble(in: 1..<200))
            case 6: Size(width: nextDouble(in: 1..<200), height: nextDouble(in: 1..<20_000))
            default: Size(width: nextDouble(in: 1..<6000), height: nextDouble(in: 1..<6000))
            }
        }
    }

    /// A length that is often exactly 0 (touching tiles are the interesting edge case).
    mutating func spacing(upTo limit: Double) -> Double {
        nextInt(in: 0...3) == 0 ? 0 : nextDouble(in: 0..<limit)
    }

    mutating func configuration(placement: PlacementPolicy) -> WaterfallConfiguration {
        WaterfallConfiguration(
            columnCount: nextInt(in: 1...7),
            columnSpacing: spacing(upTo: 30),
            rowSpacing: spacing(upTo: 30),
            edgeInsets: EdgeInsets(top: spacing(upTo: 40), left: spacing(upTo: 40),
                                   bottom: spacing(upTo: 40), right: spacing(upTo: 40)),
            footerHeight: spacing(upTo: 80),
            headerHeight: spacing(upTo: 80),
            placement: placement
        )
    }
}
