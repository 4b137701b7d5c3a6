/// What a build tells its observer while it works.
public enum BuildEvent: Sendable {
    /// `total` photos found, about to be looked at (their size and time stamp against the cache's).
    case reading(total: Int)
    /// One more photo looked at (or skipped).
    case read(done: Int, total: Int)
    /// A file left out, and why.
    case skipped(path: String, reason: String)
    /// Photos read and their derived images made: `done` of `total` (or skipped).
    case deriving(done: Int, total: Int)
    case writing(files: Int)
    /// An album's archive of its originals being written (`zip`): the album's folder in the input ("" for
    /// the top), its photos and what they come to.
    case zipping(album: String, photos: Int, bytes: Int)
    /// A warning that is not about one file (an empty gallery, say).
    case warning(String)
    /// Something worth knowing that is not wrong (a folder left out on purpose).
    case note(String)
}
