/// A mistake in the command line: printed as one line plus a hint, exit status 64.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    /// The command whose help the hint should point at, if any.
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    var description: String { message }
}
