/// A build that could not be done at all; `description` is one line.
public struct BuildError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// The error it stands for when another stage raised it (a file system's, a settings file's, a theme's,
    /// the layout's), kept whole for a caller that wants more than the line.
    public var cause: (any Error)?
    /// What was skipped before the build stopped (for reports: a --strict failure lists them).
    public var skipped: [(path: String, reason: String)] = []

    public init(_ description: String, skipped: [(path: String, reason: String)] = []) {
        self.description = description
        self.skipped = skipped
    }

    /// `cause`, in its own words.
    public init(_ cause: any Error) {
        if let error = cause as? BuildError {
            self = error
        } else {
            description = "\(cause)"
            self.cause = cause
        }
    }
}
