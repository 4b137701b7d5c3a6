#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Writes a site into its output folder, and only there.
///
/// - Every file is written to a temporary file in `.waterfall/tmp` and renamed into place, so a reader
///   never sees half a file. A file whose bytes are already there is left alone (its time stamp too).
/// - Published files (derived images from the cache, originals) are hard-linked when on the same file
///   system, copied otherwise.
/// - `.waterfall/manifest` lists every file Waterfall wrote. The next build removes those it no longer
///   produces, and refuses to overwrite any file the manifest does not list: a file Waterfall did not
///   write is never replaced or deleted. Before anything is written, the manifest is widened to cover
///   the new files too, so a build that is killed half way leaves nothing unaccounted for.
struct SiteWriter {
    struct Error: Swift.Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): \(reason)" }
    }

    let output: String
    private let previous: Set<String>
    private var planned: Set<String> = []
    private var written: [String] = []
    private var temporaryCount = 0

    static let stateFolder = ".waterfall"
    static let manifestPath = ".waterfall/manifest"
    private static let temporaryFolder = ".waterfall/tmp"

    /// Prepares `output` for writing `files` (relative paths): creates it, reads the manifest of the last
    /// build, refuses foreign files in the way, and records the widened manifest.
    init(output: String, files: [String]) throws(Error) {
        self.output = output
        try Self.makeFolder(output)
        previous = Self.readManifest(in: output)
        planned = Set(files)
        try Self.removeTree(Self.join(output, Self.temporaryFolder))
        try Self.makeFolder(Self.join(output, Self.temporaryFolder))
        for file in files.sorted() where !previous.contains(file) && Self.exists(Self.join(output, file)) {
            throw Error(path: Self.join(output, file),
                        reason: "exists and was not written by Waterfall; move it away or choose another output folder")
        }
        try writeManifest(previous.union(planned))
    }

    /// Writes `bytes` to `path` (relative to the output folder).
    mutating func write(_ bytes: [UInt8], to path: String) throws(Error) {
        precondition(planned.contains(path), "\(path) was not announced to SiteWriter")
        let destination = Self.join(output, path)
        written.append(path)
        if Self.contents(of: destination) == bytes { return }
        let temporary = try temporaryPath()
        try Self.writeFile(bytes, to: temporary)
        try install(temporary, at: destination)
    }

    mutating func write(_ text: String, to path: String) throws(Error) {
        try write(Array(text.utf8), to: path)
    }

    /// Publishes the photo at `source` as `path`: a hard link where possible (unless `copy`), else a copy.
    mutating func publish(photo source: String, as path: String, copy: Bool = false) throws(Error) {
        precondition(planned.contains(path), "\(path) was not announced to SiteWriter")
        let destination = Self.join(output, path)
        written.append(path)
        let linked = FileIdentity(path: destination).map { $0 == FileIdentity(path: source) } ?? false
        if linked && !copy { return }
        if copy && !linked, let existing = Self.contents(of: destination), existing == Self.contents(of: source) { return }
        let temporary = try temporaryPath()
        if copy || link(source, temporary) != 0 {
            try Self.copyFile(source, to: temporary)
        }
        try install(temporary, at: destination)
    }

    /// Removes what the last build wrote and this one did not, and records the final manifest.
    /// Returns the removed paths.
    @discardableResult
    mutating func finish() throws(Error) -> [String] {
        let current = Set(written)
        var removed: [String] = []
        for path in previous.subtracting(current).sorted() where Self.isSafeRelativePath(path) {
            let full = Self.join(output, path)
            if unlink(full) == 0 {
                removed.append(path)
                Self.removeEmptyParents(of: path, in: output)
            }
        }
        try writeManifest(current)
        try Self.removeTree(Self.join(output, Self.temporaryFolder))
        return removed
    }

    // MARK: - Files

    private mutating func temporaryPath() throws(Error) -> String {
        temporaryCount += 1
        return Self.join(output, "\(Self.temporaryFolder)/\(getpid())-\(temporaryCount)")
    }

    private func install(_ temporary: String, at destination: String) throws(Error) {
        try Self.makeFolder(Self.parent(of: destination))
        guard rename(temporary, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Error(path: destination, reason: "cannot write: \(reason)")
        }
    }

    private func writeManifest(_ paths: Set<String>) throws(Error) {
        let text = paths.sorted().joined(separator: "\n") + (paths.isEmpty ? "" : "\n")
        let manifest = Self.join(output, Self.manifestPath)
        let temporary = manifest + ".tmp"
        try Self.writeFile(Array(text.utf8), to: temporary)
        guard rename(temporary, manifest) == 0 else {
            throw Error(path: manifest, reason: "cannot write: \(String(cString: strerror(errno)))")
        }
    }

    private static func readManifest(in output: String) -> Set<String> {
        guard let bytes = contents(of: join(output, manifestPath)) else { return [] }
        return Set(String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter(isSafeRelativePath))
    }

    /// A manifest line that stays inside the output folder: relative, no `..`, no empty segments.
    static func isSafeRelativePath(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/")
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != ".." && $0 != "." }
    }

    static func join(_ folder: String, _ path: String) -> String { FolderWalker.join(folder, path) }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func makeFolder(_ path: String) throws(Error) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw Error(path: path, reason: "exists and is not a folder") }
            return
        }
        let parent = parent(of: path)
        if parent != path, !exists(parent) { try makeFolder(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw Error(path: path, reason: "cannot create folder: \(String(cString: strerror(errno)))")
        }
    }

    private static func removeEmptyParents(of path: String, in output: String) {
        var relative = parent(of: path)
        while relative != "." && relative != "/" && !relative.isEmpty {
            guard rmdir(join(output, relative)) == 0 else { return }
            relative = parent(of: relative)
        }
    }

    /// Removes a folder Waterfall owns (`.waterfall/tmp`) with everything in it.
    private static func removeTree(_ path: String) throws(Error) {
        guard let directory = opendir(path) else { return }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        for name in names { unlink(join(path, name)) }
        rmdir(path)
    }

    static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        // Sized by fstat and read straight into place; a file that grows meanwhile is read to its end.
        var bytes = [UInt8](unsafeUninitializedCapacity: max(Int(info.st_size), 1)) { buffer, count in
            count = 0
            while count < buffer.count {
                let n = read(descriptor, buffer.baseAddress! + count, buffer.count - count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                count += n
            }
        }
        var block = [UInt8](repeating: 0, count: 4096)
        while bytes.count == Int(info.st_size) {
            let n = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes.append(contentsOf: block[..<n])
            info.st_size = off_t(bytes.count)
        }
        return bytes
    }

    static func writeFile(_ bytes: [UInt8], to path: String) throws(Error) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Error(path: path, reason: "cannot write: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Error(path: path, reason: "cannot write: \(String(cString: strerror(errno)))") }
            offset += count
        }
    }

    private static func copyFile(_ source: String, to destination: String) throws(Error) {
        guard let bytes = contents(of: source) else {
            throw Error(path: source, reason: "cannot read: \(String(cString: strerror(errno)))")
        }
        try writeFile(bytes, to: destination)
    }
}

/// write(2); the name `write` inside SiteWriter means its own method.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
