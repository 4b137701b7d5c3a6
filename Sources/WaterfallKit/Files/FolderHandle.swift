import CImageIO
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// An open folder. Everything done to what is inside it is relative to the open folder (`openat`,
/// `renameat`, `unlinkat`, …) and never follows a symbolic link, so a link planted inside (an output
/// restored from an archive, a poisoned cache) cannot send a write, a rename or a delete anywhere else.
final class FolderHandle: Sendable {
    let descriptor: Int32
    /// The path it was opened by: for messages, and for C code that takes paths (see `childPath`).
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// The folder at `path`, a path the user gave (links in it are followed: the user chose it), made
    /// with its parents when missing and `create` is set.
    static func open(_ path: String, create: Bool) throws(FileSystemError) -> FolderHandle {
        let descriptor = OpenFile.retrying { systemOpen(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
        if descriptor >= 0 { return FolderHandle(descriptor: descriptor, path: path) }
        let code = errno
        guard code == ENOENT, create else { throw folderError(path, code) }
        let parent = FolderPath.parent(of: path)
        guard parent != path else { throw folderError(path, code) }
        let above = try open(parent, create: true)
        return try above.folder(FolderPath.lastComponent(of: path), create: true)
    }

    /// The sub-folder `name` (one path component), never through a link; made when missing and `create`
    /// is set.
    func folder(_ name: String, create: Bool) throws(FileSystemError) -> FolderHandle {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var descriptor = OpenFile.retrying { openat(self.descriptor, name, flags) }
        if descriptor < 0 && errno == ENOENT && create {
            if mkdirat(self.descriptor, name, 0o755) != 0 && errno != EEXIST {
                throw FileSystemError.system(childPath(name), "cannot create folder")
            }
            descriptor = OpenFile.retrying { openat(self.descriptor, name, flags) }
        }
        guard descriptor >= 0 else { throw Self.folderError(display(name), errno, handle: self, name: name) }
        return FolderHandle(descriptor: descriptor, path: display(name))
    }

    /// The existing sub-folder `name` (one component that need not be UTF-8), never through a link.
    func folder(bytes name: [UInt8]) throws(FileSystemError) -> FolderHandle {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        let descriptor = OpenFile.retrying { Self.withCString(name) { openat(self.descriptor, $0, flags) } }
        guard descriptor >= 0 else { throw OpenFile.openError(display(bytes: name), errno) }
        return FolderHandle(descriptor: descriptor, path: display(bytes: name))
    }

    /// The folder at `relative` (`a/b/c`), one component at a time, each never through a link.
    func folder(path relative: String, create: Bool) throws(FileSystemError) -> FolderHandle {
        var current = self
        for component in relative.split(separator: "/") where component != "." {
            current = try current.folder(String(component), create: create)
        }
        return current
    }

    // MARK: - Looking

    /// What is at `name`, not following a link; nil when nothing is.
    func status(_ name: String) -> stat? {
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    func kind(_ name: String) -> EntryKind? { status(name).map { EntryKind($0.st_mode) } }

    /// `status` for a name that may not be UTF-8.
    func status(bytes name: [UInt8]) -> stat? {
        var info = stat()
        let found = Self.withCString(name) { fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) == 0 }
        return found ? info : nil
    }

    /// `body` with the bytes as a C string: a name need not be UTF-8.
    static func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { buffer in buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    /// The folder's entries (not `.` and `..`), names as bytes: a name need not be UTF-8.
    func list() throws(FileSystemError) -> [DirectoryEntry] {
        // A descriptor of its own, so listing never moves another reader's position.
        let own = OpenFile.retrying { openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard own >= 0 else { throw FileSystemError.system(path, "cannot list folder") }
        guard let stream = fdopendir(own) else {
            let error = FileSystemError.system(path, "cannot list folder")
            close(own)
            throw error
        }
        defer { closedir(stream) }
        var entries: [DirectoryEntry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let kind = EntryKind(directoryType: entry.pointee.d_type) ?? status(bytes: name).map { EntryKind($0.st_mode) } ?? .other
            entries.append(DirectoryEntry(name: name, kind: kind))
        }
        return entries
    }

    /// A path for C code that opens files by path: through `/proc/self/fd` where there is one, so the
    /// path is this very folder whatever has happened to the path it was opened by.
    func childPath(_ name: String) -> String {
        Self.procFolders ? "/proc/self/fd/\(descriptor)/\(name)" : FolderPath.join(path, name)
    }

    /// The path of `name` for messages.
    func display(_ name: String) -> String { FolderPath.join(path, name) }

    private static let procFolders: Bool = access("/proc/self/fd", X_OK) == 0

    // MARK: - Reading

    /// A regular file in this folder, never through a link, non-blocking.
    func openFile(_ name: String) throws(FileSystemError) -> OpenFile {
        let descriptor = OpenFile.retrying { openat(self.descriptor, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { throw OpenFile.openError(display(name), errno) }
        return try OpenFile(descriptor: descriptor, path: display(name))
    }

    /// `openFile` for a name that may not be UTF-8.
    func openFile(bytes name: [UInt8]) throws(FileSystemError) -> OpenFile {
        let descriptor = OpenFile.retrying { Self.withCString(name) { openat(self.descriptor, $0, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) } }
        guard descriptor >= 0 else { throw OpenFile.openError(display(bytes: name), errno) }
        return try OpenFile(descriptor: descriptor, path: display(bytes: name))
    }

    /// The path of a name that may not be UTF-8, for messages (escaped: `caf\xE9`).
    func display(bytes name: [UInt8]) -> String { FolderPath.join(path, PathText.display(bytes: name)) }

    // MARK: - Writing

    /// Creates `name` as a new file (never over anything already there, never through a link) holding
    /// `bytes`. On failure nothing is left behind.
    func writeNew(_ name: String, _ bytes: [UInt8]) throws(FileSystemError) {
        let file = try createNew(name)
        defer { close(file) }
        if let code = bytes.withUnsafeBytes({ BufferedWriter.writeAll($0, to: file) }) {
            unlinkat(descriptor, name, 0)
            throw FileSystemError.system(display(name), "cannot write", code)
        }
    }

    /// A new file's descriptor, for writing: O_EXCL and O_NOFOLLOW.
    func createNew(_ name: String) throws(FileSystemError) -> Int32 {
        let file = OpenFile.retrying { openat(self.descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        guard file >= 0 else { throw FileSystemError.system(display(name), "cannot create") }
        return file
    }

    /// Puts `file` into this folder as the new name `name`: a hard link to the very file that is open
    /// where the system allows it (so no path is looked up twice), else a copy of its bytes.
    func linkOrCopy(_ file: OpenFile, as name: String) throws(FileSystemError) {
        if link(file, as: name) { return }
        try copy(file, as: name)
    }

    /// A hard link to the open file, proven to be that file; false when none could be made.
    func link(_ file: OpenFile, as name: String) -> Bool {
        if linkat(AT_FDCWD, "/proc/self/fd/\(file.descriptor)", descriptor, name, AT_SYMLINK_FOLLOW) == 0 { return true }
        // Without /proc: by its path, which must turn out to be the same file (and not a link).
        guard linkat(AT_FDCWD, file.path, descriptor, name, 0) == 0 else { return false }
        if let linked = status(name), EntryKind(linked.st_mode) == .file, FileIdentity(linked) == file.identity { return true }
        unlinkat(descriptor, name, 0)
        return false
    }

    /// A new file holding the open file's bytes.
    func copy(_ file: OpenFile, as name: String) throws(FileSystemError) {
        let target = try createNew(name)
        defer { close(target) }
        var block = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let n = block.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, $0.count, offset) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                let error = FileSystemError.system(file.path, "cannot read")
                unlinkat(descriptor, name, 0)
                throw error
            }
            if n == 0 { return }
            if let code = block.withUnsafeBytes({ BufferedWriter.writeAll(UnsafeRawBufferPointer(rebasing: $0[..<n]), to: target) }) {
                unlinkat(descriptor, name, 0)
                throw FileSystemError.system(display(name), "cannot write", code)
            }
            offset += off_t(n)
        }
    }

    /// Renames `name` to `newName` in `target` (atomically replacing a file there). Links are renamed as
    /// links, never followed.
    func rename(_ name: String, to target: FolderHandle, as newName: String) throws(FileSystemError) {
        guard renameat(descriptor, name, target.descriptor, newName) == 0 else {
            throw FileSystemError.system(target.display(newName), "cannot write")
        }
    }

    /// Renames `name` to `newName` in `target` only if nothing is there (not even a link): a file that
    /// appeared there meanwhile is never replaced.
    func renameNew(_ name: String, to target: FolderHandle, as newName: String) throws(FileSystemError) {
        guard wf_rename_noreplace(descriptor, name, target.descriptor, newName) == 0 else {
            if errno == EEXIST { throw FileSystemError(target.display(newName), "appeared during the build; not replaced") }
            throw FileSystemError.system(target.display(newName), "cannot write")
        }
    }

    /// Renames `name` to the name `newName` (bytes, which need not be UTF-8) in `target`: over what is there
    /// when `replacing`, else only if nothing is there (not even a link). Links are renamed as links.
    func rename(_ name: String, to target: FolderHandle, asBytes newName: [UInt8], replacing: Bool) throws(FileSystemError) {
        let done = Self.withCString(newName) { newName in
            replacing ? renameat(descriptor, name, target.descriptor, newName) == 0 : wf_rename_noreplace(descriptor, name, target.descriptor, newName) == 0
        }
        guard done else {
            if errno == EEXIST && !replacing { throw FileSystemError(target.display(bytes: newName), "appeared meanwhile; not replaced") }
            throw FileSystemError.system(target.display(bytes: newName), "cannot write")
        }
    }

    /// Removes the file (or link) `name`; never a folder. False when it could not.
    @discardableResult
    func remove(_ name: String) -> Bool { unlinkat(descriptor, name, 0) == 0 }

    /// Removes the folder `name` when it is empty (and really a folder).
    @discardableResult
    func removeEmptyFolder(_ name: String) -> Bool { unlinkat(descriptor, name, AT_REMOVEDIR) == 0 }

    /// An exclusive lock held on the file `name` (created when missing) until the lock is released; nil
    /// when another process holds it.
    func lock(_ name: String) throws(FileSystemError) -> FileLock? {
        let file = OpenFile.retrying { openat(self.descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644) }
        guard file >= 0 else { throw OpenFile.openError(display(name), errno) }
        var info = stat()
        guard fstat(file, &info) == 0, EntryKind(info.st_mode) == .file else {
            close(file)
            throw FileSystemError(display(name), "not a regular file")
        }
        while flock(file, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(file)
            if code == EWOULDBLOCK { return nil }
            throw FileSystemError.system(display(name), "cannot lock", code)
        }
        return FileLock(descriptor: file)
    }

    private static func folderError(_ path: String, _ code: Int32, handle: FolderHandle? = nil, name: String = "") -> FileSystemError {
        switch code {
        case ELOOP: return FileSystemError(path, "is a symbolic link, not a folder")
        case ENOTDIR:
            if let handle, let kind = handle.kind(name) {
                return FileSystemError(path, kind == .link ? "is a symbolic link, not a folder" : "is a file, not a folder")
            }
            return FileSystemError(path, "is not a folder")
        default: return FileSystemError.system(path, "cannot open folder", code)
        }
    }
}
