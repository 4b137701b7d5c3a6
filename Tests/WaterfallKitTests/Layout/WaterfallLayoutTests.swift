import Testing
@testable import WaterfallKit

extension LayoutTests {
    /// Hand-computed layouts. The default configuration at W = 340 gives items exactly 100 px wide
    /// in 3 columns at x = 10, 120 and 230.
    struct WaterfallLayoutTests {
        @Test func defaultsMatchTheClassicLayouts() {
            let configuration = WaterfallConfiguration()
            #expect(configuration.columnCount == 3)
            #expect(configuration.columnSpacing == 10)
            #expect(configuration.rowSpacing == 10)
            #expect(configuration.edgeInsets == EdgeInsets(top: 10, left: 10, bottom: 10, right: 10))
            #expect(configuration.footerHeight == 50)
            #expect(configuration.headerHeight == 0)
            #expect(configuration.placement == .balanced)
            #expect(configuration.flowTolerance == 0)
        }

        @Test func firstRowHasNoRowSpacingAndItemsGoToTheShortestColumn() throws {
            let layout = try WaterfallLayout(containerWidth: 340, delegate: FixedHeights([50, 30, 40, 20, 10]))
            #expect(layout.itemWidth == 100)
            #expect(layout.itemAttributes.map(\.frame) == [
                Rect(x: 10, y: 10, width: 100, height: 50),
                Rect(x: 120, y: 10, width: 100, height: 30),
                Rect(x: 230, y: 10, width: 100, height: 40),
                Rect(x: 120, y: 50, width: 100, height: 20),  // column 1 ends at 40: 40 + 10
                Rect(x: 230, y: 60, width: 100, height: 10),  // tops would be 70, 80, 60
            ])
            #expect(layout.itemAttributes.map(\.column) == [0, 1, 2, 1, 2])
            #expect(layout.itemAttributes.map(\.index) == [0, 1, 2, 3, 4])
            #expect(layout.itemAttributes.allSatisfy { $0.kind == .item })
            #expect(layout.header == nil)
            #expect(layout.footer == LayoutAttributes(kind: .footer, index: 0,
                                                      frame: Rect(x: 0, y: 80, width: 340, height: 50), column: nil))
            #expect(layout.footerY == 80)
            #expect(layout.contentSize == Size(width: 340, height: 130))
        }

        @Test func tiesGoToTheLeftmostColumn() throws {
            let even = try WaterfallLayout(containerWidth: 340, delegate: FixedHeights([20, 20, 20, 20, 20, 20]))
            #expect(even.itemAttributes.map(\.column) == [0, 1, 2, 0, 1, 2])
            #expect(even.itemAttributes[3].frame.y == 40)
            // Columns 0 and 2 tie at 40 below column 1 (50): column 0 wins.
            let later = try WaterfallLayout(containerWidth: 340, delegate: FixedHeights([20, 30, 20, 5]))
            #expect(later.itemAttributes[3].column == 0)
            #expect(later.itemAttributes[3].frame == Rect(x: 10, y: 40, width: 100, height: 5))
        }

        @Test func emptyLayoutHasOnlyTheFooterUnderTheTopInset() throws {
            let layout = try WaterfallLayout(containerWidth: 340, delegate: FixedHeights([]))
            #expect(layout.itemAttributes.isEmpty)
            #expect(layout.footer?.frame == Rect(x: 0, y: 20, width: 340, height: 50))  // T + B
            #expect(layout.contentSize == Size(width: 340, height: 70))                  // T + B + footer
            #expect(layout.layoutAttributesForElements(in: Rect(x: 0, y: 0, width: 340, height: 1000))
                        .map(\.kind) == [.footer])
        }

        @Test func singleColumnStacksWithRowSpacing() throws {
            let configuration = WaterfallConfiguration(columnCount: 1)
            let layout = try WaterfallLayout(containerWidth: 120, configuration: configuration,
                                             delegate: FixedHeights([10, 20, 30]))
            #expect(layout.itemAttributes.map(\.frame) == [
                Rect(x: 10, y: 10, width: 100, height: 10),
                Rect(x: 10, y: 30, width: 100, height: 20),
                Rect(x: 10, y: 60, width: 100, height: 30),
            ])
            #expect(layout.footerY == 100)
            #expect(layout.contentSize.height == 150)
        }

        @Test(arguments: [
            (PlacementPolicy.shortestColumn, [0, 1, 2, 1], 30.0),
            (PlacementPolicy.roundRobin, [0, 1, 2, 0], 70.0),
        ])
        func placementPolicies(placement: PlacementPolicy, columns: [Int], lastTop: Double) throws {
            let layout = try WaterfallLayout(containerWidth: 340, configuration: WaterfallConfiguration(placement: placement),
                                             delegate: FixedHeights([50, 10, 10, 10]))
            #expect(layout.itemAttributes.map(\.column) == columns)
            #expect(layout.itemAttributes[3].frame.y == lastTop)
        }

        @Test func delegateOverridesTakeEffect() throws {
            var delegate = FixedHeights([10, 20, 30])
            delegate.columnCount = 2
            delegate.columnSpacing = 20
            delegate.rowSpacing = 5
            delegate.edgeInsets = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
            delegate.footerHeight = 7
            delegate.headerHeight = 8
            // w = (226 − 2 − 4 − 20) / 2 = 100; items start at header 8 + top 1 = 9. (Shortest-column
            // placement: balanced would level these three tiles as 10 + 20 | 30.)
            let layout = try WaterfallLayout(containerWidth: 226, configuration: WaterfallConfiguration(placement: .shortestColumn),
                                             delegate: delegate)
            #expect(layout.configuration == WaterfallConfiguration(
                columnCount: 2, columnSpacing: 20, rowSpacing: 5, edgeInsets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4),
                footerHeight: 7, headerHeight: 8, placement: .shortestColumn))
            #expect(layout.itemAttributes.map(\.frame) == [
                Rect(x: 2, y: 9, width: 100, height: 10),
                Rect(x: 122, y: 9, width: 100, height: 20),
                Rect(x: 2, y: 24, width: 100, height: 30),
            ])
            #expect(layout.header?.frame == Rect(x: 0, y: 0, width: 226, height: 8))
            #expect(layout.footer?.frame == Rect(x: 0, y: 57, width: 226, height: 7))
            #expect(layout.contentSize == Size(width: 226, height: 64))
        }

        @Test func delegateOverridesWinOverTheConfiguration() throws {
            var delegate = FixedHeights([10])
            delegate.columnCount = 1
            let layout = try WaterfallLayout(containerWidth: 120, configuration: WaterfallConfiguration(columnCount: 5),
                                             delegate: delegate)
            #expect(layout.configuration.columnCount == 1)
            #expect(layout.itemWidth == 100)
        }

        @Test func headerSitsAtTheTopAndTheTopInsetSeparatesItFromTheItems() throws {
            let layout = try WaterfallLayout(containerWidth: 340, configuration: WaterfallConfiguration(headerHeight: 30),
                                             delegate: FixedHeights([10]))
            #expect(layout.header == LayoutAttributes(kind: .header, index: 0,
                                                      frame: Rect(x: 0, y: 0, width: 340, height: 30), column: nil))
            #expect(layout.itemAttributes[0].frame.y == 40)
            #expect(layout.footer?.frame.y == 60)
            #expect(layout.layoutAttributesForSupplementaryElement(ofKind: .header) == layout.header)
            #expect(layout.layoutAttributesForSupplementaryElement(ofKind: .footer) == layout.footer)
            #expect(layout.layoutAttributesForSupplementaryElement(ofKind: .item) == nil)
        }

        @Test func zeroFooterHeightMeansNoFooterElement() throws {
            let layout = try WaterfallLayout(containerWidth: 340, configuration: WaterfallConfiguration(footerHeight: 0),
                                             delegate: FixedHeights([10]))
            #expect(layout.footer == nil)
            #expect(layout.footerY == 30)
            #expect(layout.contentSize.height == 30)  // maxColumnBottom + B
        }

        @Test func sizedItemsScaleToTheItemWidth() throws {
            let items = try SizedItems(displaySizes: [Size(width: 400, height: 300), Size(width: 200, height: 400)])
            let layout = try WaterfallLayout(containerWidth: 340, delegate: items)
            #expect(layout.itemAttributes.map(\.frame.height) == [75, 200])
        }

        @Test func itemLookup() throws {
            let layout = try WaterfallLayout(containerWidth: 340, delegate: FixedHeights([10, 20]))
            #expect(layout.numberOfItems == 2)
            #expect(layout.layoutAttributesForItem(at: 1)?.frame == Rect(x: 120, y: 10, width: 100, height: 20))
            #expect(layout.layoutAttributesForItem(at: 2) == nil)
            #expect(layout.layoutAttributesForItem(at: -1) == nil)
        }

        @Test func rectQueryExcludesTouchingEdgesAndOtherColumns() throws {
            // Items: 0 col 0 y 10–60; 1 col 1 10–40; 2 col 2 10–50; 3 col 1 50–70; 4 col 2 60–70.
            let layout = try WaterfallLayout(containerWidth: 340, delegate: FixedHeights([50, 30, 40, 20, 10]))
            func indices(_ rect: Rect) -> Set<Int> {
                Set(layout.layoutAttributesForElements(in: rect).filter { $0.kind == .item }.map(\.index))
            }
            #expect(indices(Rect(x: 0, y: 55, width: 340, height: 10)) == [0, 3, 4])
            #expect(indices(Rect(x: 0, y: 40, width: 340, height: 10)) == [0, 2])
            #expect(indices(Rect(x: 0, y: 0, width: 15, height: 1000)) == [0])
            #expect(indices(Rect(x: 110, y: 0, width: 10, height: 1000)).isEmpty)  // the gap between columns
            #expect(layout.layoutAttributesForElements(in: Rect(x: 0, y: 90, width: 10, height: 1)).map(\.kind) == [.footer])
            #expect(layout.layoutAttributesForElements(in: Rect(x: 0, y: 130, width: 340, height: 10)).isEmpty)
        }

        @Test func zeroSpacingTilesTouchButDoNotIntersect() throws {
            let configuration = WaterfallConfiguration(columnCount: 2, columnSpacing: 0, rowSpacing: 0, edgeInsets: .zero)
            let layout = try WaterfallLayout(containerWidth: 200, configuration: configuration,
                                             delegate: FixedHeights([10, 10, 10, 10]))
            #expect(layout.itemAttributes.map(\.frame) == [
                Rect(x: 0, y: 0, width: 100, height: 10), Rect(x: 100, y: 0, width: 100, height: 10),
                Rect(x: 0, y: 10, width: 100, height: 10), Rect(x: 100, y: 10, width: 100, height: 10),
            ])
            #expect(!layout.itemAttributes[0].frame.intersects(layout.itemAttributes[1].frame))
            #expect(!layout.itemAttributes[0].frame.intersects(layout.itemAttributes[2].frame))
        }
    }
}
