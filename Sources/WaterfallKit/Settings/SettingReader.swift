/// Reads a setting's value, from a settings file or the command line alike, into the type the setting
/// holds, or says in one line why it cannot: one set of rules and words for both.
struct SettingReader: Sendable {
    /// How a setting, or a part of one (`formats[1]`, `bands[0].columns`), is named in messages.
    let name: @Sendable (String) -> String

    /// Names as a settings file does: `'maxCrop'`.
    static let file = SettingReader { "'\($0)'" }

    /// Names as the command line does: by the flag, whatever part is meant.
    static func flag(_ flag: String) -> SettingReader { SettingReader { _ in flag } }

    func string(_ value: SettingValue, _ key: String) throws(SettingProblem) -> String {
        switch value {
        case .argument(let text): return text
        case .json(.string(let text)): return text
        case .json: throw fail(key, "must be a string (got \(kind(value)))")
        }
    }

    func bool(_ value: SettingValue, _ key: String) throws(SettingProblem) -> Bool {
        switch value {
        case .json(.bool(let flag)): return flag
        case .argument("true"): return true
        case .argument("false"): return false
        default: throw fail(key, "must be true or false (got \(kind(value)))")
        }
    }

    /// A number in `range`, its bounds written with `unit` (" px").
    func number(_ value: SettingValue, _ key: String, in range: ClosedRange<Double>, unit: String = "") throws(SettingProblem) -> Double {
        guard let number = numeric(value) else { throw fail(key, "must be a number (got \(kind(value)))") }
        guard range.contains(number) else {
            throw fail(key, "must be between \(range.lowerBound.readable) and \(range.upperBound.readable)\(unit) (got \(text(of: value)))")
        }
        return number
    }

    /// A length in CSS px; spacing and insets unless another range is given.
    func length(_ value: SettingValue, _ key: String, in range: ClosedRange<Double> = SettingLimits.spacing) throws(SettingProblem) -> Double {
        try number(value, key, in: range, unit: " px")
    }

    /// A whole number in `range`; `1e3` counts as whole, `2.5` does not.
    func integer(_ value: SettingValue, _ key: String, in range: ClosedRange<Int>) throws(SettingProblem) -> Int {
        guard let number = numeric(value), number == number.rounded(.towardZero) else {
            throw fail(key, "must be a whole number (got \(kind(value)))")
        }
        guard Double(range.lowerBound) <= number, number <= Double(range.upperBound) else {
            throw fail(key, "must be between \(range.lowerBound) and \(range.upperBound) (got \(text(of: value)))")
        }
        return Int(number)
    }

    /// One of `choices`, by name.
    func choice<Choice>(_ value: SettingValue, _ key: String, _ choices: [(name: String, value: Choice)]) throws(SettingProblem) -> Choice {
        let name = try string(value, key)
        if let found = choices.first(where: { $0.name == name }) { return found.value }
        let names = choices.map { "'\($0.name)'" }
        throw fail(key, "must be \(names.dropLast().joined(separator: ", ")) or \(names.last!) (got '\(name)')")
    }

    /// A list: a JSON array, or the flag's text split at commas.
    func list(_ value: SettingValue, _ key: String, problem: String) throws(SettingProblem) -> [SettingValue] {
        switch value {
        case .json(.array(let elements)) where !elements.isEmpty: return elements.map { .json($0) }
        case .argument(let text) where !text.isEmpty:
            return text.split(separator: ",", omittingEmptySubsequences: false).map { .argument(String($0)) }
        default: throw fail(key, problem)
        }
    }

    func fail(_ key: String, _ message: String) -> SettingProblem { SettingProblem(message: "\(name(key)) \(message)") }

    /// The value as a Double, nil when it is not a number. A number too large to hold is ±infinity here:
    /// outside every range, so it is refused, with its text quoted.
    func numeric(_ value: SettingValue) -> Double? {
        switch value {
        case .json(.int(let number)): Double(number)
        case .json(.double(let number)): number
        case .json(.bigNumber(let text)): text.hasPrefix("-") ? -.infinity : .infinity
        case .argument(let text): Double(text.filter { $0 != "_" }).flatMap { $0.isNaN ? nil : $0 }
        case .json: nil
        }
    }

    /// A number as the message quotes it: whole numbers without ".0", the rest as Swift writes them; a
    /// flag's text as given.
    private func text(of value: SettingValue) -> String {
        switch value {
        case .argument(let text): return text
        case .json(.int(let number)): return String(number)
        case .json(.double(let number)) where number == 0: return number.sign == .minus ? "-0" : "0"
        case .json(.double(let number)) where number == number.rounded() && abs(number) < 1e15: return String(Int(number))
        case .json(.double(let number)): return String(number)
        case .json(.bigNumber(let text)): return text
        case .json(let other): return other.rendered()
        }
    }

    private func kind(_ value: SettingValue) -> String {
        switch value {
        case .argument(let text): "'\(text)'"
        case .json(.string(let text)): "the string \"\(text)\""
        case .json(.int), .json(.double), .json(.bigNumber): "a number"
        case .json(.bool(let flag)): "\(flag)"
        case .json(.null): "null"
        case .json(.array): "a list"
        case .json(.object): "an object"
        }
    }
}
