/// A 64-bit FNV-1a checksum: a torn or damaged index is not read.
enum Checksum {
    static let start: UInt64 = 0xcbf2_9ce4_8422_2325

    static func of<Bytes: Collection>(_ bytes: Bytes, from value: UInt64 = start) -> UInt64 where Bytes.Element == UInt8 {
        var value = value
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return value
    }
}
