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

    /// The order as it was first written (a list of runs, each a list), as the reference for the flat key.
    static func reference(_ lhs: String, _ rhs: String) -> Bool {
        enum Chunk: Comparable {
            case number([UInt32])
            case text([UInt32])

            static func < (lhs: Chunk, rhs: Chunk) -> Bool {
                switch (lhs, rhs) {
                case let (.number(x), .number(y)): x.count != y.count ? x.count < y.count : x.lexicographicallyPrecedes(y)
                case (.number, .text): true
                case (.text, .number): false
                case let (.text(x), .text(y)): x.lexicographicallyPrecedes(y)
                }
            }
        }
        func chunks(_ name: String) -> [Chunk] {
            let scalars = Array(name.lowercased().unicodeScalars).map(\.value)
            var chunks: [Chunk] = []
            var start = 0
            while start < scalars.count {
                let digits = (0x30...0x39).contains(scalars[start])
                var end = start
                while end < scalars.count, (0x30...0x39).contains(scalars[end]) == digits { end += 1 }
                let run = Array(scalars[start..<end])
                chunks.append(digits ? .number(Array(run.drop { $0 == 0x30 })) : .text(run))
                start = end
            }
            return chunks
        }
        let (a, b) = (chunks(lhs), chunks(rhs))
        for (x, y) in zip(a, b) where x != y { return x < y }
        if a.count != b.count { return a.count < b.count }
        return lhs.unicodeScalars.map(\.value).lexicographicallyPrecedes(rhs.unicodeScalars.map(\.value))
    }

    @Test("the flat key orders every pair as the list of runs did")
    func sameOrderAsTheRuns() {
        var generator = SplitMix64(seed: 14)
        let pieces = ["IMG_", "img_", "0", "00", "1", "9", "10", "007", "a", "B", "é", "e\u{301}", "İ", "-", ".", ".jpg", "ß", " ", "z", "\u{0}"]
        var names = ["", "0", "00", "a", "a0", "a00", "a1", "a01b", "IMG_2", "IMG_10", "img_2.jpg", "img_2.jpg.txt"]
        for _ in 0..<80 {
            names.append((0..<Int(generator.next() % 5)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined())
        }
        let differ = names.flatMap { a in names.map { b in (a, b) } }.filter { NaturalOrder.areInIncreasingOrder($0, $1) != Self.reference($0, $1) }
        #expect(differ.isEmpty, "\(differ.prefix(3))")
    }
}
