import CImageIO
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A file open for reading: opened non-blocking (so a FIFO cannot hang the build) and checked to be a
/// regular file before a byte is read (a FIFO, a device or a socket is refused by name).
final class OpenFile: Sendable {
    let descriptor: Int32
    /// The path it was opened by, for messages.
    let path: String
    let size: Int
    let identity: FileIdentity
    let status: FileStatus
    let change: FileChange

    /// Opens `path`. A symbolic link at its end is followed unless `followLinks` is false (then it is
    /// refused as "is a symbolic link").
    static func open(_ path: String, followLinks: Bool = true) throws(FileSystemError) -> OpenFile {
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW)
        let descriptor = Self.retrying { systemOpen(path, flags, 0) }
        // Following links, ELOOP is a loop of them, not a link refused.
        guard descriptor >= 0 else { throw followLinks && errno == ELOOP ? .system(path, "cannot open") : Self.openError(path, errno) }
        return try OpenFile(descriptor: descriptor, path: path)
    }

    /// Takes over `descriptor` (closed on failure too).
    init(descriptor: Int32, path: String) throws(FileSystemError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = FileSystemError.system(path, "cannot read", errno)
            close(descriptor)
            throw error
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw FileSystemError(path, Self.notRegular(info.st_mode))
        }
        self.descriptor = descriptor
        self.path = path
        size = Int(info.st_size)
        identity = FileIdentity(info)
        status = FileStatus(info)
        change = FileChange(info)
    }

    deinit { close(descriptor) }

    /// The whole file; more than `limit` bytes is an error that says the limit.
    func read(limit: Int) throws(FileSystemError) -> [UInt8] {
        guard size <= limit else { throw FileSystemError(path, "larger than the \(ByteCount.text(limit)) limit") }
        return try read(upTo: size)
    }

    /// Advice only: its first `count` bytes will be read soon. Files opened together and advised so are
    /// fetched from a cold disk together, rather than one wait each when each is read.
    func willRead(upTo count: Int) {
        #if canImport(Glibc)
        _ = posix_fadvise(descriptor, 0, off_t(count), POSIX_FADV_WILLNEED)
        #endif
    }

    /// Its first `count` bytes: fewer when it is shorter, and never past the size it had when it was opened
    /// (what is there when it shrank while being read). A record's heading is read so before the rest.
    func read(upTo count: Int) throws(FileSystemError) -> [UInt8] {
        let count = min(count, size)
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw FileSystemError.system(path, "cannot read") }
            if n == 0 { break }
            done += n
        }
        if done < count { bytes.removeSubrange(done...) }
        return bytes
    }

    /// Each line of the file (without its `\n`), read in blocks: a large file is never in memory whole, nor
    /// read past the size it had when opened (a file that grows meanwhile cannot keep this going). A line
    /// longer than `maximumLineBytes` is not handed over and its bytes are not kept, so a file of zeros with
    /// no newline costs one block of memory. `body` returns false to stop. Returns how many lines were too
    /// long.
    @discardableResult
    func forEachLine(maximumLineBytes: Int = .max, _ body: (ArraySlice<UInt8>) -> Bool) throws(FileSystemError) -> Int {
        var pending: [UInt8] = []
        var overlong = 0
        /// Inside a line already too long: its bytes are dropped up to its newline.
        var skipping = false
        var block = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while offset < size {
            let n = block.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, min($0.count, size - offset), off_t(offset)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw FileSystemError.system(path, "cannot read") }
            if n == 0 { break }
            offset += n
            var start = 0
            while let newline = Self.newline(in: block, from: start, to: n) {
                defer { start = newline + 1 }
                if skipping {
                    skipping = false
                    continue
                }
                guard pending.count + (newline - start) <= maximumLineBytes else {
                    overlong += 1
                    pending.removeAll(keepingCapacity: false)
                    continue
                }
                let goOn: Bool
                if pending.isEmpty {
                    goOn = body(block[start..<newline])
                } else {
                    pending.append(contentsOf: block[start..<newline])
                    goOn = body(pending[...])
                    pending.removeAll(keepingCapacity: true)
                }
                if !goOn { return overlong }
            }
            if skipping { continue }
            if pending.count + (n - start) > maximumLineBytes {
                overlong += 1
                skipping = true
                pending.removeAll(keepingCapacity: false)
            } else {
                pending.append(contentsOf: block[start..<n])
            }
        }
        if !pending.isEmpty { _ = body(pending[...]) }
        return overlong
    }

    /// Where the next `\n` in `bytes[start..<end]` is, by memchr: a gigabyte with no newline (a sparse file)
    /// is looked through at memory speed.
    private static func newline(in bytes: [UInt8], from start: Int, to end: Int) -> Int? {
        guard start < end else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            memchr(buffer.baseAddress! + start, Int32(UInt8(ascii: "\n")), end - start).map {
                UnsafeRawPointer($0) - UnsafeRawPointer(buffer.baseAddress!)
            }
        }
    }

    /// The 128-bit content hash (not keyed: `ContentHasher` gives the build's), read from the start.
    func contentHash() throws(FileSystemError) -> String { try contentDigest().hex }

    func contentDigest() throws(FileSystemError) -> ContentDigest {
        var hash: (UInt64, UInt64) = (0, 0)
        let status = withUnsafeMutableBytes(of: &hash) { wf_hash_fd(descriptor, $0.baseAddress!.assumingMemoryBound(to: UInt64.self)) }
        guard status == 0 else { throw FileSystemError.system(path, "cannot read") }
        return ContentDigest(hash)
    }

    static func retrying(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// An open failure in the words the rest of the program uses.
    static func openError(_ path: String, _ code: Int32) -> FileSystemError {
        switch code {
        case ELOOP: FileSystemError(path, "is a symbolic link")
        case EISDIR: FileSystemError(path, "is a directory")
        case ENXIO: FileSystemError(path, "not a regular file (a FIFO or a device)")
        default: FileSystemError.system(path, "cannot open", code)
        }
    }

    /// "not a regular file (a FIFO)".
    static func notRegular(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "is a directory"
        case S_IFLNK: "is a symbolic link"
        case S_IFIFO: "not a regular file (a FIFO)"
        case S_IFSOCK: "not a regular file (a socket)"
        case S_IFCHR: "not a regular file (a character device)"
        case S_IFBLK: "not a regular file (a block device)"
        default: "not a regular file"
        }
    }
}

/// open(2); inside types with an `open` of their own the name means theirs.
func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

extension OpenFile {
    /// Whether the open file is still as it was opened: the same size, modification time and change time
    /// (which no one can set: any write moves it), so what was read from it, first byte to last, is one
    /// version of it.
    var isUnchanged: Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        return FileStatus(info) == status && FileChange(info) == change
    }
}
