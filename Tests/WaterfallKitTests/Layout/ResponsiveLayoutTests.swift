import Testing
@testable import WaterfallKit

extension LayoutTests {
    struct ResponsiveLayoutTests {
        /// One column, aspect ratios 1 and ½: w = W − 20, so every coefficient is a round number.
        @Test func singleColumnBandHasExactCoefficients() throws {
            let items = try SizedItems(displaySizes: [Size(width: 10, height: 10), Size(width: 20, height: 10)])
            let layout = try ResponsiveLayout(bands: [Band(minimumWidth: 100, columnCount: 1)], items: items)
            let band = try #require(layout.bands.first)
            #expect(band.itemWidth == AffineLength(scale: 1, offset: -20))
            #expect(band.itemFrames == [
                AffineRect(x: .constant(10), y: .constant(10), width: band.itemWidth, height: AffineLength(scale: 1, offset: -20)),
                AffineRect(x: .constant(10), y: AffineLength(scale: 1, offset: 0), width: band.itemWidth,
                           height: AffineLength(scale: 0.5, offset: -10)),
            ])
            #expect(band.footerY == AffineLength(scale: 1.5, offset: 0))
            #expect(band.footerFrame == AffineRect(x: .zero, y: band.footerY, width: .containerWidth, height: .constant(50)))
            #expect(band.contentHeight == AffineLength(scale: 1.5, offset: 50))
            #expect(band.headerFrame == nil)
            // The first band also serves narrower widths, down to where items vanish (L + R).
            #expect(band.servedWidths == 20..<Double.infinity)
            let concrete = try band.layout(atWidth: 220)
            #expect(concrete.itemAttributes.map(\.frame) == [Rect(x: 10, y: 10, width: 200, height: 200),
                                                            Rect(x: 10, y: 220, width: 200, height: 100)])
            #expect(concrete.footer?.frame == Rect(x: 0, y: 330, width: 220, height: 50))
            #expect(concrete.contentSize == Size(width: 220, height: 380))
        }

        @Test func headerIsFullWidthAtTheTop() throws {
            let items = try SizedItems(displaySizes: [Size(width: 10, height: 10)])
            let layout = try ResponsiveLayout(bands: [Band(minimumWidth: 100, columnCount: 1)],
                                              configuration: WaterfallConfiguration(headerHeight: 40), items: items)
            let band = layout.bands[0]
            #expect(band.headerFrame == AffineRect(x: .zero, y: .zero, width: .containerWidth, height: .constant(40)))
            #expect(band.itemFrames[0].y == .constant(50))
            #expect(try band.layout(atWidth: 300).header?.frame == Rect(x: 0, y: 0, width: 300, height: 40))
        }

        @Test func referenceWidthIsTheHarmonicMeanOfTheEdgeItemWidths() throws {
            let items = try SizedItems(displaySizes: [])
            let layout = try ResponsiveLayout(
                bands: [Band(minimumWidth: 1000, columnCount: 4), Band(minimumWidth: 320, columnCount: 2)],
                items: items
            )
            #expect(layout.bands.map(\.band.minimumWidth) == [320, 1000])  // sorted
            // [320, 1000), 2 columns: item widths 145 and 485 at the edges.
            let expectedItemWidth = 2 / (1 / 145.0 + 1 / 485.0)
            #expect(nearlyEqual(layout.bands[0].referenceWidth, 2 * expectedItemWidth + 30, relative: 1e-12))
            // Open-ended [1000, ∞), 4 columns: twice the narrowest item width (237.5).
            #expect(layout.bands[1].referenceWidth == 4 * 475 + 50)
            #expect(layout.bands[1].servedWidths == 1000..<Double.infinity)
            #expect(layout.bands[0].servedWidths == 30..<1000)
        }

        @Test func bandSelection() throws {
            let items = try SizedItems(displaySizes: [Size(width: 3, height: 2)])
            let layout = try ResponsiveLayout(
                bands: [Band(minimumWidth: 320, columnCount: 1), Band(minimumWidth: 600, columnCount: 2),
                        Band(minimumWidth: 1000, columnCount: 3, columnSpacing: 20, rowSpacing: 5,
                             edgeInsets: EdgeInsets(all: 0))],
                items: items
            )
            #expect(layout.bandLayout(forWidth: 200).band.minimumWidth == 320)
            #expect(layout.bandLayout(forWidth: 599.99).band.minimumWidth == 320)
            #expect(layout.bandLayout(forWidth: 600).band.minimumWidth == 600)
            #expect(layout.bandLayout(forWidth: 5000).band.minimumWidth == 1000)
            #expect(layout.bands[2].configuration == WaterfallConfiguration(
                columnCount: 3, columnSpacing: 20, rowSpacing: 5, edgeInsets: EdgeInsets(all: 0)))
            #expect(try layout.layout(atWidth: 1060).itemWidth == 340)
            #expect(throws: LayoutError.widthOutsideBand(width: 700, servedWidths: 1000..<Double.infinity)) {
                try layout.bands[2].layout(atWidth: 700)
            }
            #expect(throws: LayoutError.self) { try layout.bands[1].layout(atWidth: 1000) }
        }

        @Test func invalidBandsThrow() throws {
            let items = try SizedItems(displaySizes: [])
            func error(_ bands: [Band], configuration: WaterfallConfiguration = WaterfallConfiguration()) -> LayoutError? {
                #expect(throws: LayoutError.self) {
                    try ResponsiveLayout(bands: bands, configuration: configuration, items: items)
                }
            }
            guard case .invalidBands = error([]) else { Issue.record("empty list accepted"); return }
            guard case .invalidBands = error([Band(minimumWidth: -1, columnCount: 1)]) else {
                Issue.record("negative width accepted"); return
            }
            guard case .invalidBands = error([Band(minimumWidth: .nan, columnCount: 1)]) else {
                Issue.record("NaN width accepted"); return
            }
            guard case .invalidBands = error([Band(minimumWidth: 400, columnCount: 1), Band(minimumWidth: 400, columnCount: 2)]) else {
                Issue.record("duplicate accepted"); return
            }
            #expect(error([Band(minimumWidth: 400, columnCount: 0)]) == .inBand(minimumWidth: 400, .invalidColumnCount(0)))
            #expect(error([Band(minimumWidth: 400, columnCount: 2, rowSpacing: -1)])
                        == .inBand(minimumWidth: 400, .invalidLength(name: "rowSpacing", value: -1)))
            // A band must leave items a positive width at its own minimum width (0 − 20 − 10 < 0).
            #expect(error([Band(minimumWidth: 0, columnCount: 2)])
                        == .inBand(minimumWidth: 0, .nonPositiveItemWidth(containerWidth: 0, columnCount: 2, itemWidth: -15)))
        }

        @Test func footerEnvelope() {
            let rising = AffineLength(scale: 1, offset: 0)
            let flat = AffineLength.constant(100)
            // The tallest column changes at W = 100: the chord over [0, 200] stays above both.
            #expect(BandLayout.upperEnvelope(of: [rising, flat], from: 0, to: 200) == AffineLength(scale: 0.5, offset: 100))
            // Unbounded: the steepest slope, through the highest point at the lower end.
            #expect(BandLayout.upperEnvelope(of: [rising, flat], from: 0, to: nil) == AffineLength(scale: 1, offset: 100))
            // A line highest at both ends is used as it is.
            #expect(BandLayout.upperEnvelope(of: [rising, flat], from: 150, to: 300) == rising)
            #expect(BandLayout.upperEnvelope(of: [rising, flat], from: 150, to: nil) == rising)
        }

        /// Random bands, configurations and photos: evaluating a band's coefficients at a width it
        /// serves gives the same frames as laying out directly at that width with the band's
        /// assignment, and the footer stays under every tile.
        @Test func bandCoefficientsMatchADirectLayoutAtRandomWidths() throws {
            var random = SplitMix64(seed: 42)
            for caseNumber in 0..<1_000 {
                let placement: PlacementPolicy = caseNumber.isMultiple(of: 4) ? .roundRobin : .shortestColumn
                let configuration = random.configuration(placement: placement)
                var minimumWidth = random.nextDouble(in: 200..<500)
                var bands: [Band] = []
                for _ in 0..<random.nextInt(in: 1...4) {
                    var band = Band(minimumWidth: minimumWidth, columnCount: random.nextInt(in: 1...6))
                    if random.nextInt(in: 0...2) == 0 { band.columnSpacing = random.spacing(upTo: 20) }
                    if random.nextInt(in: 0...2) == 0 { band.rowSpacing = random.spacing(upTo: 20) }
                    if random.nextInt(in: 0...2) == 0 {
                        band.edgeInsets = EdgeInsets(top: random.spacing(upTo: 30), left: random.spacing(upTo: 30),
                                                     bottom: random.spacing(upTo: 30), right: random.spacing(upTo: 30))
                    }
                    bands.append(band)
                    minimumWidth += random.nextDouble(in: 1..<800)
                }
                let items = try SizedItems(displaySizes: random.displaySizes(count: random.nextInt(in: 0...60)))
                let layout = try ResponsiveLayout(bands: bands, configuration: configuration, items: items)

                for band in layout.bands {
                    // The assignment is the engine's own at the reference width, which the band serves.
                    #expect(band.servedWidths.contains(band.referenceWidth))
                    #expect(band.referenceWidth >= band.band.minimumWidth)
                    let atReference = try WaterfallLayout(containerWidth: band.referenceWidth,
                                                          configuration: band.configuration, delegate: items)
                    #expect(atReference.itemAttributes.map(\.column) == band.columns.map { Optional($0) })

                    let narrowest = band.configuration.containerWidth(forItemWidth: 1)
                    let lower = max(band.servedWidths.lowerBound, narrowest)
                    let upper = band.servedWidths.upperBound.isFinite ? band.servedWidths.upperBound : 4 * lower + 2000
                    var widths = (0..<6).map { _ in random.nextDouble(in: lower..<upper) }
                    widths.append(band.band.minimumWidth)
                    for width in widths {
                        try Self.checkBand(band, items: items, at: width)
                    }
                }
            }
        }

        static func checkBand(_ band: BandLayout, items: SizedItems, at width: Double) throws {
            let evaluated = try band.layout(atWidth: width)
            let direct = try WaterfallLayout(containerWidth: width, configuration: band.configuration, delegate: items,
                                             columnAssignment: band.columns)
            #expect(nearlyEqual(evaluated.itemWidth, direct.itemWidth))
            for (mine, theirs) in zip(evaluated.itemAttributes, direct.itemAttributes) {
                #expect(mine.column == theirs.column)
                #expect(nearlyEqual(mine.frame, theirs.frame), "item \(mine.index) at W = \(width): \(mine.frame) vs \(theirs.frame)")
            }
            // The footer follows a bound on the tallest column: never above it, and exact whenever
            // one column is the tallest across the band.
            let tolerance = 1e-9 * max(1, direct.footerY)
            #expect(evaluated.footerY >= direct.footerY - tolerance, "footer rose into the tiles at W = \(width)")
            #expect(nearlyEqual(evaluated.footerY, band.footerY.evaluate(at: width)))
            #expect(nearlyEqual(evaluated.contentSize.height, band.contentHeight.evaluate(at: width)))
            for item in evaluated.itemAttributes {
                #expect(item.frame.maxY + band.configuration.edgeInsets.bottom <= evaluated.footerY + tolerance)
            }
        }
    }
}
