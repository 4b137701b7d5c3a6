/// A file proven to hold content with a given hash, as it was then: if its identity, size and time stamp
/// are unchanged, its content is too (any write changes the time stamp). Whoever owns a file can set its
/// modification time back, and a file restored from an archive gets the one the archive says; in keyed
/// mode the proof also holds the change time (`changed`), which no one but the clock sets.
struct ProvenFile: Hashable, Sendable {
    var identity: FileIdentity
    var status: FileStatus
    var hash: ContentDigest
    /// The change time (nanoseconds), in keyed mode; nil without a key.
    var changed: Int?

    init(identity: FileIdentity, status: FileStatus, hash: ContentDigest, changed: Int? = nil) {
        self.identity = identity
        self.status = status
        self.hash = hash
        self.changed = changed
    }

    init(_ file: OpenFile, hash: ContentDigest) {
        self.init(identity: file.identity, status: file.status, hash: hash)
    }
}
