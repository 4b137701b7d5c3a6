/// Fixed-point text for numbers written into CSS: never an exponent, trailing zeros dropped, the same
/// digits on every platform (so the output is byte-identical from build to build).
enum DecimalText {
    static func format(_ value: Double, decimals: Int) -> String {
        precondition((0...9).contains(decimals) && value.isFinite)
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((value * Double(scale)).rounded())
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
}
