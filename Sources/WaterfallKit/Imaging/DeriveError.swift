/// Why a derived image could not be made. `description` is the one-line reason shown after the file name.
public struct DeriveError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The same kinds as `ImageReadError`: the source itself is the problem.
        case io, directory, empty, unsupported, truncated, corrupt, tooLarge
        /// A decoder limit (scans, memory) was reached, or memory ran out.
        case limit
        /// The encoder could not make the output.
        case encode
        /// A file could not be written (the cache's, the output's): the storage's problem, not the photo's, so
        /// it stops a build.
        case write
        /// The request makes no sense (no box, a quality outside 1–100).
        case invalidRequest
    }

    public var kind: Kind
    public var reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// A header failure keeps its kind and its words.
    public init(_ error: ImageReadError) {
        self.init(Kind(rawValue: error.kind.rawValue) ?? .corrupt, error.reason)
    }

    public var description: String { reason }
}
