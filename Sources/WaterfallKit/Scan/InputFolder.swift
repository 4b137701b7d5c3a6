import CImageIO
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The input folder, open: every photo, caption and settings file of the gallery is opened relative to it, once,
/// never through a symbolic link (a link the walk allowed is resolved to where it leads, inside the input, and
/// that path is opened without following anything), and checked to be a regular file. So a file swapped for a
/// link during the build is refused, never read through.
struct InputFolder: Sendable {
    let path: String
    let handle: FolderHandle
    let links: LinkPolicy

    /// The folder the user named (links on the way to it are followed: they chose it); `label` names it in
    /// messages ("the input", "the folder").
    init(path: String, label: String = "the input", followsAllLinks: Bool) throws(FileSystemError) {
        self.path = path
        handle = try FolderHandle.open(path, create: false)
        links = LinkPolicy(root: path, label: label, followsAll: followsAllLinks)
    }

    /// The file at `path`, a path under this folder (as the walk found it).
    func open(_ path: String) throws(FileSystemError) -> OpenFile {
        if links.followsAll { return try OpenFile.open(path) }
        let relative = String(path.dropFirst(FolderPath.join(self.path, "").count))
        var descriptor = wf_open_beneath(handle.descriptor, relative)
        if descriptor < 0 && (errno == ELOOP || errno == EXDEV) {
            // A link on the way, which the walk allowed: where it leads now, if the rules still allow that.
            if let refusal = links.refusal(forLinkAt: path) { throw FileSystemError(path, refusal) }
            guard let real = RealPath.of(path), RealPath.isWithin(real, links.root) else {
                throw FileSystemError(path, "changed during the build (it leads elsewhere now); it is read again next time")
            }
            // The real path's bytes below the input's own, as a C string.
            let below = real == links.root ? Array(".".utf8) : Array(real.dropFirst(links.root == Array("/".utf8) ? 1 : links.root.count + 1))
            descriptor = (below + [0]).withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { wf_open_beneath(handle.descriptor, $0.baseAddress!) }
            }
        }
        guard descriptor >= 0 else {
            if errno == ELOOP || errno == EXDEV {
                throw FileSystemError(path, "changed during the build (a link appeared on the way); it is read again next time")
            }
            throw OpenFile.openError(path, errno)
        }
        return try OpenFile(descriptor: descriptor, path: path)
    }
}
