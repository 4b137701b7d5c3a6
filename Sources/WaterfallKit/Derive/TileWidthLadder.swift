/// The widths tile images are made at, chosen from the layout: every band's tile, at every width the band
/// serves and every pixel density of `densities`, finds an image at least as wide as its device pixels and
/// at most `reach` times wider. Browsers pick the narrowest `srcset` candidate that covers the device
/// pixels, so a ladder whose rungs are at most `reach` apart over the widths tiles need bounds the oversend.
///
/// One ladder for every photo (as image CDNs do), so a tile's `srcset` is a handful of shared widths.
struct TileWidthLadder: Sendable, Equatable {
    /// The rungs, narrowest first.
    let widths: [Int]

    /// How much wider than the device pixels an image may be.
    static let reach = 1.5

    /// The widest board a density over 2 is made for: 3× screens are phones, upright or on their side (a
    /// 932-px board at most); tablets and desktops are 1× or 2×. Above it, 3× tiles would be the widest and
    /// costliest images of all, for screens that do not exist.
    static let widestDenseBoard = 1024.0

    /// The device-pixel widths tiles need: per band, the tile's CSS width at the band's two ends (the tile
    /// width is affine in the board width), times each density (over 2× only up to `widestDenseBoard`).
    static func needs(_ configuration: SiteConfiguration, densities: Set<Int>? = nil) -> [ClosedRange<Double>] {
        let bands = configuration.layoutBands
        var needs: [ClosedRange<Double>] = []
        for (position, band) in bands.enumerated() {
            let next = position + 1 < bands.count ? bands[position + 1].minimumWidth : SiteConfiguration.widestBoard
            let low = band.minimumWidth, high = max(low, min(next, SiteConfiguration.widestBoard))
            let layout = band.configuration(basedOn: configuration.layoutConfiguration)
            let narrow = layout.itemWidth(forContainerWidth: low), wide = layout.itemWidth(forContainerWidth: high)
            guard wide > 0 else { continue }
            for density in densities ?? Set(configuration.densities) {
                let scale = Double(density)
                guard density <= 2 || low < widestDenseBoard else { continue }
                let top = density <= 2 ? wide : layout.itemWidth(forContainerWidth: min(high, widestDenseBoard))
                needs.append(max(1, narrow * scale)...max(1, top * scale))
            }
        }
        return needs
    }

    /// The widest tile a 1× screen shows, on boards up to `widestBoard`; nil without 1× screens. Rungs above
    /// it serve only denser screens (`ImageSizes.denseAbove`).
    static func widestSingleDensityNeed(_ configuration: SiteConfiguration) -> Double? {
        guard configuration.densities.contains(1) else { return nil }
        return needs(configuration, densities: [1]).map(\.upperBound).max()
    }

    /// The tile widths, in device pixels, of the screens most visitors have (`FirstScreen.referenceScreens`):
    /// a 390-px phone at 3× and a 1440-px desktop at 1×. A rung at each makes their images exact. And a rung
    /// at the widest 1× tile, so that no 1× screen takes a rung made for denser ones.
    static func anchors(_ configuration: SiteConfiguration) -> [Double] {
        let bands = configuration.layoutBands
        let widestSingle = widestSingleDensityNeed(configuration).map { [$0.rounded(.up)] } ?? []
        return widestSingle + zip(FirstScreen.referenceScreens, [3, 1]).compactMap { screen, density in
            guard configuration.densities.contains(density),
                  let band = bands.last(where: { $0.minimumWidth <= screen.width }) ?? bands.first else { return nil }
            let tile = band.configuration(basedOn: configuration.layoutConfiguration).itemWidth(forContainerWidth: screen.width)
            return tile > 0 ? (tile * Double(density)).rounded(.up) : nil
        }
    }

    /// The fewest rungs that serve every need within `reach`, each capped at `widest`, with a rung at each
    /// anchor: from the narrowest need up, each rung is the first anchor it may be, else `reach` times the
    /// narrowest need it must serve, or the widest need if that is less; the next rung starts above it,
    /// skipping widths no tile needs.
    init(needs: [ClosedRange<Double>], anchors: [Double] = [], widest: Int) {
        let merged = Self.merged(needs)
        guard let top = merged.last?.upperBound else {
            widths = []
            return
        }
        let anchors = anchors.sorted()
        var rungs: [Int] = []
        var chunk = 0
        var need = merged.first!.lowerBound
        while true {
            let reached = need * Self.reach
            let anchor = anchors.first { $0 >= need && $0 <= reached }
            // At least the need itself, rounded up: under 2 px, 1.5 times a need is no whole pixel wider.
            let rung = min(max(Int((anchor ?? reached).rounded(.down)), Int(need.rounded(.up))), Int(top.rounded(.up)), widest)
            rungs.append(max(rung, 1))
            guard Double(rung) < top, rung < widest else { break }
            // The narrowest need this rung leaves: just above it, or the next range of needs.
            need = Double(rung).nextUp
            while chunk < merged.count && merged[chunk].upperBound < need { chunk += 1 }
            if chunk == merged.count { break }
            need = max(need, merged[chunk].lowerBound)
        }
        widths = rungs
    }

    init(_ configuration: SiteConfiguration) {
        self.init(needs: Self.needs(configuration), anchors: Self.anchors(configuration), widest: SettingLimits.widestImage)
    }

    /// Overlapping ranges joined, sorted.
    private static func merged(_ ranges: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        var merged: [ClosedRange<Double>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
