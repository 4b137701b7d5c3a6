/// Seeded galleries shaped like a phone's camera roll, for the spread figures of `make bench-layout`
/// and the tests that hold balanced placement to them.
///
/// The mix: 55% portrait 3:4, 30% landscape 4:3, 5% each of 9:16 (screenshots, stories), 16:9 (video
/// stills) and panoramas (2.5:1 to 4.5:1); 20 to 200 photos.
public struct PhoneLikeGallery: Sendable {
    public let displaySizes: [Size]

    /// Gallery number `number` of the series `seed`: the same sizes on every run and platform.
    public init(seed: UInt64, number: Int) {
        var random = SplitMix64(seed: seed &+ UInt64(number) &* 0x9E37_79B9)
        let count = random.nextInt(in: 20...200)
        displaySizes = (0..<count).map { _ in Self.photo(&random) }
    }

    private static func photo(_ random: inout SplitMix64) -> Size {
        switch random.nextInt(in: 0...99) {
        case 0..<55: Size(width: 3024, height: 4032)
        case 55..<85: Size(width: 4032, height: 3024)
        case 85..<90: Size(width: 1080, height: 1920)
        case 90..<95: Size(width: 1920, height: 1080)
        default: Size(width: (3000 * random.nextDouble(in: 2.5..<4.5)).rounded(), height: 3000)
        }
    }

    /// The bottom spread (tallest − shortest column bottom) in tile widths of each of `count`
    /// galleries, laid out with `placement` in `columnCount` columns of 240 px tiles (the default
    /// spacing and insets of 10 px).
    public static func spreads(seed: UInt64, count: Int, columnCount: Int,
                               placement: PlacementPolicy) throws(LayoutError) -> [Double] {
        let configuration = WaterfallConfiguration(columnCount: columnCount, placement: placement)
        let width = configuration.containerWidth(forItemWidth: 240)
        var spreads: [Double] = []
        for number in 0..<count {
            let items = try SizedItems(displaySizes: PhoneLikeGallery(seed: seed, number: number).displaySizes)
            let layout = try WaterfallLayout(containerWidth: width, configuration: configuration, delegate: items)
            spreads.append(layout.bottomSpread / layout.itemWidth)
        }
        return spreads
    }

    /// The share of `count` galleries that end flush, laid out as in ``spreads(seed:count:columnCount:placement:)``
    /// with balanced placement and a flush bottom cropping at most `maxCrop`.
    public static func flushShare(seed: UInt64, count: Int, columnCount: Int, maxCrop: Double) throws(LayoutError) -> Double {
        let configuration = WaterfallConfiguration(columnCount: columnCount, bottom: .flush(maxCrop: maxCrop))
        let width = configuration.containerWidth(forItemWidth: 240)
        var flush = 0
        for number in 0..<count {
            let items = try SizedItems(displaySizes: PhoneLikeGallery(seed: seed, number: number).displaySizes)
            let layout = try WaterfallLayout(containerWidth: width, configuration: configuration, delegate: items)
            if layout.flushLine != nil { flush += 1 }
        }
        return Double(flush) / Double(count)
    }

    /// The share of `count` galleries whose responsive band `band` (of `bands`, the site's defaults
    /// by default) ends flush across all its level widths.
    public static func bandFlushShare(seed: UInt64, count: Int, bands: [Band], band: Int,
                                      maxCrop: Double) throws(LayoutError) -> Double {
        let configuration = WaterfallConfiguration(bottom: .flush(maxCrop: maxCrop))
        var flush = 0
        for number in 0..<count {
            let items = try SizedItems(displaySizes: PhoneLikeGallery(seed: seed, number: number).displaySizes)
            let layout = try ResponsiveLayout(bands: bands, configuration: configuration, items: items)
            if layout.bands[band].flush != nil { flush += 1 }
        }
        return Double(flush) / Double(count)
    }

    /// The value at `fraction` (0.5: the median) of `values`, by the nearest-rank rule.
    public static func percentile(_ fraction: Double, of values: [Double]) -> Double {
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
