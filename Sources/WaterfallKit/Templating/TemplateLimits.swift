/// How much a theme may ask of a build. A theme folder may come from anyone (a pull request in CI), so
/// every way a template could crash the build or exhaust it is bounded here, generously for real themes;
/// passing a limit is a `TemplateError`. The README's "Themes" section states them.
struct TemplateLimits: Sendable {
    /// Sections within sections in one template. Checked while parsing, before the tree is built, so
    /// no tree is deeper than this (freeing one recurses once per level).
    var sectionDepth = 100
    /// The size of one template file.
    var templateBytes = 16 << 20
    /// The length of each delimiter a set-delimiter tag chooses (the lexer searches for them).
    var delimiterBytes = 16
    /// The length of a tag's name (each lookup hashes it: a step must stay cheap).
    var nameBytes = 256

    static let standard = TemplateLimits()

    /// `64 MiB`, `16 MiB`, or bytes when not a whole number of MiB.
    static func size(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
