/// Turns the bytes of an EXIF ASCII value or a PNG text chunk into one line of plain text for a page.
///
/// Decoding: UTF-8 when the bytes are valid UTF-8 (what current cameras and tools write, whatever the
/// format says), else Windows-1252, the web's reading of "Latin-1" (what older Windows software wrote;
/// it differs from ISO 8859-1 only in 0x80–0x9F, which ISO 8859-1 spends on control characters). Either
/// way every byte gives a character, so nothing is ever lost to an error.
///
/// Cleaning: the value ends at its first NUL (C strings, NUL padding); tabs and line breaks become spaces;
/// every other control character, the bidirectional overrides and isolates (which can make a caption
/// display in another order than it reads) and byte-order marks are removed; runs of spaces become one
/// and the ends are trimmed. Markup is left as it is: escaping is the page's job.
enum ExifText {
    /// Make, Model, LensModel and the date fields: names, never prose.
    static let nameLimit = 256
    /// ImageDescription and PNG Description/Title: a caption of a few sentences fits easily.
    static let captionLimit = 4096

    /// Plain text from `bytes`, or nil when nothing printable is left. `truncated` says the value went on
    /// past these bytes, so a UTF-8 sequence cut at the end is dropped rather than read as Windows-1252.
    static func decode(_ bytes: ArraySlice<UInt8>, truncated: Bool = false) -> String? {
        let value = bytes.prefix { $0 != 0 }
        let wasCut = truncated && value.count == bytes.count
        return clean(utf8(value, cut: wasCut) ?? windows1252(value))
    }

    static func clean(_ text: String) -> String? {
        if let plain = alreadyClean(text) { return plain }
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isSpace(scalar) {
                pendingSpace = !scalars.isEmpty
                continue
            }
            if isRemoved(scalar) { continue }
            if pendingSpace {
                scalars.append(" ")
                pendingSpace = false
            }
            scalars.append(scalar)
        }
        return scalars.isEmpty ? nil : String(scalars)
    }

    /// The text less the plain spaces at its ends, when that is all `clean` would do (most values: no scalar is
    /// then copied); nil when there is more to do, or nothing left.
    private static func alreadyClean(_ text: String) -> String? {
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { $0 != 0x20 }), let last = bytes.lastIndex(where: { $0 != 0x20 }) else { return nil }
        let inner = text[first...last]
        guard isCleanASCII(inner) || isClean(inner) else { return nil }
        return first == bytes.startIndex && bytes.index(after: last) == bytes.endIndex ? text : String(inner)
    }

    /// Whether the text is printable ASCII already as `clean` leaves it (single spaces, none at the ends).
    private static func isCleanASCII(_ text: Substring) -> Bool {
        var afterSpace = true  // (a leading space is not clean)
        for byte in text.utf8 {
            if byte == 0x20 {
                if afterSpace { return false }
                afterSpace = true
            } else if byte > 0x20 && byte < 0x7F {
                afterSpace = false
            } else {
                return false
            }
        }
        return !afterSpace  // (nor is a trailing one, or nothing at all)
    }

    /// The same for any text: nothing to remove, single plain spaces, none at the ends (a walk, no copy).
    private static func isClean(_ text: Substring) -> Bool {
        var afterSpace = true
        for scalar in text.unicodeScalars {
            if isSpace(scalar) {
                if afterSpace || scalar != " " { return false }
                afterSpace = true
            } else if isRemoved(scalar) {
                return false
            } else {
                afterSpace = false
            }
        }
        return !afterSpace
    }

    private static func utf8(_ bytes: ArraySlice<UInt8>, cut: Bool) -> String? {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        guard cut else { return nil }
        // A sequence is at most 4 bytes, so at most 3 of one can be left at the end.
        for drop in 1...3 where drop < bytes.count {
            if let text = String(validating: bytes.dropLast(drop), as: UTF8.self) { return text }
        }
        return nil
    }

    private static func windows1252(_ bytes: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            let value = (0x80...0x9F).contains(byte) ? windows1252High[Int(byte) - 0x80] : UInt32(byte)
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    /// 0x80–0x9F in Windows-1252 (WHATWG's table); the five unassigned bytes stay C1 controls, so they go.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20, 0x09...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    private static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true                   // control characters
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true // bidirectional controls
        case 0xFEFF: true                                      // byte-order mark
        default: false
        }
    }
}
