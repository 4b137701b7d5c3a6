/// A photo's mean colour (its tile's pixels, weighted by alpha): what a tile shows while its image loads.
public struct AverageColor: Sendable, Equatable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#rrggbb`, as CSS and the cache write it.
    public var hex: String {
        // Byte by byte into a small string (no allocation): every tile and photo page of a rebuild asks.
        func digit(_ value: UInt8) -> UInt8 { value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10 }
        return String(unsafeUninitializedCapacity: 7) { text in
            text[0] = UInt8(ascii: "#")
            text[1] = digit(red >> 4)
            text[2] = digit(red & 0xF)
            text[3] = digit(green >> 4)
            text[4] = digit(green & 0xF)
            text[5] = digit(blue >> 4)
            text[6] = digit(blue & 0xF)
            return 7
        }
    }

    /// From `#rrggbb` (the cache's spelling); nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"),
              let value = UInt32(String(decoding: digits[1...], as: UTF8.self), radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }
}
