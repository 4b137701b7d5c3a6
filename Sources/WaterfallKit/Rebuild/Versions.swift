/// Waterfall's version: `--version`, the pages' generator tag, and part of every page's digest (a new
/// version renders every page again).
enum Versions {
    static let program = "0.1.0"
}
