#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The file `--report FILE` names: the user chose it, so it is replaced as asked, but as a whole (written
/// beside it under a temporary name, then renamed), never through a link planted at its name, and
/// never over something that is not a regular file.
enum ReportFile {
    static func write(_ bytes: [UInt8], to path: String) throws(FileSystemError) {
        let folder = try FolderHandle.open(FolderPath.parent(of: path), create: false)
        let name = FolderPath.lastComponent(of: path)
        if let kind = folder.kind(name), kind != .file {
            throw FileSystemError(path, kind == .link ? "is a symbolic link; not replaced" : "is not a regular file; not replaced")
        }
        let temporary = ".\(name).\(getpid()).tmp"
        try folder.writeNew(temporary, bytes)
        do {
            try folder.rename(temporary, to: folder, as: name)
        } catch {
            folder.remove(temporary)
            throw error
        }
    }
}
