/// File-name order as people expect it: `IMG_2` before `IMG_10`, case ignored. Ties under those rules
/// fall back to plain code-point order, so the order is total and every build sorts the same way.
public enum NaturalOrder {
    public static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        switch compare(lhs, rhs) {
        case .orderedAscending: true
        case .orderedDescending: false
        case .orderedSame: Array(lhs.unicodeScalars.map(\.value)).lexicographicallyPrecedes(rhs.unicodeScalars.map(\.value))
        }
    }

    enum Ordering { case orderedAscending, orderedSame, orderedDescending }

    static func compare(_ lhs: String, _ rhs: String) -> Ordering {
        var left = Chunks(lhs.lowercased().unicodeScalars)
        var right = Chunks(rhs.lowercased().unicodeScalars)
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case let (a?, b?):
                let order = compare(a, b)
                if order != .orderedSame { return order }
            }
        }
    }

    private static func compare(_ a: Chunk, _ b: Chunk) -> Ordering {
        switch (a, b) {
        case let (.number(x), .number(y)):
            // Compare digit strings without converting, so 30-digit names cannot overflow.
            let x = x.drop { $0 == "0" }, y = y.drop { $0 == "0" }
            if x.count != y.count { return x.count < y.count ? .orderedAscending : .orderedDescending }
            return order(x.map(\.value), y.map(\.value))
        case (.number, .text): return .orderedAscending
        case (.text, .number): return .orderedDescending
        case let (.text(x), .text(y)): return order(x.map(\.value), y.map(\.value))
        }
    }

    private static func order(_ x: [UInt32], _ y: [UInt32]) -> Ordering {
        if x == y { return .orderedSame }
        return x.lexicographicallyPrecedes(y) ? .orderedAscending : .orderedDescending
    }

    private enum Chunk {
        case number([Unicode.Scalar])
        case text([Unicode.Scalar])
    }

    /// Splits a name into runs of ASCII digits and runs of everything else.
    private struct Chunks {
        private let scalars: [Unicode.Scalar]
        private var position = 0

        init(_ view: String.UnicodeScalarView) { scalars = Array(view) }

        mutating func next() -> Chunk? {
            guard position < scalars.count else { return nil }
            let start = position
            let digits = Self.isDigit(scalars[position])
            while position < scalars.count, Self.isDigit(scalars[position]) == digits { position += 1 }
            let run = Array(scalars[start..<position])
            return digits ? .number(run) : .text(run)
        }

        private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    }
}
