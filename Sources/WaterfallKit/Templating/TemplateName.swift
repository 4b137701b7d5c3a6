/// A variable or section name, split once at parse time: `a.b.c` is `["a", "b", "c"]`; `.` (the current
/// context) has no keys.
struct TemplateName: Sendable, Equatable {
    var keys: [String]

    init(_ name: String) {
        keys = name == "." ? [] : name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
}
