/// Hands out the file names of one folder of the site. Each claim gets the name it asks for when that
/// is free; otherwise (a reserved name such as `index.html`, or a name another file took first) the
/// same name with `~` and eight hex digits of a digest of what claims it (its path in the input), so the
/// result is stable from build to build. Names are compared as a case-insensitive, normalising file
/// system (macOS, Windows) would compare them, so the site copies anywhere; and none is longer than a
/// file system holds (long names are shortened and always tagged).
struct NameAllocator {
    private var taken: Set<String> = []
    private let isReserved: (String) -> Bool

    init(reserving isReserved: @escaping (String) -> Bool = { _ in false }) {
        self.isReserved = isReserved
    }

    /// A free name `stem + ext` (or `stem~TAG + ext`): `ext` is kept whole (`.jpg.html`), the stem is what
    /// gives way. `identity` decides the tag.
    mutating func claim(stem: String, ext: String, identity: String) -> String {
        let plain = stem + ext
        if plain.utf8.count <= SitePath.maximumNameBytes, take(plain) { return plain }
        // Only what gives way pays for a tag.
        let tag = "~" + String(BuildCache.digest(identity).prefix(8))
        let tagged = Self.shortened(stem, toFit: tag + ext) + tag + ext
        if take(tagged) { return tagged }
        var number = 2
        while true {
            let counted = tag + "-\(number)"
            let candidate = Self.shortened(stem, toFit: counted + ext) + counted + ext
            if take(candidate) { return candidate }
            number += 1
        }
    }

    /// A file name split for `claim`: `IMG_1.jpg` is (`IMG_1`, `.jpg`); a name without a short extension
    /// is all stem.
    static func split(_ fileName: String) -> (stem: String, ext: String) {
        guard let dot = fileName.lastIndex(ofASCII: "."), dot != fileName.startIndex else { return (fileName, "") }
        let ext = fileName[dot...]
        // By bytes when ASCII (each byte a character): every photo's name is split.
        let fits = ext.utf8.allSatisfy { $0 < 0x80 } ? ext.utf8.count > 1 && !ext.utf8.contains(UInt8(ascii: " ")) : ext.count > 1 && !ext.contains(" ")
        guard fits, ext.utf8.count <= 16 else { return (fileName, "") }
        return (String(fileName[..<dot]), String(ext))
    }

    private mutating func take(_ name: String) -> Bool {
        let folded = Self.fold(name)
        guard !isReserved(folded), !taken.contains(folded) else { return false }
        taken.insert(folded)
        return true
    }

    /// A name as a case-insensitive file system compares it: upper then lower case, which folds more pairs
    /// than lowercasing alone (`ς` and `σ`, `ß` and `ss`). Swift compares Strings by canonical equivalence,
    /// so the NFC and NFD spellings of one name compare equal too.
    static func fold(_ name: String) -> String {
        // ASCII, the common case, folds byte by byte; anything else through Unicode's case mappings.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            // Nothing to fold: the same string (no copy: a site has hundreds of thousands of paths).
            guard name.utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return name }
            // Straight into the string (a small one, not allocated, up to 15 bytes): no array of bytes first.
            let count = name.utf8.count
            return String(unsafeUninitializedCapacity: count) { folded in
                for (offset, byte) in name.utf8.enumerated() { folded[offset] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
                return count
            }
        }
        return name.uppercased().lowercased()
    }

    /// The stem cut (at a character boundary) so that it and `tail` fit in a file name.
    private static func shortened(_ stem: String, toFit tail: String) -> String {
        let room = SitePath.maximumNameBytes - tail.utf8.count
        guard stem.utf8.count > room else { return stem }
        var cut = ""
        for character in stem {
            guard cut.utf8.count + character.utf8.count <= room else { break }
            cut.append(character)
        }
        return cut
    }
}
