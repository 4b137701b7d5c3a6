extension ArgumentScanner {
    /// The value of a setting's flag, as given, read into `configuration` (a usage error when the setting does
    /// not take it).
    mutating func setting(_ setting: Setting, into configuration: inout SiteConfiguration) throws -> String {
        // A switch (`--zip`) is on when named, or as its attached value says (`--zip=false`).
        var text = setting.flag?.value.isEmpty == true ? attachedValue() ?? "true" : try value()
        // A switch that turns its setting off: `--no-keyword-pages` (`=false` turns it on).
        if setting.negated { text = ["true": "false", "false": "true"][text] ?? text }
        do {
            try setting.apply(argument: text, to: &configuration)
        } catch {
            throw UsageError(error.message, command: command)
        }
        return text
    }

    /// A finite decimal number greater than `bound` and at most `limit`.
    mutating func number(above bound: Double, atMost limit: Double) throws -> Double {
        let value = try decimal()
        guard value > bound else { throw UsageError("\(option) must be greater than \(bound.readable), got \(value.readable)", command: command) }
        return try checked(value, atMost: limit)
    }

    private func checked(_ value: Double, atMost limit: Double) throws -> Double {
        guard value <= limit else { throw UsageError("\(option) must be at most \(limit.readable), got \(value.readable)", command: command) }
        return value
    }

    private mutating func decimal() throws -> Double {
        let text = try value()
        guard let value = Double(text), value.isFinite else {
            throw UsageError("\(option) needs a number (got '\(text)')", command: command)
        }
        return value
    }
}
