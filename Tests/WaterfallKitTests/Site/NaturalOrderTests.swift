import Testing
@testable import WaterfallKit

struct NaturalOrderTests {
    @Test func numbersCompareByValueAndCaseIsIgnored() {
        let names = ["img_10.jpg", "IMG_2.jpg", "img_1.jpg", "Beach.png", "apple.jpg", "IMG_02.jpg", "z", "10", "9"]
        #expect(names.sorted(by: NaturalOrder.areInIncreasingOrder)
            == ["9", "10", "apple.jpg", "Beach.png", "img_1.jpg", "IMG_02.jpg", "IMG_2.jpg", "img_10.jpg", "z"])
        #expect(NaturalOrder.areInIncreasingOrder("IMG_2", "IMG_10"))
        #expect(NaturalOrder.areInIncreasingOrder("img_9", "IMG_10"))
        #expect(NaturalOrder.areInIncreasingOrder("a", "B"))
        #expect(NaturalOrder.areInIncreasingOrder("x9", "x123456789012345678901234567890"))
    }

    @Test("a strict total order: irreflexive, and exactly one of a<b, b<a for distinct names")
    func totalOrder() {
        let names = ["IMG_2", "img_2", "IMG_02", "IMG_002", "a1b", "A1B", "a01b", "é", "e", "E", "", "0", "00"]
        for a in names {
            #expect(!NaturalOrder.areInIncreasingOrder(a, a))
            for b in names where a != b {
                #expect(NaturalOrder.areInIncreasingOrder(a, b) != NaturalOrder.areInIncreasingOrder(b, a), "\(a) \(b)")
            }
        }
        #expect(["IMG_10", "IMG_9", "IMG_1"].sorted(by: NaturalOrder.areInIncreasingOrder) == ["IMG_1", "IMG_9", "IMG_10"])
    }
}
