/// Byte counts for messages: "64 KiB", "1 MiB", "100 bytes"; and for visitors: "4.2 MB".
enum ByteCount {
    static func text(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    /// A download's size as people read it (decimal units, as browsers and file managers show them): "840 bytes",
    /// "12 KB", "4.2 MB", "1.3 GB"; one decimal under 10 of a unit, none above.
    static func size(_ bytes: Int) -> String {
        guard bytes >= 1000 else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes) / 1000
        for unit in ["KB", "MB", "GB"] {
            let rounded = value < 9.95 ? (value * 10).rounded() / 10 : value.rounded()
            if rounded < 1000 || unit == "GB" {
                return (rounded < 10 ? DecimalText.format(rounded, decimals: 1) : String(Int(rounded))) + " " + unit
            }
            value /= 1000
        }
        return "\(bytes) bytes"
    }
}
