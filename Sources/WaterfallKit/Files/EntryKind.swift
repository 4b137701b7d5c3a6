#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// What a folder entry is, not following links.
enum EntryKind: Sendable, Equatable {
    case file, folder, link, other

    init(_ mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .file
        case S_IFDIR: self = .folder
        case S_IFLNK: self = .link
        default: self = .other
        }
    }

    /// From readdir's d_type; nil when the file system does not say.
    init?(directoryType type: UInt8) {
        switch Int32(type) {
        case Int32(DT_REG): self = .file
        case Int32(DT_DIR): self = .folder
        case Int32(DT_LNK): self = .link
        case Int32(DT_UNKNOWN): return nil
        default: self = .other
        }
    }
}
