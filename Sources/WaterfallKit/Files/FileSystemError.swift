#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Something the file system refused, or a file that is not what it must be: the path and why, one line.
struct FileSystemError: Error, Sendable, CustomStringConvertible {
    var path: String
    var reason: String
    /// The errno behind it, when the system said no.
    var code: Int32?

    init(_ path: String, _ reason: String, code: Int32? = nil) {
        self.path = path
        self.reason = reason
        self.code = code
    }

    /// "cannot open: No such file or directory", from errno.
    static func system(_ path: String, _ action: String, _ code: Int32 = errno) -> FileSystemError {
        FileSystemError(path, "\(action): \(POSIXErrorText(code))", code: code)
    }

    /// The storage said no (full, over quota, failing, read-only): nothing about the file in hand, so the build
    /// stops rather than skip it.
    var isStorageFailure: Bool { code.map(Self.storageErrors.contains) ?? false }

    static let storageErrors: [Int32] = [ENOSPC, EDQUOT, EIO, EROFS, EFBIG]

    /// "PATH: REASON", or the reason alone when it names its path itself.
    var description: String { path.isEmpty ? reason : "\(PathText.display(path)): \(reason)" }
}

/// strerror's text for an errno value, as an Error.
struct POSIXErrorText: Error, Sendable, CustomStringConvertible {
    let code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
}
