#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The cache's folder, proven to be Waterfall's before anything in it is touched, and locked against a
/// second build. A folder is Waterfall's when it carries the marker file Waterfall writes (`CACHEDIR.TAG`,
/// the cache-directory tag backup tools know), or is a cache of Waterfall 0.1 (its `version` file says so),
/// or is empty when first used. Any other folder is refused: `--cache-dir ~/Pictures` must never let the
/// cache's housekeeping delete a photo.
struct CacheFolder: Sendable {
    static let markerName = "CACHEDIR.TAG"
    static let markerText = """
        Signature: 8a477f597d28d172789f06886806bc55
        # This folder is a cache made by Waterfall (waterfall build --cache-dir).
        # Backup tools that honour CACHEDIR.TAG skip it; Waterfall only cleans up folders that carry this file.

        """
    static let lockName = "lock"

    let root: FolderHandle
    let photos: FolderHandle
    let images: FolderHandle
    let tmp: FolderHandle
    private let lock: FileLock

    /// Claims and locks the cache in the open folder `root`.
    static func open(root: FolderHandle) throws(FileSystemError) -> CacheFolder {
        let path = root.path
        let marked = try isMarked(root)
        if !marked && !isLegacyCache(root) {
            let entries = try root.list().compactMap(\.text)
            guard entries.allSatisfy({ $0 == lockName || isUnfinishedMarker($0, in: root) }) else {
                throw FileSystemError(path, "is not empty and is not a Waterfall cache (it has no \(markerName) written by "
                    + "Waterfall); give --cache-dir a new or empty folder")
            }
        }
        guard let lock = try root.lock(lockName) else {
            throw FileSystemError("", "another build is using the cache \(PathText.display(path)); try again when it has finished")
        }
        if !marked { try writeMarker(root) }
        let tmp = try root.folder("tmp", create: true)
        clearTemporaries(tmp)
        return CacheFolder(root: root, photos: try root.folder("photos", create: true),
                           images: try root.folder("images", create: true), tmp: tmp, lock: lock)
    }

    /// Whether the folder carries Waterfall's marker (a regular file, not a link, with its text).
    private static func isMarked(_ root: FolderHandle) throws(FileSystemError) -> Bool {
        guard root.kind(markerName) != nil else { return false }
        guard let bytes = try? root.openFile(markerName).read(limit: 4096) else {
            throw FileSystemError(root.display(markerName), "is not a cache tag Waterfall wrote; give --cache-dir another folder")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix("Signature: 8a477f597d28d172789f06886806bc55"), text.contains("Waterfall") else {
            throw FileSystemError(root.path, "is another program's cache (its \(markerName) is not Waterfall's); give --cache-dir another folder")
        }
        return true
    }

    /// A Waterfall 0.1 cache: a `version` file that says `waterfall-cache-N`.
    static func isLegacyCache(_ root: FolderHandle) -> Bool {
        guard let bytes = try? root.openFile("version").read(limit: 64) else { return false }
        return bytes.starts(with: Array("waterfall-cache-".utf8))
    }

    /// A marker a build killed while claiming the folder left under its temporary name: `wf-PID-marker`, a
    /// regular file holding the start of the marker's text. It is replaced when the marker is written.
    private static func isUnfinishedMarker(_ name: String, in root: FolderHandle) -> Bool {
        guard name.hasPrefix(temporaryPrefix), name.hasSuffix(markerSuffix),
              name.dropFirst(temporaryPrefix.count).dropLast(markerSuffix.count).allSatisfy(\.isASCIIDigit),
              root.kind(name) == .file, let bytes = try? root.openFile(name).read(limit: 4096) else { return false }
        return Array(markerText.utf8).starts(with: bytes)
    }

    private static let markerSuffix = "-marker"

    private static func writeMarker(_ root: FolderHandle) throws(FileSystemError) {
        for entry in (try? root.list()) ?? [] {
            if let name = entry.text, isUnfinishedMarker(name, in: root) { root.remove(name) }
        }
        let temporary = "\(temporaryPrefix)\(getpid())\(markerSuffix)"
        root.remove(temporary)
        try root.writeNew(temporary, Array(markerText.utf8))
        try root.rename(temporary, to: root, as: markerName)
    }

    /// Temporary files are named `wf-PID-…`; what a killed build left is removed (only such names).
    static let temporaryPrefix = "wf-"

    private static func clearTemporaries(_ tmp: FolderHandle) {
        for entry in (try? tmp.list()) ?? [] {
            guard let name = entry.text, entry.kind != .folder, isTemporaryName(name) else { continue }
            tmp.remove(name)
        }
    }

    /// `wf-…`, or Waterfall 0.1's `PID-…`.
    static func isTemporaryName(_ name: String) -> Bool {
        if name.hasPrefix(temporaryPrefix) { return true }
        guard let dash = name.firstIndex(of: "-") else { return false }
        return dash != name.startIndex && name[..<dash].allSatisfy(\.isASCIIDigit)
    }
}
