/// The layout of one responsive ``Band`` as exact affine functions of the container width W.
///
/// The column assignment is chosen once, at ``referenceWidth``; with it fixed, every tile's x, y,
/// width and height is affine in W (w(W) = (W − L − R − (c − 1)·g)/c, h = k·w with k = pixel
/// height / pixel width, y = headerHeight + T + Σ over the tiles above it in its column of (h + r)),
/// so the page can write each as `calc(a·100% + b px)` and stay exact at every width of the band.
public struct BandLayout: Sendable {
    public let band: Band
    /// The configuration of this band: the base configuration with the band's overrides.
    public let configuration: WaterfallConfiguration
    /// The widths this band is laid out for: from its minimum width (for the first band, from
    /// where the items would shrink to nothing) up to the next band's minimum width, excluded.
    /// The upper bound is `.infinity` for the last band. Only these widths are guaranteed to
    /// keep the footer under every tile.
    public let servedWidths: Range<Double>
    /// The width at which the shortest-column assignment was chosen (see `referenceWidth(…)`).
    public let referenceWidth: Double
    /// The column of each item, in index order.
    public let columns: [Int]
    public let itemWidth: AffineLength
    /// Each item's frame, in index order.
    public let itemFrames: [AffineRect]
    /// (0, 0, W, headerHeight), or nil when headerHeight is 0.
    public let headerFrame: AffineRect?
    /// Where the footer starts: an affine bound on the tallest column's bottom, plus B. With a flush
    /// bottom it is the line plus B, exact across ``FlushBottom/levelWidths`` only; outside them the
    /// footer (and ``footerFrame``, ``contentHeight``) is ``layout(atWidth:)``'s.
    public let footerY: AffineLength
    /// (0, footerY, W, footerHeight), or nil when footerHeight is 0.
    public let footerFrame: AffineRect?
    /// `footerY + footerHeight`.
    public let contentHeight: AffineLength
    /// With a flush bottom the limit reaches across the band: the line the columns end on. Then
    /// ``footerY`` is that line plus B, exact across its level widths; outside them the footer
    /// follows ``FlushBottom/maxBottom(at:)``.
    public let flush: FlushBottom?

    /// Lays out `items` for `band`; `upperBound` is the next band's minimum width (nil for the
    /// last band) and `isFirst` extends the served widths down to where items vanish.
    init(
        band: Band,
        upperBound: Double?,
        isFirst: Bool,
        baseConfiguration: WaterfallConfiguration,
        items: SizedItems
    ) throws(LayoutError) {
        var configuration = band.configuration(basedOn: baseConfiguration)
        do {
            try configuration.validate()
            _ = try configuration.checkedItemWidth(forContainerWidth: band.minimumWidth)
        } catch {
            throw .inBand(minimumWidth: band.minimumWidth, error)
        }
        let lowerBound = isFirst ? configuration.containerWidth(forItemWidth: 0) : band.minimumWidth
        let referenceWidth = Self.referenceWidth(from: band.minimumWidth, to: upperBound, configuration: configuration)

        // The assignment comes from the ordinary engine at the reference width, so a band and a
        // plain layout at that width agree on every column.
        var stacked = try Self.stack(items, configuration: configuration, at: referenceWidth, band: band)
        var flush: FlushBottom?
        if let maxCrop = configuration.bottom.maxCrop {
            let widths = band.minimumWidth...(upperBound ?? max(2 * band.minimumWidth, FlushBottom.widestLevelBoard))
            if stacked.isFlush {
                flush = FlushBottom(frames: stacked.frames, columns: stacked.columns,
                                    columnCount: configuration.columnCount, maxCrop: maxCrop, widths: widths)
            }
            if flush == nil {
                // The limit cannot level this band across its widths: the balanced end instead.
                configuration.bottom = .natural
                stacked = try Self.stack(items, configuration: configuration, at: referenceWidth, band: band)
            }
        }
        let insets = configuration.edgeInsets
        let footerY = (flush?.line ?? Self.upperEnvelope(of: stacked.bottoms, from: lowerBound, to: upperBound))
            + insets.bottom
        let columns = stacked.columns
        let frames = stacked.frames
        let itemWidth = stacked.itemWidth
        self.band = band
        self.configuration = configuration
        self.servedWidths = lowerBound..<(upperBound ?? .infinity)
        self.referenceWidth = referenceWidth
        self.columns = columns
        self.itemWidth = itemWidth
        self.itemFrames = frames
        self.headerFrame = configuration.headerHeight > 0
            ? AffineRect(x: .zero, y: .zero, width: .containerWidth, height: .constant(configuration.headerHeight))
            : nil
        self.footerY = footerY
        self.footerFrame = configuration.footerHeight > 0
            ? AffineRect(x: .zero, y: footerY, width: .containerWidth, height: .constant(configuration.footerHeight))
            : nil
        self.contentHeight = footerY + configuration.footerHeight
        self.flush = flush
    }

