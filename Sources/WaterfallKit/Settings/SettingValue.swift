/// A value given for a setting: a member of `waterfall.json`, or a command-line flag's text.
enum SettingValue: Sendable, Equatable {
    case json(JSONValue)
    case argument(String)
}

/// Why a value cannot be a setting's, in one line that names the setting as its source does (`'maxCrop'`
/// in a settings file, `--max-crop` on the command line).
struct SettingProblem: Error, Equatable, CustomStringConvertible {
    var message: String

    var description: String { message }
}
