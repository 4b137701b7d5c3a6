import Testing
@testable import WaterfallKit

extension LayoutTests {
    struct AffineLengthTests {
        @Test func arithmeticAndEvaluation() {
            let a = AffineLength(scale: 0.5, offset: -10)
            let b = AffineLength(scale: 0.25, offset: 4)
            #expect(a.evaluate(at: 100) == 40)
            #expect((a + b) == AffineLength(scale: 0.75, offset: -6))
            #expect((a - b) == AffineLength(scale: 0.25, offset: -14))
            #expect((a + 3) == AffineLength(scale: 0.5, offset: -7))
            #expect((2 * a) == AffineLength(scale: 1, offset: -20))
            #expect(AffineLength.constant(7).evaluate(at: 1e6) == 7)
            #expect(AffineLength.containerWidth.evaluate(at: 321) == 321)
            #expect(AffineLength.zero.evaluate(at: 321) == 0)
        }

        @Test func rectEvaluation() {
            let rect = AffineRect(x: .constant(10), y: AffineLength(scale: 1, offset: 5),
                                  width: AffineLength(scale: 0.5, offset: -15), height: .constant(20))
            #expect(rect.evaluate(at: 100) == Rect(x: 10, y: 105, width: 35, height: 20))
            #expect(rect.maxX == AffineLength(scale: 0.5, offset: -5))
            #expect(rect.maxY == AffineLength(scale: 1, offset: 25))
        }
    }
}
