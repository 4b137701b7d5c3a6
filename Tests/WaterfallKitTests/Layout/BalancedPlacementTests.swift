import Testing
@testable import WaterfallKit

extension LayoutTests {
    /// Balanced placement against shortest-column placement on seeded random galleries, the spread
    /// figures on phone-like galleries, and the flow tolerance.
    struct BalancedPlacementTests {
        /// Every random case laid out twice, shortest and balanced, with the same configuration.
        static func forEachPair(seed: UInt64, cases: Int = 1_000,
                                _ body: (_ shortest: WaterfallLayout, _ balanced: WaterfallLayout) throws -> Void) throws {
            var random = SplitMix64(seed: seed)
            for _ in 0..<cases {
                var configuration = random.configuration(placement: .shortestColumn)
                configuration.flowTolerance = random.nextInt(in: 0...1) == 0 ? 0 : random.spacing(upTo: 50)
                let width = configuration.containerWidth(forItemWidth: random.nextDouble(in: 0.5..<400))
                let items = try SizedItems(displaySizes: random.displaySizes(count: random.nextInt(in: 0...40)))
                let shortest = try WaterfallLayout(containerWidth: width, configuration: configuration, delegate: items)
                configuration.placement = .balanced
                let balanced = try WaterfallLayout(containerWidth: width, configuration: configuration, delegate: items)
                try body(shortest, balanced)
            }
        }

        @Test func balancedIsNeverMoreRaggedThanShortest() throws {
            try Self.forEachPair(seed: 21) { shortest, balanced in
                #expect(balanced.bottomSpread <= shortest.bottomSpread, "\(balanced.configuration)")
            }
        }

        @Test func onlyTheLastFewTilesCanMove() throws {
            try Self.forEachPair(seed: 22) { shortest, balanced in
                let tail = ColumnPlanner.tailLength(columnCount: balanced.configuration.columnCount)
                let head = max(0, balanced.numberOfItems - tail)
                for index in 0..<head {
                    #expect(balanced.itemAttributes[index] == shortest.itemAttributes[index])
                }
            }
        }

        /// Tiles are only ever appended to a column's end: down each column, the index and the top grow,
        /// and each tile starts one row spacing under the one above it.
        @Test func eachColumnKeepsGalleryOrder() throws {
            try Self.forEachPair(seed: 23) { _, balanced in
                let configuration = balanced.configuration
                for column in 0..<configuration.columnCount {
                    let items = balanced.itemAttributes.filter { $0.column == column }
                    var top = configuration.headerHeight + configuration.edgeInsets.top
                    for item in items {
                        #expect(item.frame.minY == top)
                        top = item.frame.maxY + configuration.rowSpacing
                    }
                    #expect(zip(items, items.dropFirst()).allSatisfy { $0.index < $1.index })
                }
            }
        }

        /// Balanced bands, evaluated at random widths of the band, equal a layout with the band's
        /// columns (chosen at its reference width) and keep the footer under every tile.
        @Test func bandsStayExact() throws {
            var random = SplitMix64(seed: 24)
            for _ in 0..<200 {
                let configuration = random.configuration(placement: .balanced)
                let items = try SizedItems(displaySizes: random.displaySizes(count: random.nextInt(in: 0...60)))
                let start = configuration.containerWidth(forItemWidth: 20)
                let bands = [Band(minimumWidth: start, columnCount: configuration.columnCount),
                             Band(minimumWidth: start + 600, columnCount: configuration.columnCount + 1)]
                let responsive = try ResponsiveLayout(bands: bands, configuration: configuration, items: items)
                for band in responsive.bands {
                    let reference = try WaterfallLayout(containerWidth: band.referenceWidth,
                                                        configuration: band.configuration, delegate: items)
                    #expect(reference.itemAttributes.map { $0.column! } == band.columns)
                    for _ in 0..<5 {
                        let width = random.nextDouble(in: band.servedWidths.lowerBound..<min(band.servedWidths.upperBound, start + 3000))
                        guard band.itemWidth.evaluate(at: width) > 0 else { continue }
                        let layout = try band.layout(atWidth: width)
                        let direct = try WaterfallLayout(containerWidth: width, configuration: band.configuration,
                                                         delegate: items, columnAssignment: band.columns)
                        for (ours, theirs) in zip(layout.itemAttributes, direct.itemAttributes) {
                            #expect(nearlyEqual(ours.frame, theirs.frame, relative: 1e-9))
                        }
                        let lowest = layout.itemAttributes.map(\.frame.maxY).max() ?? 0
                        #expect(layout.footerY >= lowest + configuration.edgeInsets.bottom - 1e-9 * max(1, lowest))
                    }
                }
            }
        }

