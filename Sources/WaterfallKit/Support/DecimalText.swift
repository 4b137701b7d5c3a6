/// Fixed-point text for numbers written into CSS: never an exponent, trailing zeros dropped, the same
/// digits on every platform (so the output is byte-identical from build to build). Any finite value can be
/// written: one too large for `decimals` places in an `Int64` gets fewer places, and one beyond `Int64`
/// itself its shortest digits followed by zeros.
enum DecimalText {
    static func format(_ value: Double, decimals: Int) -> String {
        precondition((0...9).contains(decimals) && value.isFinite)
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * Double(scale)).rounded()
        guard abs(rounded) < 0x1p63 else {
            return decimals > 0 ? format(value, decimals: decimals - 1) : wholeDigits(value)
        }
        let scaled = Int64(rounded)
        if scaled == 0 { return "0" }
        let magnitude = scaled.magnitude
        var text = (scaled < 0 ? "-" : "") + String(magnitude / UInt64(scale))
        let fraction = magnitude % UInt64(scale)
        if fraction == 0 { return text }
        var digits = String(fraction)
        digits = String(repeating: "0", count: decimals - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        text += "." + digits
        return text
    }

    /// A whole value of 2⁶³ or more, as Swift's shortest round-trip digits ("1.25e+20") written out
    /// ("125000000000000000000").
    private static func wholeDigits(_ value: Double) -> String {
        let parts = String(value.magnitude).split(separator: "e")
        let mantissa = parts[0].split(separator: ".")
        let exponent = parts.count > 1 ? Int(parts[1].filter { $0 != "+" }) ?? 0 : 0
        var digits = String(mantissa[0]) + (mantissa.count > 1 ? String(mantissa[1]) : "")
        let wholeCount = mantissa[0].count + exponent
        if digits.count < wholeCount { digits += String(repeating: "0", count: wholeCount - digits.count) }
        return (value < 0 ? "-" : "") + digits.prefix(max(1, wholeCount))
    }
}
