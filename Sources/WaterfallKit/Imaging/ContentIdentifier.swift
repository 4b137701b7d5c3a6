/// Apple's content identifier as a Live Photo's still (MakerNote 0x0011) and clip
/// (`com.apple.quicktime.content.identifier`) carry it: a UUID in practice. Taken only when it is
/// plausible, so a damaged or planted value cannot pair what it likes or fill the cache: 1 to 64 bytes of
/// ASCII letters, digits, `-`, `_`, `.` and `:` (a trailing NUL dropped). Compared case-insensitively, so
/// it is kept in capitals.
enum ContentIdentifier {
    static let maxBytes = 64

    static func clean<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        var kept = Array(bytes)
        while kept.last == 0 { kept.removeLast() }
        guard (1...maxBytes).contains(kept.count), kept.allSatisfy(isAllowed) else { return nil }
        return String(decoding: kept, as: UTF8.self).uppercased()
    }

    static func clean(_ text: String) -> String? { clean(Array(text.utf8)) }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"): true
        default: false
        }
    }
}
