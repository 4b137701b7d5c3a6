#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The files `serve` may answer with: those inside the output folder, reached one component at a time and
/// never through a symbolic link, leaving out every name that starts with a dot (`.waterfall`, the build's
/// own state) and anything that is not a regular file or folder.
struct SiteFiles: Sendable {
    /// The output folder, opened for each request: a site removed and built again is served as it is now.
    let rootPath: String

    /// What a request's path names.
    enum Found {
        case file(OpenFile, name: String)
        /// A folder asked for without its trailing slash: the same path with one, so its page's relative
        /// links resolve.
        case folder(redirect: String)
    }

    /// The file for a request path (`/Trip/photos/a%20b.jpg.html`; a folder's is its `index.html`), or the
    /// refusal to answer.
    func find(_ path: Substring) -> Result<Found, HTTPRefusal> {
        guard let components = Self.components(path) else { return .failure(HTTPRefusal(status: 400, reason: "a malformed path")) }
        guard !components.contains(where: { $0.first == UInt8(ascii: ".") }) else { return .failure(Self.notFound) }
        guard var folder = try? FolderHandle.open(rootPath, create: false) else {
            return .failure(HTTPRefusal(status: 503, reason: "the site is not there yet (its first build failed?)"))
        }
        for (index, component) in components.enumerated() {
            guard let info = folder.status(bytes: component) else { return .failure(Self.notFound) }
            let kind = info.st_mode & S_IFMT
            let last = index == components.count - 1
            if kind == S_IFDIR {
                guard let next = try? folder.folder(bytes: component) else { return .failure(Self.notFound) }
                folder = next
                // (One leading slash only: `//name/` would be another host's address.)
                if last && !path.hasSuffix("/") { return .success(.folder(redirect: "/" + path.drop { $0 == "/" } + "/")) }
            } else if kind == S_IFREG && last {
                guard let file = try? folder.openFile(bytes: component) else { return .failure(Self.notFound) }
                return .success(.file(file, name: String(decoding: component, as: UTF8.self)))
            } else {
                return .failure(Self.notFound)
            }
        }
        guard let index = try? folder.openFile("index.html") else { return .failure(Self.notFound) }
        return .success(.file(index, name: "index.html"))
    }

    static let notFound = HTTPRefusal(status: 404, reason: "not found")

    /// The path's components, percent-decoded; nil when one cannot be a file name (a `/` or NUL decoded
    /// inside it, a bad escape) or is `.` or `..`.
    static func components(_ path: Substring) -> [[UInt8]]? {
        var result: [[UInt8]] = []
        for raw in path.utf8.split(separator: UInt8(ascii: "/")) {
            guard let decoded = percentDecoded(raw), !decoded.contains(0), !decoded.contains(UInt8(ascii: "/")),
                  decoded != [UInt8(ascii: ".")], decoded != [UInt8(ascii: "."), UInt8(ascii: ".")] else { return nil }
            result.append(decoded)
        }
        return result
    }

    private static func percentDecoded(_ bytes: Substring.UTF8View.SubSequence) -> [UInt8]? {
        var out: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let high = bytes.index(after: index)
                guard high < bytes.endIndex, bytes.index(after: high) < bytes.endIndex,
                      let h = hexValue(bytes[high]), let l = hexValue(bytes[bytes.index(after: high)]) else { return nil }
                out.append(h << 4 | l)
                index = bytes.index(high, offsetBy: 2)
            } else {
                out.append(byte)
                index = bytes.index(after: index)
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
