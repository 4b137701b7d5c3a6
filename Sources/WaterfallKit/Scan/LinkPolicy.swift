#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Where symbolic links may lead: inside one folder (the input, or the theme), unless the user allows
/// every link (`--follow-symlinks`), for people who link photo folders in on purpose. Real paths are
/// compared as bytes (`RealPath`): a folder beside the input whose name differs only in bytes that are not
/// UTF-8 is outside it.
struct LinkPolicy: Sendable {
    /// The real path of the folder links must stay inside.
    let root: [UInt8]
    let followsAll: Bool
    /// "the input", "the theme": for the message.
    let label: String

    init(root: String, label: String, followsAll: Bool) {
        self.root = RealPath.of(root) ?? RealPath.resolved(root)
        self.label = label
        self.followsAll = followsAll
    }

    /// nil when the link at `path` may be followed; else why not, naming where it points.
    func refusal(forLinkAt path: String) -> String? {
        guard let real = RealPath.of(path) else { return "broken symbolic link (to \(Self.target(of: path)))" }
        if followsAll { return nil }
        guard RealPath.isWithin(real, root) else {
            return "symbolic link to \(Self.target(of: path)), outside \(label) (--follow-symlinks allows it)"
        }
        // Hidden files and folders are never the gallery's (`.git/config` holds a CI token): a link does not
        // make them so.
        if RealPath.isHidden(real, under: root) {
            return "symbolic link to \(Self.target(of: path)), a hidden file or folder (--follow-symlinks allows it)"
        }
        return nil
    }

    /// What a link says it points to, for messages.
    static func target(of link: String) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let length = buffer.withUnsafeMutableBytes { readlink(link, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        guard length > 0 else { return "?" }
        return PathText.display(bytes: Array(buffer[..<length]))
    }
}
