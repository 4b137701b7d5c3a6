/// How much a theme may ask of a build. A theme folder may come from anyone (a pull request in CI), so
/// every way a template could crash the build or exhaust it is bounded here, generously for real themes;
/// passing a limit is a `TemplateError`. The README's "Themes" section states them.
struct TemplateLimits: Sendable {
    /// Sections within sections in one template. Checked while parsing, before the tree is built, so
    /// no tree is deeper than this (freeing one recurses once per level).
    var sectionDepth = 100
    /// Partials within partials, while rendering.
    var partialDepth = 100
    /// Sections and partials open at once while rendering, counted across partials. The renderer keeps
    /// them on a stack of its own (its thread's stack use does not grow with nesting); this bounds that
    /// stack and the contexts a name is looked up in. A partial rendering a tree 100 deep uses about 300.
    var renderDepth = 1000
    /// The size of one rendered page. A gallery page of 10,000 tiles is 10 to 15 MB.
    var pageBytes = 64 << 20
    /// The work of rendering one page: each text run, tag and section item is a step, and so is each
    /// context a name is looked up in. With the default theme a gallery page of 10,000 tiles takes about
    /// 350,000 steps, and a page at the size limit about 4 million; this stops a theme whose partials
    /// include each other exponentially without writing anything within seconds.
    var renderSteps = 20_000_000
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

    /// `20,000,000`: a count in groups of three digits.
    static func count(_ number: Int) -> String {
        var digits = String(number.magnitude)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return number < 0 ? "-" + digits : digits
    }
}
