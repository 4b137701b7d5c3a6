import Testing
@testable import WaterfallKit

extension LayoutTests {
    /// Invariants over thousands of seeded random layouts (configuration, width and photos all random).
    struct LayoutPropertyTests {
        static let caseCount = 2_000

        /// Every random case, for both policies: the layout, its items and their heights at its item width.
        static func forEachRandomLayout(seed: UInt64, _ body: (WaterfallLayout, [Double]) throws -> Void) throws {
            var random = SplitMix64(seed: seed)
            for caseNumber in 0..<caseCount {
                let placement: PlacementPolicy = caseNumber.isMultiple(of: 2) ? .shortestColumn : .roundRobin
                let configuration = random.configuration(placement: placement)
                let width = configuration.containerWidth(forItemWidth: random.nextDouble(in: 0.5..<400))
                let items = try SizedItems(displaySizes: random.displaySizes(count: random.nextInt(in: 0...40)))
                let layout = try WaterfallLayout(containerWidth: width, configuration: configuration, delegate: items)
                try body(layout, items.aspectRatios.map { $0 * layout.itemWidth })
            }
        }

        @Test func noTwoElementsOverlap() throws {
            try Self.forEachRandomLayout(seed: 1) { layout, _ in
                let frames = layout.itemAttributes.map(\.frame) + [layout.header, layout.footer].compactMap { $0?.frame }
                for first in frames.indices {
                    for second in frames.indices where second > first {
                        #expect(!interiorsOverlap(frames[first], frames[second]),
                                "\(frames[first]) overlaps \(frames[second]) in \(layout.configuration)")
                    }
                }
            }
        }

        @Test func itemsStayInsideTheInsets() throws {
            try Self.forEachRandomLayout(seed: 2) { layout, _ in
                let insets = layout.configuration.edgeInsets
                let slack = 1e-12 * layout.containerWidth  // x + w may round one ulp past W − R
                for item in layout.itemAttributes {
                    #expect(item.frame.minX >= insets.left)
                    #expect(item.frame.maxX <= layout.containerWidth - insets.right + slack)
                    #expect(item.frame.minY >= layout.configuration.headerHeight + insets.top)
                    #expect(item.frame.width == layout.itemWidth)
                }
            }
        }

        /// Re-simulates placement independently: each item must sit at the top of the column where it
        /// would start highest (the leftmost on ties), or in column i mod c for round robin.
        @Test func placementMatchesAnIndependentSimulation() throws {
            try Self.forEachRandomLayout(seed: 3) { layout, heights in
                let configuration = layout.configuration
                let firstTop = configuration.headerHeight + configuration.edgeInsets.top
                var columns = [[Double]](repeating: [], count: configuration.columnCount)  // bottoms
                for (index, item) in layout.itemAttributes.enumerated() {
                    let tops = columns.map { $0.last.map { $0 + configuration.rowSpacing } ?? firstTop }
                    let expected = configuration.placement == .roundRobin
                        ? index % configuration.columnCount
                        : tops.firstIndex(of: tops.min()!)!
                    #expect(item.column == expected)
                    #expect(item.frame.y == tops[expected])
                    #expect(item.frame.height == heights[index])
                    #expect(nearlyEqual(item.frame.x, configuration.edgeInsets.left
                                + Double(expected) * (layout.itemWidth + configuration.columnSpacing), relative: 1e-14))
                    columns[expected].append(item.frame.maxY)
                }
            }
        }

        @Test func topsNeverGoUpUnderShortestColumn() throws {
            try Self.forEachRandomLayout(seed: 4) { layout, _ in
                guard layout.configuration.placement == .shortestColumn else { return }
                let tops = layout.itemAttributes.map(\.frame.minY)
                #expect(zip(tops, tops.dropFirst()).allSatisfy { $0 <= $1 })
            }
        }

        @Test func footerLiesBelowEveryItem() throws {
            try Self.forEachRandomLayout(seed: 5) { layout, _ in
                let configuration = layout.configuration
                let lowest = layout.itemAttributes.map(\.frame.maxY).max()
                    ?? configuration.headerHeight + configuration.edgeInsets.top
                #expect(layout.footerY == lowest + configuration.edgeInsets.bottom)
                #expect(layout.contentSize == Size(width: layout.containerWidth,
                                                   height: layout.footerY + configuration.footerHeight))
                if configuration.footerHeight > 0 {
                    #expect(layout.footer?.frame == Rect(x: 0, y: layout.footerY, width: layout.containerWidth,
                                                         height: configuration.footerHeight))
                } else {
                    #expect(layout.footer == nil)
                }
                #expect((layout.header != nil) == (configuration.headerHeight > 0))
            }
        }

        @Test func rectQueryEqualsABruteForceScan() throws {
            var random = SplitMix64(seed: 7)
            try Self.forEachRandomLayout(seed: 6) { layout, _ in
                let everything = layout.itemAttributes + [layout.header, layout.footer].compactMap { $0 }
                let height = layout.contentSize.height, width = layout.containerWidth
                for _ in 0..<10 {
                    let x = random.nextDouble(in: -0.1 * width..<1.1 * width)
                    let y = random.nextDouble(in: -0.1 * height..<1.1 * height)
                    // Sometimes a line (zero width or height), sometimes edges exactly on an item's.
                    var rect = Rect(x: x, y: y,
                                    width: random.nextInt(in: 0...5) == 0 ? 0 : random.nextDouble(in: 0..<width),
                                    height: random.nextInt(in: 0...5) == 0 ? 0 : random.nextDouble(in: 0..<height / 2))
                    if !everything.isEmpty, random.nextInt(in: 0...3) == 0 {
                        rect.y = everything[random.nextInt(in: 0...everything.count - 1)].frame.maxY
                    }
                    let expected = Set(everything.filter { interiorsOverlap($0.frame, rect) })
                    let found = layout.layoutAttributesForElements(in: rect)
                    #expect(found.count == expected.count, "duplicates or misses for \(rect)")
                    #expect(Set(found) == expected, "query \(rect) in \(layout.configuration)")
                }
            }
        }
    }
}
