import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import WaterfallKit

/// `baseURL`: link-preview tags on every page, the Atom feed and the sitemap, through the real binary.
struct SharingTests {
    static let base = "https://example.com/gal"

    func read(_ path: String) throws -> String { String(decoding: try Fixtures.bytes(path), as: UTF8.self) }

    /// The `content` of `<meta property|name="key">`, as written (HTML-escaped).
    func meta(_ html: String, _ key: String) -> String? {
        let attribute = key.hasPrefix("twitter:") ? "name" : "property"
        guard let start = html.range(of: "<meta \(attribute)=\"\(key)\" content=\"")?.upperBound,
              let end = html[start...].firstIndex(of: "\"") else { return nil }
        return String(html[start..<end])
    }

    /// The real size of a derived image, read back by `waterfall inspect`.
    func size(of path: String) throws -> (Int, Int) {
        let run = try WaterfallProcess.run(["inspect", "--json", path])
        let entry = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [[String: Any]]
        return (entry[0]["width"] as! Int, entry[0]["height"] as! Int)
    }

    /// A site path's absolute URL, encoded here independently of the code under test.
    func absolute(_ path: String) -> String {
        Self.base + "/" + path.split(separator: "/").map {
            $0.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"))!
        }.joined(separator: "/")
    }

    /// A top photo, an album of four (three a page), a caption with markup.
    func paginatedSite() throws -> (input: TemporaryFolder, output: TemporaryFolder) {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.conformance("exif-orientation/Portrait_1.jpg"), as: "top.jpg")
        for index in 1...4 { try input.copy(Fixtures.conformance("exif-orientation/Landscape_\(index).jpg"), as: "Trip/IMG_\(index).jpg") }
        try input.write("Trip/IMG_4.txt", Array("Fourth <b>\nRain & \"wind\"".utf8))
        try input.write("waterfall.json", Array(#"{"perPage": 3, "title": "Gal", "description": "All <my> photos", "baseURL": "\#(Self.base)"}"#.utf8))
        return (input, output)
    }

    @Test func everyPageKindHasPreviewTagsWithAbsoluteURLsAndRealImageSizes() throws {
        let (input, output) = try paginatedSite()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        // (page, its og:url path, og:title, og:description, the view image shown, feed link)
        let pages: [(String, String, String?, String, String)] = [
            ("index.html", "Gal", "All &lt;my&gt; photos", "images/view/top.jpg", "feed.atom"),
            ("Trip/index.html", "Trip", nil, "Trip/images/view/IMG_1.jpg", "../feed.atom"),
            ("Trip/page-2.html", "Trip", nil, "Trip/images/view/IMG_1.jpg", "../feed.atom"),
            ("Trip/photos/IMG_4.jpg.html", "Fourth &lt;b&gt;", "Rain &amp; &quot;wind&quot;", "Trip/images/view/IMG_4.jpg", "../../feed.atom"),
            ("photos/top.jpg.html", "top", nil, "images/view/top.jpg", "../feed.atom"),
        ]
        for (page, title, description, image, feed) in pages {
            let html = try read(output.path + "/" + page)
            #expect(meta(html, "og:url") == absolute(page), "\(page)")
            #expect(meta(html, "og:title") == title, "\(page)")
            #expect(meta(html, "og:description") == description, "\(page)")
            #expect(meta(html, "og:type") == "website", "\(page)")
            #expect(meta(html, "og:site_name") == "Gal", "\(page)")
            #expect(meta(html, "og:image") == absolute(image), "\(page)")
            let (width, height) = try size(of: output.path + "/" + image)
            #expect(meta(html, "og:image:width") == String(width) && meta(html, "og:image:height") == String(height), "\(page)")
            #expect(meta(html, "og:image:alt") != nil, "\(page)")
            #expect(meta(html, "twitter:card") == "summary_large_image", "\(page)")
            #expect(html.contains(#"<link rel="alternate" type="application/atom+xml" title="Gal" href="\#(feed)">"#), "\(page)")
        }
        #expect(try size(of: output.path + "/images/view/top.jpg") == (1200, 1800))
        #expect(LinkChecker.brokenLinks(in: output.path) == [])
    }

    @Test func hostileNamesArePercentEncodedInEveryURL() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let jpeg = Fixtures.header("J01-baseline-jfif.jpg")
        // Albums named like the feed and the sitemap give way to them.
        for name in ["ü &#?/x y#1?.jpg", "ü &#?/<b>&'ñ.jpg", "100%/a\"q.jpg", "feed.atom/f.jpg", "Sitemap.XML/s.jpg"] {
            try input.copy(jpeg, as: name)
        }
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet", "--base-url", Self.base + "/"])
        #expect(run.status == 0, "\(run.stderr)")
        let photo = try read(output.path + "/ü &#?/photos/x y#1?.jpg.html")
        #expect(meta(photo, "og:url") == Self.base + "/%C3%BC%20%26%23%3F/photos/x%20y%231%3F.jpg.html")
        #expect(meta(photo, "og:image") == Self.base + "/%C3%BC%20%26%23%3F/images/view/x%20y%231%3F.jpg")
        let markup = try read(output.path + "/ü &#?/photos/<b>&'ñ.jpg.html")
        #expect(meta(markup, "og:title") == "&lt;b&gt;&amp;&#39;ñ")
        #expect(meta(markup, "og:url") == Self.base + "/%C3%BC%20%26%23%3F/photos/%3Cb%3E%26%27%C3%B1.jpg.html")
        let album = try read(output.path + "/100%/index.html")
        #expect(meta(album, "og:url") == Self.base + "/100%25/index.html")
        #expect(meta(album, "og:image") == Self.base + "/100%25/images/view/a%22q.jpg")
        #expect(try sitemap(output.path).contains(Self.base + "/100%25/photos/a%22q.jpg.html"))
        #expect(try XMLDocumentReader(data: Data(try Fixtures.bytes(output.path + "/feed.atom"))).root == "feed")
        #expect(try sitemap(output.path).filter { $0.hasSuffix("/f.jpg.html") || $0.hasSuffix("/s.jpg.html") }
            .allSatisfy { $0.contains("~") })
        #expect(LinkChecker.brokenLinks(in: output.path) == [])
    }

    /// The `<loc>`s of the sitemap, parsed by Foundation's XML parser.
    func sitemap(_ output: String) throws -> [String] {
        let document = try XMLDocumentReader(data: Data(try Fixtures.bytes(output + "/sitemap.xml")))
        #expect(document.root == "urlset")
        return document.texts(of: "loc")
    }

    @Test func sitemapListsExactlyTheSitesPages() throws {
        let (input, output) = try paginatedSite()
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "Trip/ü &#?/x y#1?.jpg")
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        let pages = try Fixtures.siteFiles(in: output.path).filter { $0.hasSuffix(".html") }
        let listed = try sitemap(output.path)
        #expect(listed.sorted() == pages.map(absolute).sorted())
        #expect(listed.count == 10)  // top: 1 + 1; Trip: 2 + 4; the album in it: 1 + 1
    }

    @Test func feedIsValidAtomOfTheNewestPhotosByDateTaken() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        // Dated: both E01s (2024-05-17 08:30:12, a tie broken by name) and E02 (2020-02-29 23:59:59).
        // Undated, after them by name: E04 (markup and a control character in its caption), E11, and a
        // JFIF whose file time is recent (not used: a checkout would change it).
        for name in ["E11-latin1-and-utf8.jpg", "E02-nikon-iso-long-2s.jpg", "E04-html-description.jpg",
                     "E01-all-facts-MM.jpg", "E01-all-facts-II.jpg"] {
            try input.copy(Fixtures.root.appendingPathComponent("exif/" + name).path, as: name.hasPrefix("E02") ? "Nikon/" + name : name)
        }
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a new.jpg")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet", "--base-url", Self.base])
        #expect(run.status == 0, "\(run.stderr)")
        let feed = try XMLDocumentReader(data: Data(try Fixtures.bytes(output.path + "/feed.atom")))
        #expect(feed.root == "feed")
        #expect(feed.namespaces.contains("http://www.w3.org/2005/Atom"))
        let pages = ["photos/E01-all-facts-II.jpg.html", "photos/E01-all-facts-MM.jpg.html", "Nikon/photos/E02-nikon-iso-long-2s.jpg.html",
                     "photos/a new.jpg.html", "photos/E04-html-description.jpg.html", "photos/E11-latin1-and-utf8.jpg.html"]
        // The feed's id, then each entry's; the feed's updated, then each entry's.
        #expect(feed.texts(of: "id") == [Self.base + "/"] + pages.map(absolute))
        #expect(feed.texts(of: "updated") == ["2024-05-17T08:30:12Z", "2024-05-17T08:30:12Z", "2024-05-17T08:30:12Z",
                                              "2020-02-29T23:59:59Z", "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"])
        #expect(feed.alternateLinks == [absolute("index.html")] + pages.map(absolute))
        #expect(feed.texts(of: "title").count == 1 + pages.count)
        #expect(feed.texts(of: "title")[5].contains("<script>alert(1)</script> & \"quotes\""))
        let content = feed.texts(of: "content")
        #expect(content.count == pages.count)
        #expect(content[2].contains(#"<img src="\#(absolute("Nikon/images/view/E02-nikon-iso-long-2s.jpg"))" width="#))
        #expect(feed.texts(of: "name") == [input.url.lastPathComponent])
    }

    @Test func withoutABaseURLThereAreNoTagsNoFilesAndNoWords() throws {
        let (input, output) = try paginatedSite()
        try input.write("waterfall.json", Array(#"{"perPage": 3}"#.utf8))
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let files = try Fixtures.siteFiles(in: output.path)
        #expect(!files.contains("feed.atom") && !files.contains("sitemap.xml"))
        for page in files where page.hasSuffix(".html") {
            let html = try read(output.path + "/" + page)
            #expect(!html.contains("og:") && !html.contains("twitter:") && !html.contains("atom+xml"), "\(page)")
        }
    }

    @Test func droppingTheBaseURLRemovesTheFeedAndTheSitemap() throws {
        let (input, output) = try paginatedSite()
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        let first = try Fixtures.siteFiles(in: output.path).map { ($0, try Fixtures.bytes(output.path + "/" + $0)) }
        #expect(first.contains { $0.0 == "feed.atom" } && first.contains { $0.0 == "sitemap.xml" })
        // The same input again, into another folder: byte for byte the same site.
        let again = try TemporaryFolder()
        #expect(try WaterfallProcess.run(["build", input.path, "-o", again.path, "--quiet"]).status == 0)
        #expect(try Fixtures.siteFiles(in: again.path).map { ($0, try Fixtures.bytes(again.path + "/" + $0)) }.elementsEqual(first, by: ==))

        try input.write("waterfall.json", Array(#"{"perPage": 3, "title": "Gal"}"#.utf8))
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--report", "json", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let files = try Fixtures.siteFiles(in: output.path)
        #expect(!files.contains("feed.atom") && !files.contains("sitemap.xml"))
        #expect(run.stdout.contains(#""feed.atom""#) && run.stdout.contains(#""sitemap.xml""#))
        #expect(try !read(output.path + "/index.html").contains("og:url"))
    }

    static let refusals: [(String, String)] = [
        (#""ftp://example.com/""#, "must start with http:// or https:// (got 'ftp://example.com/')"),
        (#""example.com""#, "must start with http:// or https:// (got 'example.com')"),
        (#""/photos/""#, "must start with http:// or https:// (got '/photos/')"),
        (#""https://""#, "has no host (got 'https://')"),
        (#""https://:8080/photos""#, "has no host (got 'https://:8080/photos')"),
        (#""https://me:pw@example.com/""#, "must have a plain host name (letters, digits, '-', '.', and an optional :port; no user name) (got 'https://me:pw@example.com/')"),
        (#""https://example.com/a?b=1""#, "must not have a query (?) or a fragment (#) (got 'https://example.com/a?b=1')"),
        (#""https://example.com/my photos/""#, "must be written in ASCII without spaces or quotes (percent-encode the rest) (got 'https://example.com/my photos/')"),
        (#""https://example.com/\n""#, #"must be written in ASCII without spaces or quotes (percent-encode the rest) (got 'https://example.com/\n')"#),
    ]

    @Test(arguments: refusals)
    func aBadBaseURLIsOneLineAndWritesNothing(json: String, message: String) throws {
        let input = try TemporaryFolder()
        let run = try ConfigurationLimitTests.build(#"{"baseURL": \#(json)}"#, in: input)
        #expect(run.status == 1)
        #expect(run.stderr == "waterfall: ./waterfall.json: 'baseURL' \(message.replacingOccurrences(of: " (got", with: ", such as https://example.com/photos/ (got"))\n")
        #expect(!FileManager.default.fileExists(atPath: input.path + "/_site"))
    }

    @Test func acceptedBaseURLsEndInOneSlashWithALowerCaseScheme() {
        #expect(BaseURL("HTTPS://Example.com:8443/a")?.text == "https://Example.com:8443/a/")
        #expect(BaseURL("http://example.com")?.text == "http://example.com/")
        #expect(BaseURL("https://[::1]:8080/x%20y/")?.text == "https://[::1]:8080/x%20y/")
        #expect(BaseURL("https://example.com/a/")?.absolute("ü/photos/x y#1?.jpg.html")
            == "https://example.com/a/%C3%BC/photos/x%20y%231%3F.jpg.html")
    }

    @Test func aBaseURLOfTheWrongTypeOrFlagIsRefused() throws {
        let input = try TemporaryFolder()
        let run = try ConfigurationLimitTests.build(#"{"baseURL": 42}"#, in: input)
        #expect(run.stderr == "waterfall: ./waterfall.json: 'baseURL' must be a string (got a number)\n")
        #expect(!FileManager.default.fileExists(atPath: input.path + "/_site"))
        let flag = try WaterfallProcess.run(["build", ".", "-o", "_site", "--base-url", "mailto:me"], in: input.path)
        #expect(flag.status == 64)
        #expect(flag.stderr.hasPrefix("waterfall: --base-url must start with http:// or https://, such as https://example.com/photos/ (got 'mailto:me')\n"))
        #expect(!FileManager.default.fileExists(atPath: input.path + "/_site"))
        // An album may not set it: the site has one address.
        try input.write("waterfall.json", Array("{}".utf8))
        try input.write("Trip/waterfall.json", Array(#"{"baseURL": "https://example.com/"}"#.utf8))
        #expect(try WaterfallProcess.run(["build", ".", "-o", "_site"], in: input.path).status == 1)
    }
}

/// A whole XML document read by Foundation's `XMLParser`: it must parse, and the tests ask it for texts.
final class XMLDocumentReader: NSObject, XMLParserDelegate {
    private(set) var root: String?
    private(set) var namespaces: [String] = []
    private(set) var elements: [(name: String, text: String, attributes: [String: String])] = []
    private var open: [(name: String, text: String, attributes: [String: String])] = []

    struct Malformed: Error { var message: String }

    init(data: Data) throws {
        super.init()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = self
        guard parser.parse() else { throw Malformed(message: "\(parser.parserError.map { "\($0)" } ?? "?") at line \(parser.lineNumber)") }
    }

    func texts(of name: String) -> [String] { elements.filter { $0.name == name }.map(\.text) }

    /// The `href` of every `<link rel="alternate">`, in document order.
    var alternateLinks: [String] {
        elements.filter { $0.name == "link" && $0.attributes["rel"] == "alternate" }.compactMap { $0.attributes["href"] }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if root == nil { root = name }
        if let namespaceURI, !namespaces.contains(namespaceURI) { namespaces.append(namespaceURI) }
        open.append((name, "", attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if !open.isEmpty { open[open.count - 1].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        elements.append(open.removeLast())
    }
}
