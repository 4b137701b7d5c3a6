/// The data a template is rendered with: what JSON can say, with integers kept apart from doubles so that
/// `85` renders as `85` and `1.21` as `1.21`. Objects are dictionaries: templates only ever look keys up.
///
/// Falsey, for sections: `false`, `null` and the empty list, as the Mustache spec says. The empty string
/// and `0` are truthy, so leave a key out (or make it `null`) to hide a section.
public enum TemplateValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case list([TemplateValue])
    case object([String: TemplateValue])

    public var isFalsey: Bool {
        switch self {
        case .bool(false), .null: true
        case .list(let items): items.isEmpty
        default: false
        }
    }

    /// The value under `key` when this is an object; nil otherwise or when the key is missing.
    public subscript(key: String) -> TemplateValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }
}
