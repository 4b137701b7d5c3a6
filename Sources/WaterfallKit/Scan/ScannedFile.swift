/// A photo or video the scan found: where it is, its size and time stamp as the scan saw them, what its
/// sidecar files say, and the cache's entry when that holds for it unchanged. Nothing of it has been read yet.
struct ScannedFile: Sendable {
    /// The file's path (for opening, relative to the input, and for messages).
    var source: String
    /// Its path relative to the input folder (`Trips/Rome/IMG_2.jpg`): unique, and the cache's key.
    var name: String
    var status: FileStatus
    /// Its device and inode as the scan saw them: two names of one file (a link inside the input, a hard
    /// link) have one identity.
    var identity: FileIdentity
    /// Each sidecar's reading (`NAME.txt` and the others beside it), read by the scan.
    var sidecars: [PhotoMetadata] = []
    /// The cache's entry, when the file has the size and time stamp it records: its header and facts hold.
    var cached: CachedEntry? = nil

    /// Its metadata: the sidecars' and what its own bytes say, merged.
    func metadata(with facts: PhotoFacts) -> PhotoMetadata {
        .merged(sidecars + [facts.metadata])
    }
}
