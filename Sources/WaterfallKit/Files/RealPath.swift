#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Real paths (every link and `..` resolved) as bytes, for the checks of what the input, the output, the
/// cache, the theme and the report may be to one another. Bytes, not text: a path the user gave need not be
/// UTF-8, and a String would read `in\xFF` and `in\xFE` both as `in\u{FFFD}`, one folder; Swift's String
/// equality would also take the NFC and NFD spellings of a name, two folders on disk, for one.
enum RealPath {
    /// realpath(3) of `path`; nil when it does not exist (or cannot be resolved).
    static func of(_ path: String) -> [UInt8]? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved)))
    }

    /// The real path of `path`: of the part of it that exists, with the rest appended as making the folders
    /// would resolve it (`in/nosuch/..` is `in`: `nosuch` would be made, then left).
    static func resolved(_ path: String) -> [UInt8] {
        var existing = path
        var rest: [String] = []
        while of(existing) == nil {
            let parent = FolderPath.parent(of: existing)
            guard parent != existing else { break }
            rest.insert(FolderPath.lastComponent(of: existing), at: 0)
            existing = parent
        }
        let slash = UInt8(ascii: "/")
        var components = (of(existing) ?? Array(existing.utf8)).split(separator: slash, omittingEmptySubsequences: true).map(Array.init)
        for component in rest {
            switch component {
            case ".", "": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(Array(component.utf8))
            }
        }
        return [slash] + Array(components.joined(separator: [slash]))
    }

    /// `resolved`, then `name` (bytes, which need not be UTF-8) inside it.
    static func resolved(_ folder: String, name: [UInt8]) -> [UInt8] {
        let real = resolved(folder)
        return real == [UInt8(ascii: "/")] ? real + name : real + [UInt8(ascii: "/")] + name
    }

    /// Whether `inner` is strictly inside `outer` (both real paths).
    static func isInside(_ inner: [UInt8], _ outer: [UInt8]) -> Bool {
        let prefix = outer == [UInt8(ascii: "/")] ? outer : outer + [UInt8(ascii: "/")]
        return inner != outer && inner.starts(with: prefix)
    }

    /// Whether `inner` is `outer` or inside it.
    static func isWithin(_ inner: [UInt8], _ outer: [UInt8]) -> Bool { inner == outer || isInside(inner, outer) }

    /// Whether `inner`, inside `outer`, is under a dot-folder of it or is a dot-file (never scanned).
    static func isHidden(_ inner: [UInt8], under outer: [UInt8]) -> Bool {
        inner.dropFirst(outer.count).split(separator: UInt8(ascii: "/")).contains { $0.first == UInt8(ascii: ".") }
    }
}
