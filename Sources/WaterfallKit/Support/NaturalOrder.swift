/// File-name order as people expect it: `IMG_2` before `IMG_10`, case ignored. Ties under those rules
/// fall back to plain code-point order, so the order is total and every build sorts the same way.
public enum NaturalOrder {
    public static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        Key(lhs) < Key(rhs)
    }

    /// Sorts by natural order, splitting each name into chunks once rather than at every comparison. The
    /// places are sorted, not the elements (a photo is a large value to move about); equal names keep their order.
    public static func sorted<Element>(_ elements: [Element], by name: (Element) -> String) -> [Element] {
        let keys = elements.map { Key(name($0)) }
        return elements.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }.map { elements[$0] }
    }

    /// A name split into runs of ASCII digits (compared by value) and runs of other characters
    /// (compared case-insensitively), plus the name's code points for the final tie-break: all in one
    /// array, so that comparing two keys is comparing two arrays (one allocation a name, not one a run; a
    /// rebuild of 100,000 photos sorts every folder and every album). A number is 1, its digit count
    /// (leading zeros dropped) and its digits; a text run is 2, its code points plus one (so none is 0),
    /// then 0; the runs end with 0, which sorts a name whose runs are another's first runs before it; the
    /// name's own code points follow. Each part ends where the other's would, so the first that differs
    /// decides, as `Chunk`'s order does.
    struct Key: Comparable {
        private let flat: [UInt32]

        init(_ name: String) {
            var flat: [UInt32] = []
            flat.reserveCapacity(2 * name.utf8.count + 4)
            let folded = name.lowercased().unicodeScalars.map(\.value)
            var start = 0
            while start < folded.count {
                let digits = Self.isDigit(folded[start])
                var end = start
                while end < folded.count, Self.isDigit(folded[end]) == digits { end += 1 }
                if digits {
                    var first = start
                    while first < end, folded[first] == 0x30 { first += 1 }
                    flat.append(1)
                    flat.append(UInt32(end - first))
                    flat.append(contentsOf: folded[first..<end])
                } else {
                    flat.append(2)
                    for scalar in folded[start..<end] { flat.append(scalar + 1) }
                    flat.append(0)
                }
                start = end
            }
            flat.append(0)
            flat.append(contentsOf: name.unicodeScalars.lazy.map(\.value))
            self.flat = flat
        }

        static func < (lhs: Key, rhs: Key) -> Bool { lhs.flat.lexicographicallyPrecedes(rhs.flat) }

        /// The same code points (the runs are made from them).
        static func == (lhs: Key, rhs: Key) -> Bool { lhs.flat == rhs.flat }

        private static func isDigit(_ scalar: UInt32) -> Bool { (0x30...0x39).contains(scalar) }
    }
}
