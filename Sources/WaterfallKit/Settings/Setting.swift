/// One setting of a gallery, declared once: its `waterfall.json` key, its command-line flag when it has
/// one, what it takes, its range and default, a line on what it does, whether an album's own file may set
/// it, and how a value is read into a `SiteConfiguration`. The settings file's reader, the command line's
/// flags and help, and the table in docs/configuration.md (`SettingTests` checks it) all come from
/// `Setting.all`.
struct Setting: Sendable {
    typealias Read = @Sendable (SettingReader, SettingValue, inout SiteConfiguration) throws(SettingProblem) -> Void

    var key: String
    /// What it takes, for the docs' table (Markdown): `whole number`, `"name"` or `"date"`.
    var kind: String
    /// What it does, in words for the docs and the help alike (Markdown's backticks are left out of the help).
    var about: String
    /// Its range, for the docs and the help; empty when any value of its kind will do.
    var range: String
    /// Its default, for the docs (Markdown), from a configuration made with every default.
    var defaultText: @Sendable (SiteConfiguration) -> String
    /// Its command-line flag (`--max-crop`) and the word the help writes for its value (`S`); a switch
    /// (`--zip`, a boolean turned on) has none (`""`), and takes `--zip=false` too.
    var flag: (name: String, value: String)?
    /// A switch that turns the setting off (`--no-keyword-pages`): named alone it sets `false`.
    var negated = false
    /// Whether an album's own `waterfall.json` may set it; else only the top folder's.
    var album = false
    var read: Read

    /// The setting a `waterfall.json` key names.
    static func named(_ key: String) -> Setting? { all.first { $0.key == key } }

    /// The setting a command-line flag sets.
    static func flagged(_ flag: String) -> Setting? { all.first { $0.flag?.name == flag } }

    /// Reads `value` into `configuration`, naming the setting as a settings file does.
    func apply(_ value: JSONValue, to configuration: inout SiteConfiguration) throws(SettingProblem) {
        try read(.file, .json(value), &configuration)
    }

    /// Reads the flag's `text` into `configuration`, naming the setting by its flag.
    func apply(argument text: String, to configuration: inout SiteConfiguration) throws(SettingProblem) {
        try read(.flag(flag?.name ?? key), .argument(text), &configuration)
    }

    /// The flag's lines for a command's help: `  --max-crop S   what it does, 0–0.5 (default 0.15)`.
    var helpLines: String {
        guard let flag else { return "" }
        let text = Self.plain(about + (range.isEmpty ? "" : ", \(range)") + " (default: \(defaultText(SiteConfiguration())))")
        let lead = "  \(flag.name)\(flag.value.isEmpty ? "" : " " + flag.value)".padding(toLength: 23, withPad: " ", startingAt: 0)
        return TextWrap.lines(text, width: 94 - lead.count).enumerated().map { index, line in
            (index == 0 ? lead : String(repeating: " ", count: lead.count)) + line
        }.joined(separator: "\n")
    }

    /// Markdown as plain text: no backticks or quotes, a link's words without its address.
    static func plain(_ markdown: String) -> String {
        var text = markdown.filter { $0 != "`" && $0 != "\"" }
        while let open = text.firstIndex(of: "["), let middle = text[open...].range(of: "]("),
              let close = text[middle.upperBound...].firstIndex(of: ")") {
            text = String(text[..<open]) + text[text.index(after: open)..<middle.lowerBound] + text[text.index(after: close)...]
        }
        return text
    }

    /// The row of docs/configuration.md's table.
    var tableRow: String {
        "| `\(key)` | \(flag.map { "`\($0.name)\($0.value.isEmpty ? "" : " " + $0.value)`" } ?? "") | \(about.isEmpty ? kind : "\(kind): \(about)") | \(range) | "
            + "\(defaultText(SiteConfiguration())) |"
    }

    /// A range as the docs and the help write it: `1–100`.
    static func text(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)–\(range.upperBound)" }
    static func text(_ range: ClosedRange<Double>) -> String { "\(range.lowerBound.readable)–\(range.upperBound.readable)" }
}
