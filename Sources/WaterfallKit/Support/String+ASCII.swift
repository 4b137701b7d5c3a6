extension StringProtocol {
    /// `lastIndex(of:)` for an ASCII character ("/", "."): on text that is all ASCII, where every byte is a
    /// character, by bytes; otherwise by characters as before (a "/" followed by a combining mark is no
    /// "/"). The same answer, without walking grapheme clusters for each of a site's many paths.
    func lastIndex(ofASCII character: Character) -> Index? {
        guard let byte = character.asciiValue else { return lastIndex(of: character) }
        let found: Int?? = utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            var last: Int?
            for (offset, value) in bytes.enumerated() {
                if value >= 0x80 { return nil }
                if value == byte { last = offset }
            }
            return last ?? -1
        }
        guard let found, let offset = found else { return lastIndex(of: character) }
        return offset < 0 ? nil : utf8.index(utf8.startIndex, offsetBy: offset)
    }
}

extension UInt8 {
    /// The value of this byte as one hex digit (either case); nil for any other byte.
    var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
