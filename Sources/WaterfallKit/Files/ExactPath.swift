#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A path compared byte for byte. Swift's String equality is canonical equivalence, under which the NFC
/// and NFD spellings of one name are equal; on disk they are two files, so keys that stand for files use
/// this instead (and share the String's storage, where a byte array would be a copy).
struct ExactPath: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: ExactPath, rhs: ExactPath) -> Bool { compare(lhs.text, rhs.text) == 0 }

    /// Whether `a` sorts before `b` byte by byte (the order of the output's manifest).
    static func precedes(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    /// memcmp order of the UTF-8 bytes, the shorter first on a tie.
    private static func compare(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : Int(memcmp(x.baseAddress!, y.baseAddress!, common))
                return order != 0 ? order : x.count - y.count
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
