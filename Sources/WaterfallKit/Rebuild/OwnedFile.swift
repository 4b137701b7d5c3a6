#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One file Waterfall wrote into an output folder, as its records keep it: enough to prove later that the
/// file there is still that file (same identity and time stamp, or the same content).
struct OwnedFile: Sendable, Equatable {
    /// Relative to the output folder, `/`-separated.
    var path: String
    var size: Int
    /// nil when not known (an original linked again whatever it holds now).
    var hash: ContentDigest?
    var identity: FileIdentity
    var modified: Int
    /// For a page: the digest of what it was made from (`SitePages.Page.inputs`), so an unchanged page with
    /// the same inputs need not be rendered again.
    var inputs: ContentDigest? = nil
    /// In keyed mode, the file's change time (nanoseconds): unlike the modification time, no one can set it
    /// (any write, rename, link or change of time stamps moves it to now, and a restored file gets the
    /// time of the restore), so the same identity and times prove the same file. nil without a key.
    var changed: Int? = nil

    var proven: ProvenFile? {
        hash.map { ProvenFile(identity: identity, status: FileStatus(size: size, modified: modified), hash: $0, changed: changed) }
    }

    /// The record of a file as it is now (`info` from lstat or fstat), holding content with `hash`; with its
    /// change time when `keyed`.
    init(path: String, info: stat, hash: ContentDigest?, keyed: Bool = false) {
        self.path = path
        size = Int(info.st_size)
        self.hash = hash
        identity = FileIdentity(info)
        modified = FileStatus(info).modified
        changed = keyed ? FileChange(info).nanoseconds : nil
    }

    init(path: String, size: Int, hash: ContentDigest?, identity: FileIdentity, modified: Int, inputs: ContentDigest? = nil) {
        self.path = path
        self.size = size
        self.hash = hash
        self.identity = identity
        self.modified = modified
        self.inputs = inputs
    }

    /// Whether `info` shows this very file, unchanged since it was recorded.
    func isUnchanged(_ info: stat) -> Bool {
        FileIdentity(info) == identity && Int(info.st_size) == size && FileStatus(info).modified == modified
            && (changed == nil || FileChange(info).nanoseconds == changed)
    }
}
