/// Where the site will be published (`baseURL` in waterfall.json, `--base-url`): the prefix that turns the
/// site's relative paths into the absolute URLs that link previews, feeds and sitemaps require.
///
/// Only a plain absolute http(s) URL is accepted, written in ASCII: the build appends percent-encoded
/// paths to it verbatim, so a query, a fragment, credentials or an unencoded character would make every
/// URL derived from it wrong.
public struct BaseURL: Sendable, Equatable {
    /// The URL, always ending in `/`.
    public let text: String

    /// Nil when `text` is not such a URL; `problem(with:)` says why.
    public init?(_ text: String) {
        guard Self.problem(with: text) == nil else { return nil }
        let scheme = text.prefix { $0 != ":" }
        let rest = text.dropFirst(scheme.count)
        let normalised = scheme.lowercased() + rest
        self.text = normalised.hasSuffix("/") ? normalised : normalised + "/"
    }

    /// The absolute URL of a site path (`Trips/photos/a b.jpg.html`), each segment percent-encoded.
    func absolute(_ sitePath: String) -> String {
        text + URLPath.encode(path: sitePath)
    }

    /// Why `text` is not an acceptable base URL, or nil.
    static func problem(with text: String) -> String? {
        let lower = text.lowercased()
        guard let scheme = ["https://", "http://"].first(where: lower.hasPrefix) else {
            return "must start with http:// or https://"
        }
        let rest = text.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" }
        // The host is what comes before the port (an IPv6 literal keeps its colons inside brackets).
        let host = authority.hasPrefix("[") ? authority.prefix { $0 != "]" } : authority.prefix { $0 != ":" }
        guard host.contains(where: { $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return "has no host" }
        guard authority.unicodeScalars.allSatisfy(isHostCharacter) else {
            return "must have a plain host name (letters, digits, '-', '.', and an optional :port; no user name)"
        }
        let path = rest.dropFirst(authority.count)
        guard !path.contains("?"), !path.contains("#") else { return "must not have a query (?) or a fragment (#)" }
        guard path.unicodeScalars.allSatisfy(isPathCharacter) else {
            return "must be written in ASCII without spaces or quotes (percent-encode the rest)"
        }
        return nil
    }

    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-.:[]".unicodeScalars.contains(scalar))
    }

    /// RFC 3986 unreserved, sub-delims, ':', '@', '/' and '%' (for escapes already written).
    private static func isPathCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || "-._~!$&'()*+,;=:@/%".unicodeScalars.contains(scalar))
    }

    /// The refused text as a message quotes it: on one line, whatever it holds.
    static func quoted(_ text: String) -> String {
        "'" + text.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined() + "'"
    }
}
