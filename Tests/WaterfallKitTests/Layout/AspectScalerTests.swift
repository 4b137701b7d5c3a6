import Testing
@testable import WaterfallKit

extension LayoutTests {
    struct AspectScalerTests {
        @Test func heightFollowsTheAspectRatio() throws {
            #expect(try AspectScaler.height(displaySize: Size(width: 4000, height: 3000), itemWidth: 100) == 75)
            #expect(try AspectScaler.height(displaySize: Size(width: 3000, height: 4000), itemWidth: 300) == 400)
            let scaler = try AspectScaler(displaySize: Size(width: 1920, height: 1080))
            #expect(scaler.aspectRatio == 1080.0 / 1920.0)
            #expect(try scaler.height(forItemWidth: 1920) == 1080)
        }

        static let badSides: [Double] = [0, -0.0, -1, -4000, .nan, .infinity, -.infinity]

        @Test(arguments: badSides)
        func badWidthThrows(side: Double) {
            #expect(throws: LayoutError.self) { try AspectScaler(displaySize: Size(width: side, height: 3000)) }
        }

        @Test(arguments: badSides)
        func badHeightThrows(side: Double) {
            #expect(throws: LayoutError.self) { try AspectScaler(displaySize: Size(width: 4000, height: side)) }
        }

        @Test(arguments: badSides)
        func badItemWidthThrows(itemWidth: Double) throws {
            let scaler = try AspectScaler(displaySize: Size(width: 4000, height: 3000))
            #expect(throws: LayoutError.self) { try scaler.height(forItemWidth: itemWidth) }
        }

        @Test func ratiosThatAreNotFiniteThrow() {
            // Both sides are valid numbers, but their ratio overflows or underflows to 0.
            #expect(throws: LayoutError.self) { try AspectScaler(displaySize: Size(width: 1e-300, height: 1e300)) }
            #expect(throws: LayoutError.self) { try AspectScaler(displaySize: Size(width: 1e300, height: 1e-300)) }
            #expect(throws: LayoutError.self) {
                try AspectScaler(displaySize: Size(width: 1, height: 1e300)).height(forItemWidth: 1e300)
            }
        }

        @Test func sizedItemsNameTheBadItem() {
            let error = #expect(throws: LayoutError.self) {
                try SizedItems(displaySizes: [Size(width: 10, height: 10), Size(width: 10, height: 10), Size(width: .nan, height: 5)])
            }
            guard case .invalidDisplaySize(index: 2, _) = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
        }

        @Test func sizedItemsAgreeWithTheScaler() throws {
            let sizes = [Size(width: 4000, height: 3000), Size(width: 1234, height: 5678)]
            let items = try SizedItems(displaySizes: sizes)
            #expect(items.numberOfItems == 2)
            for (index, size) in sizes.enumerated() {
                #expect(items.heightForItem(at: index, itemWidth: 123.4)
                            == (try AspectScaler.height(displaySize: size, itemWidth: 123.4)))
            }
        }
    }
}
