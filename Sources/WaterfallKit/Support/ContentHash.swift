/// The content hash as Waterfall writes it: 32 hex digits.
enum ContentHash {
    static func hex(_ hash: (UInt64, UInt64)) -> String { hex([hash.0, hash.1]) }

    static func hex(_ value: UInt64) -> String { hex(CollectionOfOne(value)) }

    /// Each word as 16 lower-case hex digits, written straight into one string: a rebuild names some
    /// 200,000 cache files by their digests.
    private static func hex<Words: Collection<UInt64>>(_ words: Words) -> String {
        String(unsafeUninitializedCapacity: 16 * words.count) { text in
            var offset = 0
            for word in words {
                for shift in stride(from: 60, through: 0, by: -4) {
                    let digit = UInt8(truncatingIfNeeded: word >> UInt64(shift)) & 0xF
                    text[offset] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                    offset += 1
                }
            }
            return offset
        }
    }
}
