/// One ``BandLayout`` per responsive band, so the page can switch layouts with media or container
/// queries while keeping one DOM list in reading order.
public struct ResponsiveLayout: Sendable {
    /// The bands' layouts, by increasing minimum width.
    public let bands: [BandLayout]

    /// Lays out `items` for every band (given in any order). Each band's configuration is
    /// `configuration` with the band's column count, spacing and insets.
    ///
    /// Throws ``LayoutError/invalidBands(_:)`` for an empty list, a minimum width that is negative
    /// or not finite, or two bands starting at the same width; ``LayoutError/inBand(minimumWidth:_:)``
    /// for a band whose configuration is invalid or whose minimum width leaves the items no width.
    public init(
        bands: [Band],
        configuration: WaterfallConfiguration = WaterfallConfiguration(),
        items: SizedItems
    ) throws(LayoutError) {
        guard !bands.isEmpty else { throw .invalidBands("at least one band is needed") }
        for band in bands where !(band.minimumWidth.isFinite && band.minimumWidth >= 0) {
            throw .invalidBands("a minimum width must be a finite number ≥ 0, got \(band.minimumWidth)")
        }
        let sorted = bands.sorted { $0.minimumWidth < $1.minimumWidth }
        for (band, next) in zip(sorted, sorted.dropFirst()) where band.minimumWidth == next.minimumWidth {
            throw .invalidBands("two bands start at \(band.minimumWidth) px")
        }
        var layouts: [BandLayout] = []
        for (position, band) in sorted.enumerated() {
            layouts.append(try BandLayout(
                band: band,
                upperBound: position + 1 < sorted.count ? sorted[position + 1].minimumWidth : nil,
                isFirst: position == 0,
                baseConfiguration: configuration,
                items: items
            ))
        }
        self.bands = layouts
    }

    /// The band that applies at container width `width`: the last one starting at or below it,
    /// or the first band for narrower widths.
    public func bandLayout(forWidth width: Double) -> BandLayout {
        bands.last { $0.band.minimumWidth <= width } ?? bands[0]
    }

    /// The concrete layout at `width`, from the band that applies there.
    public func layout(atWidth width: Double) throws(LayoutError) -> WaterfallLayout {
        try bandLayout(forWidth: width).layout(atWidth: width)
    }
}
