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
