import Foundation
import Testing
@testable import WaterfallKit

/// The keywords of a site (`KeywordIndex`) and their pages, from `PhotoMetadata` values: folding, the
/// spelling shown, the folders' names, the order, and the pages rendered with the default theme.
struct KeywordIndexTests {
    static let repository = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A published photo `name` with `keywords` (from an XMP sidecar), a tile and a view image.
    static func photo(_ name: String, _ keywords: [String], rating: Int? = nil) -> PublishedPhoto {
        var photo = Photo(source: "/in/" + name, name: name, header: ImageHeader(format: .jpeg, pixelWidth: 40, pixelHeight: 30),
                          status: FileStatus(size: 10, modified: 20))
        photo.metadata = .merged([PhotoMetadata(.xmpSidecar, keywords: keywords, rating: rating)])
        func image(_ role: Derivation.Role, _ size: String) -> DerivedFile {
            DerivedFile(label: size, size: size, delivery: .jpeg, role: role, key: "k", path: "", width: 40, height: 30, format: .jpeg,
                        stored: "s.jpg", hash: nil, made: false, averageColor: AverageColor(red: 1, green: 2, blue: 3))
        }
        return PublishedPhoto(photo: photo, images: [image(.tile, "500"), image(.view, "view")])
    }

    /// The named album tree of `photos`, with the default settings but `change`.
    static func site(_ photos: [PublishedPhoto], _ change: (inout SiteConfiguration) -> Void = { _ in }) -> (Album, SiteConfiguration) {
        var configuration = SiteConfiguration()
        change(&configuration)
        var root = Album.tree(of: photos, configuration: configuration, rootTitle: "Photos", settings: [:])
        SiteNames.assign(&root)
        return (root, configuration)
    }

