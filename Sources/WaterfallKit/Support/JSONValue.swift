/// A JSON document with keys kept in the order written, so output is stable and reads naturally.
enum JSONValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    /// A number JSON can write but this program cannot hold: a whole number beyond `Int`
    /// (99999999999999999999) or one beyond any finite `Double` (1e400). Kept as written, so a
    /// message can quote it; never read as infinity or rounded.
    case bigNumber(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered() == rhs.rendered() }

    /// Compact JSON text.
    func rendered() -> String {
        var output = Output()
        write(to: &output)
        return output.text
    }

    /// An array with one element per line: readable, and still one line per record for grep.
    func renderedOnePerLine() -> String {
        guard case .array(let elements) = self, !elements.isEmpty else { return rendered() + "\n" }
        var output = Output()
        output.bytes.reserveCapacity(elements.count * 160)
        output.append("[\n")
        for (index, element) in elements.enumerated() {
            output.append(index == 0 ? "  " : ",\n  ")
            element.write(to: &output)
        }
        output.append("\n]\n")
        return output.text
    }

    /// UTF-8 bytes, appended in place: large reports are written without intermediate strings.
    private struct Output {
        var bytes: [UInt8] = []
        var text: String { String(decoding: bytes, as: UTF8.self) }
        mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
        mutating func append(_ byte: UInt8) { bytes.append(byte) }
    }

    private func write(to output: inout Output) {
        switch self {
        case .string(let value): Self.writeString(value, to: &output)
        case .int(let value): output.append(String(value))
        case .double(let value): output.append(Self.format(value))
        case .bigNumber(let text): output.append(text)
        case .bool(let value): output.append(value ? "true" : "false")
        case .null: output.append("null")
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(", ") }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output.append(", ") }
                Self.writeString(key, to: &output)
                output.append(": ")
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Shortest text that reads back as the same Double; integers without a fraction. JSON has no NaN.
    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    private static func writeString(_ value: String, to output: inout Output) {
        output.append(UInt8(ascii: "\""))
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
            output.append(value)  // the common case: nothing to escape, copied whole
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append("\\\"")
            case UInt8(ascii: "\\"): output.append("\\\\")
            case UInt8(ascii: "\n"): output.append("\\n")
            case UInt8(ascii: "\r"): output.append("\\r")
            case UInt8(ascii: "\t"): output.append("\\t")
            case 0..<0x20, 0x7F:
                let hex = String(byte, radix: 16)
                output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: output.append(byte)  // UTF-8 passes through whole
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
