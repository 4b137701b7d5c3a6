/// A `Range: bytes=…` request against a file of a known size (RFC 9110 §14): one range, as a video
/// player seeking asks. Several ranges are answered with the whole file, as the RFC allows.
enum ByteRange: Equatable {
    /// The whole file: no Range field, one that is not bytes, or several ranges.
    case whole
    /// Bytes `lower...upper` of the file.
    case part(lower: Int, upper: Int)
    /// A range wholly past the end (416).
    case unsatisfiable

    init(field: String?, size: Int) {
        guard let field, field.hasPrefix("bytes="), !field.contains(",") else {
            self = .whole
            return
        }
        let spec = String(field.dropFirst("bytes=".count)).trimmed
        guard let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        let digits = { (text: Substring) in !text.isEmpty && text.count <= 18 && text.allSatisfy(\.isASCIIDigit) }
        if first.isEmpty {
            // The last N bytes.
            guard digits(last), let count = Int(last) else { self = .whole; return }
            self = count == 0 || size == 0 ? .unsatisfiable : .part(lower: max(0, size - count), upper: size - 1)
        } else {
            guard digits(first), let lower = Int(first), last.isEmpty || digits(last) else { self = .whole; return }
            guard lower < size else { self = .unsatisfiable; return }
            let upper = last.isEmpty ? size - 1 : Int(last) ?? size - 1
            self = upper >= lower ? .part(lower: lower, upper: min(upper, size - 1)) : .whole
        }
    }
}
