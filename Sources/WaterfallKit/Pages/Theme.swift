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
            guard FileIdentity(path: FolderPath.join(explicit, "page.mustache")) != nil else {
                throw Error(description: "\(explicit): not a theme folder (no page.mustache)")
            }
            return Theme(folder: explicit)
        }
        let binary = executableFolder()
        var candidates = [FolderPath.join(binary, "../share/waterfall/Templates")]
        var folder = binary
        for _ in 0..<6 {
            candidates.append(FolderPath.join(folder, "Templates"))
            folder = FolderPath.join(folder, "..")
        }
        guard let found = candidates.first(where: { FileIdentity(path: FolderPath.join($0, "page.mustache")) != nil }) else {
            throw Error(description: "the default theme is missing (looked in \(candidates[0]) and above \(binary)); "
                + "reinstall, or pass --templates DIR")
        }
        return Theme(folder: found)
    }

    /// Where links inside the theme may lead: inside it, unless every link is allowed.
    func links(followingAll: Bool) -> LinkPolicy {
        LinkPolicy(root: folder, label: "the theme", followsAll: followingAll)
    }

    /// An asset larger than this is refused (a theme's CSS, fonts and icons are far smaller).
    static let maximumAssetBytes = 64 << 20

    /// Files under `assets/`, as (path in the site, bytes), in a stable order. One that cannot be used (a
    /// link that leaves the theme, a FIFO, a name that is not UTF-8) is left out and reported to `warn`.
    func assets(links: LinkPolicy, warn: (String) -> Void) throws(Error) -> [(path: String, bytes: [UInt8])] {
        let root = FolderPath.join(folder, "assets")
        guard FolderWalker.isDirectory(root) else { return [] }
        var info = stat()
        if lstat(root, &info) == 0, EntryKind(info.st_mode) == .link, let refusal = links.refusal(forLinkAt: root) {
            warn("\(PathText.display(root)): skipped: \(refusal)")
            return []
        }
        var assets: [(path: String, bytes: [UInt8])] = []
        for entry in FolderWalker(links: links).files(under: root) {
            switch entry {
            case .file(let path):
                do {
                    assets.append(("assets/" + path.dropFirst(root.count + 1), try OpenFile.open(path).read(limit: Self.maximumAssetBytes)))
                } catch {
                    throw Error(description: "\(error)")
                }
            case .skipped(let path, let reason, _), .note(let path, let reason):
                warn("\(PathText.display(path)): skipped: \(reason)")
            }
        }
        return assets
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
