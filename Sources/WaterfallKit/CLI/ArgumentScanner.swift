/// A small getopt: `--name value`, `--name=value`, `-n value`, flags, positionals, and `--` to end options.
struct ArgumentScanner {
    enum Argument: Equatable {
        case option(String)
        case positional(String)
    }

    private var remaining: ArraySlice<String>
    private var pendingValue: String?
    private var optionsEnded = false
    let command: String

    init(_ arguments: [String], command: String) {
        remaining = arguments[...]
        self.command = command
    }

    /// The next option (with its dashes, e.g. `--json`) or positional argument.
    mutating func next() throws -> Argument? {
        if let value = pendingValue {
            throw UsageError("option does not take a value: \(option)=\(value)", command: command)
        }
        guard let argument = remaining.popFirst() else { return nil }
        if optionsEnded || argument == "-" || !argument.hasPrefix("-") { return .positional(argument) }
        if argument == "--" {
            optionsEnded = true
            return try next()
        }
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            option = String(argument[..<equals])
            pendingValue = String(argument[argument.index(after: equals)...])
            return .option(option)
        }
        option = argument
        return .option(argument)
    }

    /// The option `next()` returned last, for messages.
    private(set) var option = ""

    /// The value of the option just returned by `next()`.
    mutating func value() throws -> String {
        if let value = pendingValue {
            pendingValue = nil
            return value
        }
        guard let value = remaining.popFirst() else {
            throw UsageError("option \(option) needs a value", command: command)
        }
        return value
    }

    /// The option's value as a whole number in `range`.
    mutating func integer(in range: ClosedRange<Int>) throws -> Int {
        let text = try value()
        guard let number = Int(text.filter { $0 != "_" }), range.contains(number) else {
            let bound = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "\(range.lowerBound)–\(range.upperBound)"
            throw UsageError("\(option) needs a whole number, \(bound) (got '\(text)')", command: command)
        }
        return number
    }

    func unknown(_ option: String) -> UsageError {
        UsageError("unknown option \(option)", command: command)
    }
}
