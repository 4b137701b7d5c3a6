import Testing
@testable import WaterfallKit

/// Which ratings publish a photo, under each setting.
struct RatingRuleTests {
    @Test(arguments: [
        // (minRating, publishRejected, published of -1, nil, 0, 3, 5)
        (nil, false, [false, true, true, true, true]), (nil, true, [true, true, true, true, true]),
        (1, false, [false, false, false, true, true]), (3, true, [false, false, false, true, true]),
        (4, false, [false, false, false, false, true]), (5, false, [false, false, false, false, true]),
    ] as [(Int?, Bool, [Bool])])
    func ratingsAgainstTheSettings(minRating: Int?, publishRejected: Bool, published: [Bool]) {
        let rule = RatingRule(minRating: minRating, publishRejected: publishRejected)
        #expect([-1, nil, 0, 3, 5].map(rule.publishes) == published)
    }

    @Test func theReportIsOneLine() {
        #expect(RatingRule().report(leftOut: 0) == nil)
        #expect(RatingRule().report(leftOut: 3) == "3 photos rated -1 (rejected) not published (publishRejected publishes them)")
        #expect(RatingRule().report(leftOut: 1) == "1 photo rated -1 (rejected) not published (publishRejected publishes them)")
        #expect(RatingRule(minRating: 3).report(leftOut: 2) == "2 photos rated under 3 not published (minRating)")
    }
}
