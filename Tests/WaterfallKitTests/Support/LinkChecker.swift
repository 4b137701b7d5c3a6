import Foundation

/// Walks a built site and lists every `href`, `src` and `srcset` URL of every page that does not lead to
/// a file that exists. External links (with a scheme) and in-page anchors are not checked.
enum LinkChecker {
    static func brokenLinks(in site: String) -> [String] {
        guard let files = FileManager.default.enumerator(atPath: site) else { return ["cannot list \(site)"] }
        var broken: [String] = []
        for case let page as String in files where page.hasSuffix(".html") {
            let html = (try? String(contentsOfFile: site + "/" + page, encoding: .utf8)) ?? ""
            let folder = (page as NSString).deletingLastPathComponent
            for url in urls(in: html) {
                let target = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                if target.isEmpty || target.contains(":") { continue }
                guard let decoded = String(target).removingPercentEncoding else {
                    broken.append("\(page): undecodable \(url)")
                    continue
                }
                let path = ((site as NSString).appendingPathComponent(folder) as NSString).appendingPathComponent(decoded)
                let resolved = (path as NSString).standardizingPath
                if !resolved.hasPrefix((site as NSString).standardizingPath) || !FileManager.default.fileExists(atPath: resolved) {
                    broken.append("\(page): \(url)")
                }
            }
        }
        return broken
    }

    /// The URLs in `href="…"`, `src="…"` and `srcset="… 500w, …"` attributes, HTML entities decoded.
    static func urls(in html: String) -> [String] {
        var found: [String] = []
        for attribute in ["href", "src", "srcset"] {
            for part in html.components(separatedBy: " \(attribute)=\"").dropFirst() {
                guard let end = part.firstIndex(of: "\"") else { continue }
                let value = String(part[..<end]).replacingOccurrences(of: "&amp;", with: "&")
                if attribute == "srcset" {
                    found += value.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) }
                } else {
                    found.append(value)
                }
            }
        }
        return found
    }
}
