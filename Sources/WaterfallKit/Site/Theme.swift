#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A theme folder: `page.mustache` and its partials, and `assets/`, copied to the site as they are.
struct Theme: Sendable {
    struct Error: Swift.Error, CustomStringConvertible {
        var description: String
    }

    let folder: String

    /// The theme given with `--templates`, else the default theme: installed beside the binary
    /// (`PREFIX/share/waterfall/Templates` for `PREFIX/bin/waterfall`), or the source tree's `Templates`
    /// when run from a build folder.
    static func locate(explicit: String?) throws(Error) -> Theme {
        if let explicit {
            guard FileIdentity(path: SiteWriter.join(explicit, "page.mustache")) != nil else {
                throw Error(description: "\(explicit): not a theme folder (no page.mustache)")
            }
            return Theme(folder: explicit)
        }
        let binary = executableFolder()
        var candidates = [SiteWriter.join(binary, "../share/waterfall/Templates")]
        var folder = binary
        for _ in 0..<6 {
            candidates.append(SiteWriter.join(folder, "Templates"))
            folder = SiteWriter.join(folder, "..")
        }
        guard let found = candidates.first(where: { FileIdentity(path: SiteWriter.join($0, "page.mustache")) != nil }) else {
            throw Error(description: "the default theme is missing (looked in \(candidates[0]) and above \(binary)); "
                + "reinstall, or pass --templates DIR")
        }
        return Theme(folder: found)
    }

    /// Files under `assets/`, as (source path, path in the site), in a stable order.
    func assets() -> [(source: String, path: String)] {
        let root = SiteWriter.join(folder, "assets")
        guard FolderWalker.isDirectory(root) else { return [] }
        return FolderWalker().files(under: root).compactMap { entry in
            guard case .file(let path) = entry else { return nil }
            return (path, "assets/" + path.dropFirst(root.count + 1))
        }
    }

    private static func executableFolder() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = length > 0
            ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }
}
