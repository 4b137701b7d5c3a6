import Testing
@testable import WaterfallKit

extension LayoutTests {
    struct LayoutErrorTests {
        static let invalidConfigurations: [(String, WaterfallConfiguration)] = [
            ("columnCount", WaterfallConfiguration(columnCount: 0)),
            ("columnCount", WaterfallConfiguration(columnCount: -2)),
            ("columnSpacing", WaterfallConfiguration(columnSpacing: -1)),
            ("rowSpacing", WaterfallConfiguration(rowSpacing: .nan)),
            ("edgeInsets.top", WaterfallConfiguration(edgeInsets: EdgeInsets(top: -0.5, left: 0, bottom: 0, right: 0))),
            ("edgeInsets.left", WaterfallConfiguration(edgeInsets: EdgeInsets(top: 0, left: .infinity, bottom: 0, right: 0))),
            ("edgeInsets.bottom", WaterfallConfiguration(edgeInsets: EdgeInsets(top: 0, left: 0, bottom: -.infinity, right: 0))),
            ("edgeInsets.right", WaterfallConfiguration(edgeInsets: EdgeInsets(top: 0, left: 0, bottom: 0, right: -3))),
            ("footerHeight", WaterfallConfiguration(footerHeight: .infinity)),
            ("headerHeight", WaterfallConfiguration(headerHeight: -1)),
        ]

        @Test(arguments: invalidConfigurations)
        func invalidConfigurationThrowsNamingTheSetting(key: String, configuration: WaterfallConfiguration) {
            let error = #expect(throws: LayoutError.self) {
                try WaterfallLayout(containerWidth: 1000, configuration: configuration, delegate: FixedHeights([10]))
            }
            #expect(error?.description.hasPrefix(key + " must be") == true)
            #expect(error?.description.contains("\n") == false)
        }

        @Test func invalidDelegateOverrideThrows() {
            var delegate = FixedHeights([10])
            delegate.rowSpacing = -1
            #expect(throws: LayoutError.invalidLength(name: "rowSpacing", value: -1)) {
                try WaterfallLayout(containerWidth: 340, delegate: delegate)
            }
        }

        @Test(arguments: [-1.0, .nan, .infinity, -.infinity])
        func invalidContainerWidthThrows(width: Double) {
            let error = #expect(throws: LayoutError.self) {
                try WaterfallLayout(containerWidth: width, delegate: FixedHeights([10]))
            }
            guard case .invalidLength(name: "containerWidth", _) = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
        }

        @Test(arguments: [0.0, 30, 40])  // 40 − 20 (insets) − 20 (spacing) leaves exactly 0
        func tooNarrowContainerThrows(width: Double) {
            let error = #expect(throws: LayoutError.self) {
                try WaterfallLayout(containerWidth: width, delegate: FixedHeights([10]))
            }
            guard case .nonPositiveItemWidth(containerWidth: width, columnCount: 3, _) = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
        }

        @Test(arguments: [-1.0, .nan, .infinity, -.infinity])
        func invalidItemHeightThrowsNamingTheItem(height: Double) {
            let error = #expect(throws: LayoutError.self) {
                try WaterfallLayout(containerWidth: 340, delegate: FixedHeights([10, height]))
            }
            guard case .invalidItemHeight(index: 1, _) = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
            #expect(error?.description.hasPrefix("item 1: height must be") == true)
        }

        @Test func zeroItemHeightIsAllowed() throws {
            let layout = try WaterfallLayout(containerWidth: 340, delegate: FixedHeights([0, 10]))
            #expect(layout.itemAttributes[0].frame == Rect(x: 10, y: 10, width: 100, height: 0))
        }

        @Test func negativeItemCountThrows() {
            struct Broken: WaterfallLayoutDelegate {
                var numberOfItems: Int { -1 }
                func heightForItem(at index: Int, itemWidth: Double) -> Double { 0 }
            }
            #expect(throws: LayoutError.invalidItemCount(-1)) {
                try WaterfallLayout(containerWidth: 340, delegate: Broken())
            }
        }

        @Test func overflowingHeightsThrowInsteadOfProducingInfiniteFrames() {
            #expect(throws: LayoutError.coordinateOverflow(index: 1)) {
                try WaterfallLayout(containerWidth: 120, configuration: WaterfallConfiguration(columnCount: 1),
                                    delegate: FixedHeights([1e308, 1e308]))
            }
        }

        @Test func descriptionsAreOneLineAndSayWhere() {
            let errors: [LayoutError] = [
                .invalidColumnCount(0),
                .nonPositiveItemWidth(containerWidth: 30, columnCount: 3, itemWidth: -3.5),
                .invalidDisplaySize(index: 4, size: Size(width: 0, height: 480)),
                .inBand(minimumWidth: 600, .invalidColumnCount(0)),
                .widthOutsideBand(width: 10, servedWidths: 20..<600),
                .coordinateOverflow(index: nil),
            ]
            for error in errors {
                #expect(!error.description.contains("\n"))
            }
            #expect(LayoutError.invalidDisplaySize(index: 4, size: Size(width: 0, height: 480)).description
                        .hasPrefix("item 4: display size 0.0 × 480.0"))
            #expect(LayoutError.inBand(minimumWidth: 600, .invalidColumnCount(0)).description
                        == "band from 600.0 px: columnCount must be at least 1, got 0")
        }
    }
}
