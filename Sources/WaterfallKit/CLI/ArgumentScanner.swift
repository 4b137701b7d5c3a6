/// A small getopt: `--name value`, `--name=value`, `-n value`, flags, positionals, and `--` to end options.
/// Arguments are bytes, as the system hands them over: a positional argument, or the value `path()` takes,
/// keeps them all (`PathArgument`); any other value is read as text.
struct ArgumentScanner {
    enum Argument: Equatable {
        case option(String)
        /// Every command's positional arguments are paths.
        case positional(PathArgument)
    }

    private var remaining: ArraySlice<[UInt8]>
    private var pendingValue: [UInt8]?
    private var optionsEnded = false
    let command: String

    init(_ arguments: [[UInt8]], command: String) {
        remaining = arguments[...]
        self.command = command
    }

    init(_ arguments: [String], command: String) {
        self.init(arguments.map { Array($0.utf8) }, command: command)
    }

    /// The next option (with its dashes, e.g. `--json`) or positional argument.
    mutating func next() throws -> Argument? {
        if let value = pendingValue {
            throw UsageError("option does not take a value: \(option)=\(Self.text(value))", command: command)
        }
        guard let argument = remaining.popFirst() else { return nil }
        let dash = UInt8(ascii: "-")
        if optionsEnded || argument == [dash] || argument.first != dash { return .positional(PathArgument(bytes: argument)) }
        if argument == [dash, dash] {
            optionsEnded = true
            return try next()
        }
        if argument.starts(with: [dash, dash]), let equals = argument.firstIndex(of: UInt8(ascii: "=")) {
            option = Self.text(argument[..<equals])
            pendingValue = Array(argument[(equals + 1)...])
            return .option(option)
        }
        option = Self.text(argument)
        return .option(option)
    }

    /// The option `next()` returned last, for messages.
    private(set) var option = ""

    /// The value of the option just returned by `next()`, as text (a byte that is not UTF-8 reads as U+FFFD).
    mutating func value() throws -> String { Self.text(try rawValue()) }

    /// The value given with the option just returned by `next()` as `--name=value`, if it was.
    mutating func attachedValue() -> String? {
        defer { pendingValue = nil }
        return pendingValue.map(Self.text)
    }

    /// The value of the option just returned by `next()`, a path: every byte kept.
    mutating func path() throws -> PathArgument { PathArgument(bytes: try rawValue()) }

    private mutating func rawValue() throws -> [UInt8] {
        if let value = pendingValue {
            pendingValue = nil
            return value
        }
        guard let value = remaining.popFirst() else {
            throw UsageError("option \(option) needs a value", command: command)
        }
        return value
    }

    private static func text<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String { String(decoding: bytes, as: UTF8.self) }

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
        let help = WaterfallCLI.help(of: command) ?? ""
        let suggestion = Suggestion.nearest(to: option, among: Self.options(in: help))
        return UsageError("unknown option \(option)" + (suggestion.map { "; did you mean \($0)?" } ?? ""), command: command)
    }

    /// The options a help text lists (`--output`, `-o`): the one list of what a command takes.
    static func options(in help: String) -> [String] {
        var found: [String] = []
        for word in help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "[" || $0 == "]" || $0 == "," || $0 == "|" }) {
            let option = word.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            guard option.hasPrefix("-"), option.count >= 2, option.dropFirst().first?.isLetter == true || option.hasPrefix("--"),
                  !found.contains(String(option)) else { continue }
            found.append(String(option))
        }
        return found
    }
}