    /// A band's tiles stacked with the assignment chosen at `referenceWidth`: each frame and each
    /// column's bottom as affine functions of the width.
    private struct Stacked {
        var columns: [Int]
        var itemWidth: AffineLength
        var frames: [AffineRect]
        var bottoms: [AffineLength]
        /// Whether the reference layout reached a flush bottom.
        var isFlush: Bool
    }

    private static func stack(_ items: SizedItems, configuration: WaterfallConfiguration, at referenceWidth: Double,
                              band: Band) throws(LayoutError) -> Stacked {
        let reference: WaterfallLayout
        do {
            reference = try WaterfallLayout(containerWidth: referenceWidth, configuration: configuration, delegate: items)
        } catch {
            throw .inBand(minimumWidth: band.minimumWidth, error)
        }
        let columns = reference.itemAttributes.map { $0.column! }
        let columnCount = Double(configuration.columnCount)
        let insets = configuration.edgeInsets
        let itemWidth = AffineLength(
            scale: 1 / columnCount,
            offset: -(insets.left + insets.right + (columnCount - 1) * configuration.columnSpacing) / columnCount
        )
        let columnX = (0..<configuration.columnCount).map {
            AffineLength.constant(insets.left) + Double($0) * (itemWidth + configuration.columnSpacing)
        }
        let firstTop = AffineLength.constant(configuration.headerHeight + insets.top)
        var bottoms = [AffineLength](repeating: firstTop, count: configuration.columnCount)
        var nextTops = bottoms
        var frames: [AffineRect] = []
        frames.reserveCapacity(columns.count)
        for (index, column) in columns.enumerated() {
            let frame = AffineRect(x: columnX[column], y: nextTops[column], width: itemWidth,
                                   height: items.aspectRatios[index] * itemWidth)
            frames.append(frame)
            bottoms[column] = frame.maxY
            nextTops[column] = frame.maxY + configuration.rowSpacing
        }
        return Stacked(columns: columns, itemWidth: itemWidth, frames: frames, bottoms: bottoms,
                       isFlush: reference.flushLine != nil)
    }

    /// The concrete layout at container width `width`, evaluated from the affine frames (so with
    /// this band's assignment, not one re-chosen at `width`). Throws when the band does not serve
    /// `width` or when it leaves the items no width.
    public func layout(atWidth width: Double) throws(LayoutError) -> WaterfallLayout {
        guard servedWidths.contains(width) else {
            throw .widthOutsideBand(width: width, servedWidths: servedWidths)
        }
        let concreteItemWidth = itemWidth.evaluate(at: width)
        guard concreteItemWidth > 0 else {
            throw .nonPositiveItemWidth(containerWidth: width, columnCount: configuration.columnCount,
                                        itemWidth: concreteItemWidth)
        }
        var attributes = itemFrames.indices.map { index in
            LayoutAttributes(kind: .item, index: index, frame: itemFrames[index].evaluate(at: width),
                             column: columns[index])
        }
        guard let flush else {
            return WaterfallLayout(containerWidth: width, configuration: configuration, itemWidth: concreteItemWidth,
                                   itemAttributes: attributes, footerY: footerY.evaluate(at: width))
        }
        var natural: [Int: Double] = [:]
        for (column, index) in flush.lastItems.enumerated() {
            let frame = attributes[index].frame
            let bottom = flush.bottom(ofColumn: column, at: width)
            attributes[index].frame.height = bottom - frame.y
            if frame.maxY != bottom { natural[index] = frame.height }
        }
        return WaterfallLayout(containerWidth: width, configuration: configuration, itemWidth: concreteItemWidth,
                               itemAttributes: attributes,
                               footerY: flush.maxBottom(at: width) + configuration.edgeInsets.bottom,
                               flushLine: flush.levelWidths.contains(width) ? flush.line.evaluate(at: width) : nil,
                               naturalHeights: natural)
    }

