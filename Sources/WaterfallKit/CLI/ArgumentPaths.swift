import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Paths from the command line, made into paths the rest of the program can use: Strings.
///
/// A path that is UTF-8 is itself. One that is not cannot be a String without losing bytes
/// (`CommandLine.arguments` turns each stray byte into U+FFFD, which names another file: `-o out\xFE` wrote
/// into `out\xEF\xBF\xBD`). So the path up to its last component that is not UTF-8 is opened by its bytes,
/// following links as any path the user gives (made first, as folders, when the command writes there and it
/// is missing), and reached through `/proc/self/fd/N` for as long as this lives; the rest of the path is
/// text. Every check on such a path still holds, as it works on real paths compared as bytes
/// (`RealPath`). Messages show the path as the user gave it, escaped as the scan shows names (`in\xFF`):
/// `shown` puts it back into any text.
///
/// Folders made this way that are still empty when this ends (a build refused before it wrote anything)
/// are removed again, each only if it is still the folder that was made.
final class ArgumentPaths: Sendable {
    /// A path reached through a descriptor: `/proc/self/fd/N`, and what it shows as.
    private struct Opened {
        var descriptor: Int32
        var text: String
        var shown: String
    }

    /// A folder made for a path: its parent's descriptor (held), its name, and what it was when made.
    private struct Made {
        var parent: Int32
        var name: [UInt8]
        var identity: FileIdentity
    }

    private let state = Mutex<(opened: [Opened], made: [Made])>(([], []))

    init() {}

    deinit {
        state.withLock { state in
            for made in state.made.reversed() {
                var info = stat()
                if FolderHandle.withCString(made.name, { fstatat(made.parent, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0,
                   EntryKind(info.st_mode) == .folder, FileIdentity(info) == made.identity {
                    _ = FolderHandle.withCString(made.name) { unlinkat(made.parent, $0, AT_REMOVEDIR) }  // only when empty
                }
                close(made.parent)
            }
            for opened in state.opened { close(opened.descriptor) }
        }
    }

    /// A String path that reaches exactly the file or folder `path` names. With `creating`, the folders of a
    /// path that is not UTF-8 are made when missing (a path that is UTF-8 is left for the command to make).
    func usable(_ path: PathArgument, creating: Bool = false) throws(FileSystemError) -> String {
        if let text = path.text { return text }
        guard access("/proc/self/fd", X_OK) == 0 else {
            throw FileSystemError(path.shown, "is not UTF-8, and without /proc/self/fd this system cannot be handed such a path")
        }
        let slash = UInt8(ascii: "/")
        let components = path.bytes.split(separator: slash, omittingEmptySubsequences: false).map(Array.init)
        let last = components.lastIndex { PathText.text($0) == nil }!
        let head = Array(components[...last].joined(separator: [slash]))
        let tail = String(decoding: Array(components[(last + 1)...].joined(separator: [slash])), as: UTF8.self)
        var descriptor = Self.descriptor(of: head)
        if descriptor < 0 && errno == ENOENT && creating {
            descriptor = try make(Array(components[...last]))
        }
        guard descriptor >= 0 else { throw FileSystemError.system(PathText.display(bytes: head), "cannot open") }
        let text = "/proc/self/fd/\(descriptor)"
        state.withLock { $0.opened.append(Opened(descriptor: descriptor, text: text, shown: PathText.display(bytes: head))) }
        return tail.isEmpty ? text : text + "/" + tail
    }

    /// `text` with every path this made shown as the user gave it.
    func shown(_ text: String) -> String {
        let opened = state.withLock { $0.opened }
        guard !opened.isEmpty else { return text }
        var text = text
        for path in opened { text = Self.replacing(path.text, with: path.shown, in: text) }
        return text
    }

    /// `text` with `prefix` replaced wherever it stands as a whole (`/proc/self/fd/5`, not the start of
    /// `/proc/self/fd/57`).
    private static func replacing(_ prefix: String, with replacement: String, in text: String) -> String {
        let bytes = Array(text.utf8), key = Array(prefix.utf8)
        guard bytes.count >= key.count else { return text }
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: key), index + key.count == bytes.count || !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + key.count]) {
                result += replacement.utf8
                index += key.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// A descriptor for what is at `path` (bytes), following links; O_PATH on Linux: nothing is read, and
    /// opening a device or a FIFO this way does nothing to it.
    private static func descriptor(of path: [UInt8]) -> Int32 {
        #if os(Linux)
        let flags = 0o10_000_000 | O_CLOEXEC  // O_PATH, which Glibc's Swift module does not export
        #else
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
        #endif
        return OpenFile.retrying { FolderHandle.withCString(path) { open($0, Int32(flags), 0) } }
    }

    /// Makes the folders of `components` (a path split at `/`) that are missing, from the deepest that
    /// exists, each relative to the one before it; returns a descriptor of the last.
    private func make(_ components: [[UInt8]]) throws(FileSystemError) -> Int32 {
        let slash = UInt8(ascii: "/")
        let absolute = components.first?.isEmpty == true && components.count > 1
        var existing = components.count
        var folder: Int32 = -1
        while folder < 0 {
            existing -= 1
            guard existing >= (absolute ? 1 : 0) else { break }
            let path = Array(components[..<existing].joined(separator: [slash]))
            let base = path.isEmpty ? Array((absolute ? "/" : ".").utf8) : path
            folder = OpenFile.retrying { FolderHandle.withCString(base) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) } }
        }
        guard folder >= 0 else { throw FileSystemError.system(PathText.display(bytes: Array(components.joined(separator: [slash]))), "cannot open") }
        for index in existing..<components.count {
            let name = components[index]
            if name.isEmpty || name == [UInt8(ascii: ".")] { continue }
            let shown = PathText.display(bytes: Array(components[...index].joined(separator: [slash])))
            let madeHere = FolderHandle.withCString(name) { mkdirat(folder, $0, 0o755) } == 0
            guard madeHere || errno == EEXIST else {
                let error = FileSystemError.system(shown, "cannot create folder")
                close(folder)
                throw error
            }
            let next = OpenFile.retrying { FolderHandle.withCString(name) { openat(folder, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } }
            guard next >= 0 else {
                let error = FileSystemError.system(shown, "cannot open folder")
                close(folder)
                throw error
            }
            var info = stat()
            if madeHere, fstat(next, &info) == 0 {
                let parent = fcntl(folder, F_DUPFD_CLOEXEC, 0)
                if parent >= 0 { state.withLock { $0.made.append(Made(parent: parent, name: name, identity: FileIdentity(info))) } }
            }
            close(folder)
            folder = next
        }
        return folder
    }
}
