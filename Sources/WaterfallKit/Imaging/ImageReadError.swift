/// Why a file's header could not be used. `description` is the one-line reason shown after the file name.
public struct ImageReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case io, directory, empty, unsupported, truncated, corrupt, tooLarge
    }

    public var kind: Kind
    public var reason: String
    /// The file is a video (its first bytes say so): the image readers refuse it, `VideoProbe` reads it.
    public var isVideo = false

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }
}