    /// The width at which a band chooses its column assignment.
    ///
    /// Why the harmonic mean of the item widths at the band's edges: with the assignment fixed,
    /// column j ends at `T' + K_j·w + (n_j − 1)·r` (K_j: the sum of its aspect ratios, n_j: its
    /// item count). Everything on the page scales with w, so the eye judges the ragged bottom
    /// relative to w: the gap between two columns is `ΔK + Δn·r/w`, affine in 1/w. Shortest-column
    /// placement keeps that gap under about one tile at the width where it runs, and away from it
    /// the gap drifts by `Δn·r·|1/w − 1/w_ref|`. The worst drift over the band is smallest when
    /// 1/w_ref is the midpoint of [1/w_max, 1/w_min]: w_ref is the harmonic mean of the narrowest and
    /// widest item widths, or 2·w_min for the open-ended last band (1/w_max = 0). Choosing the
    /// minimum width instead would make the narrowest screens perfect but double the worst drift.
    /// Measured on 300 random galleries with 40 px row spacing, this choice had the lowest worst
    /// imbalance of {minimum, arithmetic, geometric, this} in each of three bands (e.g. 2.2 against
    /// 2.5 tiles for the minimum); with 10 px spacing all four are within about 1%.
    static func referenceWidth(from lowerBound: Double, to upperBound: Double?,
                               configuration: WaterfallConfiguration) -> Double {
        let inverseNarrowest = 1 / configuration.itemWidth(forContainerWidth: lowerBound)
        let inverseWidest = upperBound.map { 1 / configuration.itemWidth(forContainerWidth: $0) } ?? 0
        let width = configuration.containerWidth(forItemWidth: 2 / (inverseNarrowest + inverseWidest))
        // The harmonic mean lies between the ends; clamp only against rounding.
        return min(max(width, lowerBound), upperBound?.nextDown ?? .infinity)
    }

    /// The lowest affine function that is at or above every line in `lines` on [lower, upper]
    /// (upper nil: unbounded), used to keep the footer under the tallest column at every width.
    static func upperEnvelope(of lines: [AffineLength], from lower: Double, to upper: Double?) -> AffineLength {
        let atLower = lines.map { $0.evaluate(at: lower) }
        let highestAtLower = atLower.max()!
        guard let upper else {
            // Unbounded: nothing with a smaller slope than the steepest line stays above it.
            let steepest = lines.map(\.scale).max()!
            if let line = lines.indices.first(where: { atLower[$0] == highestAtLower && lines[$0].scale == steepest }) {
                return lines[line]
            }
            return AffineLength(scale: steepest, offset: highestAtLower - steepest * lower)
        }
        let atUpper = lines.map { $0.evaluate(at: upper) }
        let highestAtUpper = atUpper.max()!
        // A line highest at both ends is highest in between: then the footer follows it exactly.
        if let line = lines.indices.first(where: { atLower[$0] == highestAtLower && atUpper[$0] == highestAtUpper }) {
            return lines[line]
        }
        // Otherwise the chord: the maximum of lines is convex, so it stays under its chord.
        let slope = (highestAtUpper - highestAtLower) / (upper - lower)
        return AffineLength(scale: slope, offset: highestAtLower - slope * lower)
    }
}
