/// File names as people can read them in a one-line message: control characters (a newline, an escape)
/// and bytes that are not UTF-8 are written as escapes, so a hostile name cannot break a message into
/// two lines or drive the terminal.
enum PathText {
    /// `a\nb.jpg` for a name holding a newline.
    static func display(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            shown += needsEscape(scalar) ? escape(scalar) : String(scalar)
        }
        return shown
    }

    /// A name read from the file system as bytes: valid UTF-8 as text, every other byte as `\xFF`.
    static func display(bytes: [UInt8]) -> String {
        var shown = ""
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length == 0 {
                shown += "\\x" + hex(bytes[index])
                index += 1
            } else {
                shown += display(String(decoding: bytes[index..<index + length], as: UTF8.self))
                index += length
            }
        }
        return shown
    }

    /// The bytes as a String when they are valid UTF-8 (nil otherwise: such a name cannot be carried
    /// through the site without losing bytes).
    static func text(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: scalar.value <= 0xFF ? "\\x" + hex(UInt8(scalar.value)) : "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or 0 when the byte there starts none.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        return String(validating: bytes[index..<index + length], as: UTF8.self) == nil ? 0 : length
    }
}
