// FoundationEssentials: half the start-up time of all of Foundation, which matters for a CLI run per file.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

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
            writeOut: { writeAll($0, to: STDOUT_FILENO) },
            writeError: { writeAll($0, to: STDERR_FILENO) },
            errorIsTerminal: isatty(STDERR_FILENO) == 1
        )
    }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }  // a closed pipe: nothing more can be said
                offset += written
            }
        }
    }

    /// The same console, every diagnostic showing the command line's paths as they were given
    /// (`ArgumentPaths.shown`). Standard output is left as it is: it carries data (JSON among it), which
    /// each command shows the paths in itself.
    func showing(_ paths: ArgumentPaths) -> Console {
        let writeError = self.writeError
        return Console(writeOut: writeOut, writeError: { writeError(paths.shown($0)) }, errorIsTerminal: errorIsTerminal)
    }

    func out(_ text: String) { writeOut(text) }

    /// One diagnostic line, prefixed with the program's name.
    func error(_ line: String) { writeError("waterfall: \(line)\n") }
}
