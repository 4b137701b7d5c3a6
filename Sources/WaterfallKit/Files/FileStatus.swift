#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A file's size and modification time (nanoseconds): what says a cached fact about it still holds.
struct FileStatus: Hashable, Sendable {
    let size: Int
    let modified: Int

    init(size: Int, modified: Int) {
        self.size = size
        self.modified = modified
    }

    init(_ info: stat) {
        size = Int(info.st_size)
        #if canImport(Glibc)
        modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        #else
        modified = Int(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int(info.st_mtimespec.tv_nsec)
        #endif
    }

    /// Following symbolic links.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }
}
