#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A file's change time (nanoseconds): moved by every write and every change of its status, and settable by
/// no one.
struct FileChange: Hashable, Sendable {
    let nanoseconds: Int

    init(_ info: stat) {
        #if canImport(Glibc)
        nanoseconds = Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec)
        #else
        nanoseconds = Int(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int(info.st_ctimespec.tv_nsec)
        #endif
    }
}