        /// The goal the README quotes, on a fixed sample: balanced's median spread is at most 0.3 tile
        /// widths, and under a third of shortest's, at 2 to 5 columns.
        @Test(arguments: 2...5)
        func medianSpreadOnPhoneLikeGalleries(columns: Int) throws {
            let balanced = try PhoneLikeGallery.spreads(seed: 12, count: 200, columnCount: columns, placement: .balanced)
            let shortest = try PhoneLikeGallery.spreads(seed: 12, count: 200, columnCount: columns, placement: .shortestColumn)
            let median = PhoneLikeGallery.percentile(0.5, of: balanced)
            #expect(median <= 0.3)
            #expect(median <= PhoneLikeGallery.percentile(0.5, of: shortest) / 3)
        }

        /// The search is exact: on small random cases its spread is the least of every assignment of
        /// the tail to the columns, tried one by one.
        @Test func balancedFindsTheLeastSpread() throws {
            var random = SplitMix64(seed: 25)
            for _ in 0..<300 {
                let columnCount = random.nextInt(in: 1...3)
                let configuration = WaterfallConfiguration(columnCount: columnCount, rowSpacing: random.spacing(upTo: 20))
                let heights = (0..<random.nextInt(in: 0...(2 * columnCount + 6))).map { _ in
                    // Few distinct heights, as in a camera roll, so the equal-height symmetry is exercised.
                    [75.0, 100, 133.25, 177.5, 40][random.nextInt(in: 0...4)]
                }
                let layout = try WaterfallLayout(containerWidth: configuration.containerWidth(forItemWidth: 100),
                                                 configuration: configuration, delegate: FixedHeights(heights))
                let tailStart = max(0, heights.count - ColumnPlanner.tailLength(columnCount: columnCount))
                let head = Array(layout.itemAttributes[..<tailStart].map { $0.column! })
                var least = Double.infinity
                var assignment = [Int](repeating: 0, count: heights.count - tailStart)
                repeat {
                    var stacks = ColumnStacks(columnCount: columnCount, firstTop: configuration.edgeInsets.top,
                                              rowSpacing: configuration.rowSpacing)
                    for (height, column) in zip(heights, head + assignment) { stacks.place(height: height, in: column) }
                    least = min(least, stacks.spread)
                } while Self.advance(&assignment, base: columnCount)
                #expect(abs(layout.bottomSpread - least) <= 1e-9 * max(1, least), "\(heights) in \(columnCount)")
            }
        }

        /// The next assignment in counting order (base `base` digits); false after the last.
        private static func advance(_ digits: inout [Int], base: Int) -> Bool {
            for index in digits.indices {
                digits[index] += 1
                if digits[index] < base { return true }
                digits[index] = 0
            }
            return false
        }

        @Test func toleranceTakesTheLeftmostColumnWithinIt() throws {
            // After 50 | 30 | 40 the next tops are 70, 50, 60 (10 px row spacing): the shortest is column 1,
            // but with a 20 px tolerance column 0 (20 px higher) is within it and leftmost.
            let heights: [Double] = [50, 30, 40, 10]
            for (tolerance, expected) in [(0.0, 1), (19.9, 1), (20.0, 0), (15.0, 1)] {
                let configuration = WaterfallConfiguration(placement: .shortestColumn, flowTolerance: tolerance)
                let layout = try WaterfallLayout(containerWidth: 340, configuration: configuration, delegate: FixedHeights(heights))
                #expect(layout.itemAttributes[3].column == expected, "tolerance \(tolerance)")
            }
            // Next tops 70, 60, 50: with 10 px, columns 1 and 2 are within it, column 0 is not, so column 1.
            let layout = try WaterfallLayout(containerWidth: 340,
                                             configuration: WaterfallConfiguration(placement: .shortestColumn, flowTolerance: 10),
                                             delegate: FixedHeights([50, 40, 30, 10]))
            #expect(layout.itemAttributes[3].column == 1)
        }

        @Test func aNegativeToleranceIsInvalid() {
            #expect(throws: LayoutError.invalidLength(name: "flowTolerance", value: -1)) {
                try WaterfallLayout(containerWidth: 340, configuration: WaterfallConfiguration(flowTolerance: -1),
                                    delegate: FixedHeights([1]))
            }
        }

        /// Two columns, tiles 60, 60, 50, 40, 30 high, 10 px row spacing: shortest stacks 60 + 50 | 60 + 40 + 30
        /// (bottoms 130 and 160); the best split is 60 + 60 | 50 + 40 + 30 (130 and 140: with every
        /// sum a multiple of 10 and 290 px in all, 10 is the least spread possible).
        @Test func balancedLevelsASmallCase() throws {
            let heights: [Double] = [60, 60, 50, 40, 30]
            let shortest = try WaterfallLayout(containerWidth: 230,
                                               configuration: WaterfallConfiguration(columnCount: 2, placement: .shortestColumn),
                                               delegate: FixedHeights(heights))
            let balanced = try WaterfallLayout(containerWidth: 230, configuration: WaterfallConfiguration(columnCount: 2),
                                               delegate: FixedHeights(heights))
            #expect(shortest.bottomSpread == 30)
            #expect(balanced.bottomSpread == 10)
            #expect(balanced.itemAttributes.map { $0.column! } == [0, 0, 1, 1, 1])
        }
    }
}
