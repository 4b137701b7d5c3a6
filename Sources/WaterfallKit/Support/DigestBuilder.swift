/// A content digest of several values, each written with its length or kind first, so that no two different
/// sequences of values give the same bytes ("ab", "c" is not "a", "bc"; nil is not "").
struct DigestBuilder {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func add(_ text: String) {
        add(text.utf8.count)
        // In one copy from the string's own bytes (a rebuild digests some 2 million strings), not byte by byte.
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil { bytes.append(contentsOf: text.utf8) }
    }

    mutating func add(_ text: String?) {
        bytes.append(text == nil ? 0 : 1)
        if let text { add(text) }
    }

    mutating func add(_ number: Int) {
        withUnsafeBytes(of: Int64(number).littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func add(_ number: Int?) {
        bytes.append(number == nil ? 0 : 1)
        if let number { add(number) }
    }

    mutating func add(_ flag: Bool) { bytes.append(flag ? 1 : 0) }

    mutating func add(_ digest: ContentDigest) {
        add(Int(bitPattern: UInt(digest.high)))
        add(Int(bitPattern: UInt(digest.low)))
    }

    var digest: ContentDigest { ContentDigest.of(bytes) }
}
