/// A build that could not be done at all; `description` is one line.
public struct BuildError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// What was skipped before the build stopped (for reports: a --strict failure lists them).
    public var skipped: [(path: String, reason: String)] = []
    public init(_ description: String, skipped: [(path: String, reason: String)] = []) {
        self.description = description
        self.skipped = skipped
    }
}
