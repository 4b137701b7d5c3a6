import Foundation

/// Where a command's output goes. Commands write whole reports in one call; stdout carries results and
/// stderr carries diagnostics, so `--json` output can be piped.
public struct Console: Sendable {
    public var writeOut: @Sendable (String) -> Void
    public var writeError: @Sendable (String) -> Void
    public var errorIsTerminal: Bool

    public init(writeOut: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
                errorIsTerminal: Bool = false) {
        self.writeOut = writeOut
        self.writeError = writeError
        self.errorIsTerminal = errorIsTerminal
    }

    /// The process's own standard output and error.
    public static var standard: Console {
        Console(
            writeOut: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) },
            errorIsTerminal: isatty(STDERR_FILENO) == 1
        )
    }

    func out(_ text: String) { writeOut(text) }

    /// One diagnostic line, prefixed with the program's name.
    func error(_ line: String) { writeError("waterfall: \(line)\n") }
}
