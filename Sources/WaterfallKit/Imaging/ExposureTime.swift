/// How long the shutter was open, as the camera wrote it: an EXIF RATIONAL of seconds.
public struct ExposureTime: Sendable, Hashable, CustomStringConvertible {
    public var numerator: UInt32
    public var denominator: UInt32

    /// nil for 0/x (no exposure) and x/0 (no number at all).
    public init?(numerator: UInt32, denominator: UInt32) {
        guard numerator > 0, denominator > 0 else { return nil }
        self.numerator = numerator
        self.denominator = denominator
    }

    public var seconds: Double { Double(numerator) / Double(denominator) }

    /// As cameras show it: "1/250 s" for fractions (1/n exactly, or anything up to a quarter second,
    /// rounded to the nearest 1/n as ExifTool does), else seconds to one decimal: "0.3 s", "2 s", "2.5 s".
    public var description: String {
        let divisor = Self.gcd(numerator, denominator)
        let (top, bottom) = (numerator / divisor, denominator / divisor)
        if top == 1 && bottom > 1 { return "1/\(bottom) s" }
        if seconds <= 0.25 { return "1/\(Int((1 / seconds).rounded())) s" }
        return DecimalText.format(seconds, decimals: 1) + " s"
    }

    private static func gcd(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
