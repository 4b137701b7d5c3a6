/// File-name order as people expect it: `IMG_2` before `IMG_10`, case ignored. Ties under those rules
/// fall back to plain code-point order, so the order is total and every build sorts the same way.
public enum NaturalOrder {
    public static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        Key(lhs) < Key(rhs)
    }

    /// Sorts by natural order, splitting each name into chunks once rather than at every comparison.
    public static func sorted<Element>(_ elements: [Element], by name: (Element) -> String) -> [Element] {
        elements.map { (Key(name($0)), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// A name split into runs of ASCII digits (compared by value) and runs of other characters
    /// (compared case-insensitively), plus the name's code points for the final tie-break.
    struct Key: Comparable {
        private let chunks: [Chunk]
        private let scalars: [UInt32]

        init(_ name: String) {
            scalars = name.unicodeScalars.map(\.value)
            chunks = Self.split(Array(name.lowercased().unicodeScalars).map(\.value))
        }

        static func < (lhs: Key, rhs: Key) -> Bool {
            for (a, b) in zip(lhs.chunks, rhs.chunks) where a != b { return a < b }
            if lhs.chunks.count != rhs.chunks.count { return lhs.chunks.count < rhs.chunks.count }
            return lhs.scalars.lexicographicallyPrecedes(rhs.scalars)
        }

        static func == (lhs: Key, rhs: Key) -> Bool { lhs.scalars == rhs.scalars }

        private static func split(_ scalars: [UInt32]) -> [Chunk] {
            var chunks: [Chunk] = []
            var start = 0
            while start < scalars.count {
                let digits = isDigit(scalars[start])
                var end = start
                while end < scalars.count, isDigit(scalars[end]) == digits { end += 1 }
                let run = Array(scalars[start..<end])
                chunks.append(digits ? .number(Array(run.drop { $0 == 0x30 })) : .text(run))
                start = end
            }
            return chunks
        }

        private static func isDigit(_ scalar: UInt32) -> Bool { (0x30...0x39).contains(scalar) }
    }

    /// Numbers sort before text; numbers by value (digit strings without leading zeros, compared by
    /// length then digits, so 30-digit names cannot overflow); text by code point.
    private enum Chunk: Comparable {
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
}
