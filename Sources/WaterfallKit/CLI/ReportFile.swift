#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The file `--report FILE` names: the user chose it, so it is replaced as asked, but as a whole (written
/// beside it under a temporary name, then renamed), never through a link planted at its name, and
/// never over something that is not a regular file. Its name need not be UTF-8.
struct ReportFile {
    /// The folder the report goes in.
    private let parent: String
    private let name: [UInt8]
    /// For messages: the path as given, escaped.
    private let shown: String

    init(_ path: PathArgument, options: BuildOptions, paths: ArgumentPaths) throws(FileSystemError) {
        shown = path.shown
        name = path.lastComponent
        parent = try paths.usable(path.parent)
    }

    func write(_ bytes: [UInt8]) throws(FileSystemError) {
        let folder = try FolderHandle.open(parent, create: false)
        if let info = folder.status(bytes: name), EntryKind(info.st_mode) != .file {
            throw FileSystemError(shown, EntryKind(info.st_mode) == .link ? "is a symbolic link; not replaced" : "is not a regular file; not replaced")
        }
        let temporary = ".waterfall-report-\(getpid()).tmp"
        folder.remove(temporary)
        try folder.writeNew(temporary, bytes)
        do {
            try folder.rename(temporary, to: folder, asBytes: name, replacing: true)
        } catch {
            folder.remove(temporary)
            throw error
        }
    }
}