    @Test func keywordsFoldByCaseAndNormalFormAndShowTheirFirstSpelling() {
        let nfd = "Cafe\u{301}", nfc = "Caf\u{E9}"
        let (root, _) = Self.site([
            Self.photo("b.jpg", ["sunset", nfc, "Sea"]), Self.photo("a.jpg", ["SUNSET", "Sunset", "sunset"]),
            Self.photo("Trip/c.jpg", [nfd, "sea", "Zebra 10", "zebra 9"]),
        ])
        let index = KeywordIndex(root.all)
        #expect(index.keywords.map(\.title) == [nfd, "Sea", "SUNSET", "zebra 9", "Zebra 10"])
        #expect(index.keywords.map(\.title)[0].unicodeScalars.count == 5, "the NFD spelling sorts first")
        #expect(index.keywords.map(\.folder) == ["keywords/\(nfd)", "keywords/Sea", "keywords/SUNSET", "keywords/zebra 9", "keywords/Zebra 10"])
        // In the site's order (the top album's photos by name, then Trip's), each photo once per keyword.
        let photos = index.keywords.map { $0.photos.map { root.all[$0.album].photos[$0.photo].photo.name } }
        #expect(photos == [["b.jpg", "Trip/c.jpg"], ["b.jpg", "Trip/c.jpg"], ["a.jpg", "b.jpg"], ["Trip/c.jpg"], ["Trip/c.jpg"]])
        let links = index.links(for: root.all[1].photos[0].photo)
        #expect(links.map(\.title) == [nfd, "Sea", "zebra 9", "Zebra 10"])
        #expect(links.map(\.path) == ["keywords/\(nfd)/index.html", "keywords/Sea/index.html", "keywords/zebra 9/index.html",
                                      "keywords/Zebra 10/index.html"])
    }

    @Test func namesThatCannotBeFoldersOrClashGiveWay() {
        let words = ["a/b", "a_b", "..", ".hidden", "index.html", "PAGE-2.html", "a\u{1}b", "x\\y", String(repeating: "é", count: 200)]
        let (root, _) = Self.site([Self.photo("a.jpg", words)])
        let folders = KeywordIndex(root.all).keywords.map { String($0.folder.dropFirst("keywords/".count)) }
        #expect(folders.count == words.count)
        #expect(Set(folders.map(NameAllocator.fold)).count == folders.count, "\(folders)")
        for folder in folders {
            #expect(SitePath.isSafeRelativePath("keywords/" + folder) && !folder.contains("/") && !folder.hasPrefix("."), "\(folder)")
            #expect(folder.utf8.count <= SitePath.maximumNameBytes && !folder.unicodeScalars.contains { $0.value < 0x20 })
            #expect(!["index.html", "page-2.html"].contains(NameAllocator.fold(folder)), "\(folder)")
        }
        #expect(folders.contains("a_b") && folders.contains { $0.hasPrefix("a_b~") }, "\(folders)")
        #expect(folders.contains("_.") && folders.contains("_hidden"), "\(folders)")
        // The same input, the same names.
        #expect(KeywordIndex(root.all).keywords.map(\.folder) == KeywordIndex(Self.site([Self.photo("a.jpg", words.reversed())]).0.all).keywords.map(\.folder))
    }

    @Test func anAlbumNamedKeywordsGivesWay() {
        let (root, _) = Self.site([Self.photo("keywords/a.jpg", ["k"]), Self.photo("Keywords2/b.jpg", [])])
        #expect(root.children.map(\.sitePath).first { $0.hasPrefix("keywords") }?.hasPrefix("keywords~") == true)
        #expect(root.children.map(\.sitePath).contains("Keywords2"))
    }

    /// Every page the site renders, by path, with the default theme.
    static func render(_ root: Album, _ configuration: SiteConfiguration, keywords: Bool = true) throws -> [(String, String)] {
        let templates = try TemplateLibrary(folder: repository.appendingPathComponent("Templates").path)
        var pages = SitePages(configuration: configuration, sizes: ImageSizes(configuration: configuration), templates: templates)
        pages.keywords = keywords ? KeywordIndex(root.all) : nil
        var rendered: [(String, String)] = []
        try pages.render(root, jobs: 1) { page throws(BuildError) in rendered.append((page.path, try page.render())) }
        #expect(rendered.map(\.0) == pages.paths(root))
        return rendered
    }

    @Test func keywordPagesAreAlbumPagesOfTheirPhotos() throws {
        // Sea: the five photos of Trip; boat: four of them and the top album's photo.
        let photos = (1...5).map { Self.photo("Trip/IMG_\($0).jpg", $0 == 3 ? ["Sea & <sky>"] : ["Sea & <sky>", "boat"]) }
            + [Self.photo("top.jpg", ["boat"])]
        let (root, configuration) = Self.site(photos) { $0.perPage = 2 }
        let pages = Dictionary(uniqueKeysWithValues: try Self.render(root, configuration))
        let keywordPaths = pages.keys.filter { $0.hasPrefix("keywords/") }.sorted()
        #expect(keywordPaths == ["keywords/Sea & <sky>/index.html", "keywords/Sea & <sky>/page-2.html", "keywords/Sea & <sky>/page-3.html",
                                 "keywords/boat/index.html", "keywords/boat/page-2.html", "keywords/boat/page-3.html",
                                 "keywords/index.html"])
        let index = try #require(pages["keywords/index.html"])
        #expect(index.contains("<h1>Keywords</h1>") && index.contains("2 keywords"))
        #expect(index.contains(#"<a href="boat/index.html">"#) && index.contains(#"<a href="Sea%20%26%20%3Csky%3E/index.html">"#))
        #expect(index.contains(#"<strong aria-hidden="true">boat</strong> 5 photos"#))
        let sea = try #require(pages["keywords/Sea & <sky>/index.html"])
        #expect(sea.contains("<h1>Sea &amp; &lt;sky&gt;</h1>") && sea.contains("5 photos"))
        #expect(sea.contains(#"<a href="../../Trip/photos/IMG_1.jpg.html">"#) && sea.contains(#"<a href="../../Trip/photos/IMG_2.jpg.html">"#))
        #expect(sea.contains(#"href="page-2.html""#) && sea.contains(#"href="../index.html">Keywords</a>"#))
        #expect(sea.contains(#"<a href="../../index.html">Photos</a>"#))
        // The same waterfall as an album's: the board's CSS and the tiles.
        let album = try #require(pages["Trip/index.html"])
        for mark in ["<ol class=\"wf-tiles\">", "class=\"wf-tile\"", "wf-board", "<style>"] { #expect(sea.contains(mark) && album.contains(mark)) }
        let photo = try #require(pages["Trip/photos/IMG_2.jpg.html"])
        #expect(photo.contains(#"<a href="../../keywords/Sea%20%26%20%3Csky%3E/index.html" rel="tag">Sea &amp; &lt;sky&gt;</a>"#))
        #expect(photo.contains(#"<a href="../../keywords/boat/index.html" rel="tag">boat</a>"#))
        #expect(try #require(pages["Trip/photos/IMG_3.jpg.html"]).contains("rel=\"tag\">boat<") == false)
        // Every page link leads to a page of the site.
        for (path, html) in pages {
            for url in LinkChecker.urls(in: html) where url.hasSuffix(".html") || url.contains(".html#") {
                let target = URL(fileURLWithPath: "/" + path).deletingLastPathComponent()
                    .appendingPathComponent(String(url.split(separator: "#")[0]).removingPercentEncoding!).standardized.path
                #expect(pages[String(target.dropFirst())] != nil, "\(path): \(url)")
            }
        }
    }

    @Test func withoutKeywordPagesNothingLinksToThem() throws {
        let (root, configuration) = Self.site([Self.photo("a.jpg", ["sea"])])
        let pages = try Self.render(root, configuration, keywords: false)
        #expect(pages.map(\.0) == ["index.html", "photos/a.jpg.html"])
        #expect(!pages.contains { $0.1.contains("keywords/") })
        let none = try Self.render(Self.site([Self.photo("a.jpg", [])]).0, configuration)
        #expect(none.map(\.0) == ["index.html", "photos/a.jpg.html"], "no keywords, no index")
    }
}
