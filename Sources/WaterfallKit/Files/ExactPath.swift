/// A path compared byte for byte. Swift's String equality is canonical equivalence, under which the NFC
/// and NFD spellings of one name are equal; on disk they are two files, so keys that stand for files use
/// this instead (and share the String's storage, where a byte array would be a copy).
struct ExactPath: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: ExactPath, rhs: ExactPath) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
