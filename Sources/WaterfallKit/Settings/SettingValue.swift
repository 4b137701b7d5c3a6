/// A value given for a setting: a member of `waterfall.json`, or a command-line flag's text.
enum SettingValue: Sendable, Equatable {
    case json(JSONValue)
    case argument(String)

    /// Whether it came from the command line (where lists are written `a,b`, not `["a", "b"]`).
    var isArgument: Bool {
        if case .argument = self { true } else { false }
    }
}

/// Why a value cannot be a setting's, in one line that names the setting as its source does (`'maxCrop'`
/// in a settings file, `--max-crop` on the command line).
struct SettingProblem: Error, Equatable, CustomStringConvertible {
    var message: String

    var description: String { message }
}
