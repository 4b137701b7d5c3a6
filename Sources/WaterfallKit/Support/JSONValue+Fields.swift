extension JSONValue {
    /// An object's members by name (the first of a repeated name); empty for anything else.
    var members: [String: JSONValue] {
        guard case .object(let pairs) = self else { return [:] }
        return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }

    var elements: [JSONValue]? {
        guard case .array(let values) = self else { return nil }
        return values
    }

    var text: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// A whole number, also when written as a float (`90.0`).
    var number: Int? {
        switch self {
        case .int(let value): value
        case .double(let value) where value.isFinite && value.rounded() == value && abs(value) < 1e15: Int(value)
        default: nil
        }
    }
}
