/// A JSON document with keys kept in the order written, so output is stable and reads naturally.
enum JSONValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered() == rhs.rendered() }

    /// Compact JSON text.
    func rendered() -> String {
        var text = ""
        write(to: &text)
        return text
    }

    /// An array with one element per line: readable, and still one line per record for grep.
    func renderedOnePerLine() -> String {
        guard case .array(let elements) = self, !elements.isEmpty else { return rendered() + "\n" }
        return "[\n" + elements.map { "  " + $0.rendered() }.joined(separator: ",\n") + "\n]\n"
    }

    private func write(to text: inout String) {
        switch self {
        case .string(let value): Self.writeString(value, to: &text)
        case .int(let value): text += String(value)
        case .double(let value): text += Self.format(value)
        case .bool(let value): text += value ? "true" : "false"
        case .null: text += "null"
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += ", " }
                element.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { text += ", " }
                Self.writeString(key, to: &text)
                text += ": "
                value.write(to: &text)
            }
            text += "}"
        }
    }

    /// Shortest text that reads back as the same Double; integers without a fraction. JSON has no NaN.
    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
