import CImageIO

/// What a file's XMP and IPTC say, from the records list CImageIO fills in the decoder process
/// (`wf_metadata.records`, cimageio.h): one `PhotoMetadata` reading per source, and a line for each source
/// that was refused or cut (`its XMP is not used: a DOCTYPE (entity declarations are refused)`).
struct MetadataRecords: Sendable, Equatable {
    var xmp: PhotoMetadata?
    var iptc: PhotoMetadata?
    /// One line each, for the user: the photo is published all the same.
    var warnings: [String] = []

    /// The records of a photo's own bytes (`xmp` as the XMP's source), or of an XMP sidecar (`.xmpSidecar`,
    /// its warnings naming it as `xmpName`).
    init(_ bytes: [UInt8], truncated: Bool, xmp xmpSource: MetadataSource = .xmp, xmpName: String = "XMP") {
        var fields: [UInt8: [UInt8: [String]]] = [:]
        var at = 0
        let header = MemoryLayout<wf_metadata_record>.size
        while bytes.count - at >= header {
            let source = bytes[at], field = bytes[at + 1]
            let length = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
            guard length <= bytes.count - at - header else { break }
            let text = String(decoding: bytes[(at + header)..<(at + header + length)], as: UTF8.self)
            fields[source, default: [:]][field, default: []].append(text)
            at += header + length
        }
        let sources: [(UInt8, MetadataSource, String)] = [(UInt8(WF_RECORD_XMP.rawValue), xmpSource, xmpName),
                                                           (UInt8(WF_RECORD_IPTC.rawValue), .iptc, "IPTC")]
        for (code, source, name) in sources {
            guard let found = fields[code] else { continue }
            if let refusal = found[UInt8(WF_RECORD_REFUSED.rawValue)]?.first {
                warnings.append("its \(name) is not used: \(refusal)")
                continue
            }
            warnings += found[UInt8(WF_RECORD_NOTE.rawValue)] ?? []
            let reading = Self.reading(found, source: source)
            if source == .iptc { iptc = reading } else { xmp = reading }
        }
        if truncated { warnings.append("some of its XMP or IPTC did not fit and is not used") }
    }

    /// All the readings there are, for `PhotoMetadata.merged`.
    var readings: [PhotoMetadata] { [xmp, iptc].compactMap { $0 } }

    private static func reading(_ found: [UInt8: [String]], source: MetadataSource) -> PhotoMetadata {
        func all(_ field: wf_record_field) -> [String] {
            (found[UInt8(field.rawValue)] ?? []).compactMap { ExifText.clean($0) }
        }
        func one(_ field: wf_record_field) -> String? { all(field).first }
        let creators = all(WF_RECORD_CREATOR)
        return PhotoMetadata(source, title: one(WF_RECORD_TITLE), description: one(WF_RECORD_DESCRIPTION),
                             keywords: all(WF_RECORD_KEYWORD), rating: one(WF_RECORD_RATING).flatMap(Self.rating),
                             creator: creators.isEmpty ? nil : creators.joined(separator: ", "), rights: one(WF_RECORD_RIGHTS),
                             taken: one(WF_RECORD_DATE).flatMap(Self.taken))
    }

    /// XMP's `xmp:Rating` is a Real: "4", "4.0", "-1".
    static func rating(_ text: String) -> Int? {
        guard let value = Double(text), value.isFinite, value >= -1, value <= 5 else { return nil }
        return Int(value.rounded())
    }

    /// XMP's ISO 8601 ("2021-06-01T10:20:30", with seconds, a fraction and a zone optional, or only the
    /// day) and IIM's "20190203 040506+0000" (or only "20190203"), as a calendar date and time: a zone is
    /// not applied, as EXIF's date is shown as the camera's clock read. A missing time is midnight.
    static func taken(_ text: String) -> PhotoMetadata.Taken? {
        let digits = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= digits.count, digits[range].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return digits[range].reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        let iso = digits.count >= 10 && digits[4] == UInt8(ascii: "-")
        let date = iso ? (number(0..<4), number(5..<7), number(8..<10)) : (number(0..<4), number(4..<6), number(6..<8))
        guard let year = date.0, let month = date.1, let day = date.2 else { return nil }
        var clock = (0, 0, 0)
        if iso, digits.count >= 16, digits[10] == UInt8(ascii: "T") {
            clock = (number(11..<13) ?? 99, number(14..<16) ?? 99, digits.count >= 19 && digits[16] == UInt8(ascii: ":") ? number(17..<19) ?? 99 : 0)
        } else if !iso, digits.count >= 15 {
            clock = (number(9..<11) ?? 99, number(11..<13) ?? 99, number(13..<15) ?? 99)
        }
        let exif = String(format4(year)) + ":" + two(month) + ":" + two(day) + " " + two(clock.0) + ":" + two(clock.1) + ":" + two(clock.2)
        guard let parsed = ExifDateTime(exif: exif) else { return nil }
        return PhotoMetadata.Taken(text: parsed.description, number: ((year * 100 + month) * 100 + day) * 1_000_000
                                       + clock.0 * 10_000 + clock.1 * 100 + clock.2)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value % 100) }
    private static func format4(_ value: Int) -> String { String(repeating: "0", count: max(0, 4 - String(value).count)) + String(value) }
}
