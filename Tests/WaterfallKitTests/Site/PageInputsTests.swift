import Testing
@testable import WaterfallKit

/// A page is kept when its inputs' digest is the one its last build recorded, so every field of a page's
/// inputs must reach its digest. Each test lists every field (a field added to the inputs fails it until it
/// is listed here) with a change to it, and expects every change to be another digest.
struct PageInputsTests {
    static let site = ContentDigest((7, 9))

    typealias Change<Value> = (String, (inout Value) -> Void)

    /// The names of a value's stored properties, in order.
    static func fields(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }

    /// Expects `fields` to name every stored property of `value`, and every change to give another digest.
    static func expectEveryField<Value>(of value: Value, _ fields: [Change<Value>], digest: (Value) -> ContentDigest,
                                        sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(Self.fields(value) == fields.map(\.0), "a field is missing here (and maybe in the digest)",
                sourceLocation: sourceLocation)
        var seen: Set<ContentDigest> = [digest(value)]
        for (name, change) in fields {
            var changed = value
            change(&changed)
            #expect(seen.insert(digest(changed)).inserted, "\(name) does not change the digest", sourceLocation: sourceLocation)
        }
    }

    static let sketch = Sketch(png: [1, 2, 3])

    static var photoPage: PhotoPageInputs {
        PhotoPageInputs(
            path: "a/photos/b.jpg.html", label: "B", fileName: "b.jpg", caption: Caption(title: "T", description: "D", descriptionHTML: "<p>D</p>"),
            summary: "Canon", takenText: "2024-05-17", view: .init(path: "a/v.jpg", width: 40, height: 30),
            viewSet: [.init(path: "a/v.jpg", width: 40)], sources: [("image/avif", [.init(path: "a/v.avif", width: 40)])],
            video: .init(path: "a/b.mp4", type: "video/mp4", duration: "0:07"),
            motion: .init(path: "a/images/video/b.jpg.mp4", type: "video/mp4", duration: nil), color: "#102030", sketch: sketch,
            original: .init(path: "a/originals/b.jpg", bytes: 4_200_000, kind: "JPG"),
            fullSize: .init(path: "a/originals/b.jpg", width: 4000, height: 3000), previous: .init(path: "a/photos/a.jpg.html", title: "A"),
            next: .init(path: "a/photos/c.jpg.html", title: "C"), back: .init(path: "a/index.html", title: "Album"), backTile: 1,
            trail: [.init(path: "index.html", title: "Photos")], keywords: [.init(path: "keywords/Sea/index.html", title: "Sea")],
            ahead: [.init(width: 40, viewSet: [.init(path: "a/c.jpg", width: 40)], sources: [("image/avif", [.init(path: "a/c.avif", width: 40)])])])
    }

    @Test func everyFieldOfAPhotoPageReachesItsDigest() {
        let page: [Change<PhotoPageInputs>] = [
            ("path", { $0.path += "x" }), ("label", { $0.label += "x" }), ("fileName", { $0.fileName += "x" }),
            ("caption", { $0.caption?.title += "x" }), ("summary", { $0.summary = nil }), ("takenText", { $0.takenText = nil }),
            ("view", { $0.view.height += 1 }), ("viewSet", { $0.viewSet[0].width += 1 }), ("sources", { $0.sources[0].type = "image/webp" }),
            ("video", { $0.video?.duration = nil }), ("motion", { $0.motion = nil }), ("color", { $0.color = nil }), ("sketch", { $0.sketch = nil }),
            ("original", { $0.original = nil }), ("fullSize", { $0.fullSize = nil }), ("previous", { $0.previous = nil }),
            ("next", { $0.next?.title += "x" }), ("back", { $0.back.path += "x" }), ("backTile", { $0.backTile += 1 }),
            ("trail", { $0.trail[0].title += "x" }), ("keywords", { $0.keywords[0].path += "x" }), ("ahead", { $0.ahead[0].width += 1 }),
        ]
        Self.expectEveryField(of: Self.photoPage, page, digest: { $0.digest(site: Self.site) })
        func digest(_ change: @escaping (inout PhotoPageInputs) -> Void) -> ContentDigest {
            var page = Self.photoPage
            change(&page)
            return page.digest(site: Self.site)
        }
        let caption: [Change<Caption>] = [("title", { $0.title += "x" }), ("description", { $0.description = nil }),
                                          ("descriptionHTML", { $0.descriptionHTML = nil })]
        Self.expectEveryField(of: Self.photoPage.caption!, caption, digest: { caption in digest { $0.caption = caption } })
        let video: [Change<PhotoPageInputs.Video>] = [
            ("path", { $0.path += "x" }), ("type", { $0.type = "video/webm" }), ("duration", { $0.duration = nil }),
        ]
        Self.expectEveryField(of: Self.photoPage.video!, video, digest: { video in digest { $0.video = video } })
        let view: [Change<PhotoPageInputs.Image>] = [("path", { $0.path += "x" }), ("width", { $0.width += 1 }), ("height", { $0.height += 1 })]
        Self.expectEveryField(of: Self.photoPage.view, view, digest: { view in digest { $0.view = view } })
        let original: [Change<PhotoPageInputs.Original>] = [
            ("path", { $0.path += "x" }), ("bytes", { $0.bytes += 1 }), ("kind", { $0.kind = "PNG" }),
        ]
        Self.expectEveryField(of: Self.photoPage.original!, original, digest: { original in digest { $0.original = original } })
        let ahead: [Change<PhotoPageInputs.Ahead>] = [
            ("width", { $0.width += 1 }), ("viewSet", { $0.viewSet[0].path += "x" }), ("sources", { $0.sources[0].images[0].width += 1 }),
        ]
        Self.expectEveryField(of: Self.photoPage.ahead[0], ahead, digest: { ahead in digest { $0.ahead = [ahead] } })
        let link: [Change<PhotoPageInputs.Link>] = [("path", { $0.path += "x" }), ("title", { $0.title += "x" })]
        Self.expectEveryField(of: Self.photoPage.back, link, digest: { back in digest { $0.back = back } })
        Self.expectEveryField(of: Self.photoPage.keywords[0], link, digest: { keyword in digest { $0.keywords = [keyword] } })
        #expect(digest { $0.keywords = [] } != digest { $0.keywords.append($0.keywords[0]) })
        #expect(Self.photoPage.digest(site: ContentDigest((7, 8))) != Self.photoPage.digest(site: Self.site))
    }

    static var tile: GalleryPageInputs.Tile {
        GalleryPageInputs.Tile(
            href: "a/photos/b.jpg.html", images: [.init(path: "a/t.jpg", width: 40)], sources: [("image/avif", [.init(path: "a/t.avif", width: 40)])],
            width: 40, height: 30, alt: "B", caption: "T", color: "#102030", sketch: sketch, name: "b.jpg", album: ("Trip", "3 photos"),
            video: .init(duration: "0:07"), live: true)
    }

    static var galleryPage: GalleryPageInputs {
        GalleryPageInputs(
            path: "a/index.html", title: "Album", description: "About", descriptionHTML: "<p>About</p>", trail: [.init(path: "index.html", title: "Photos")],
            tiles: [tile], photoCount: "3 photos", albumPath: "a", number: 1, pageCount: 2,
            cover: .init(path: "a/v.jpg", width: 40, height: 30), coverAlt: "B",
            download: .init(path: "a/originals/a.zip", photos: 3, bytes: 123_456))
    }

    @Test func everyFieldOfAGalleryPageReachesItsDigest() {
        let page: [Change<GalleryPageInputs>] = [
            ("path", { $0.path += "x" }), ("title", { $0.title += "x" }), ("description", { $0.description = nil }),
            ("descriptionHTML", { $0.descriptionHTML = nil }), ("trail", { $0.trail[0].path += "x" }), ("tiles", { $0.tiles.append(Self.tile) }), ("photoCount", { $0.photoCount += "x" }),
            ("albumPath", { $0.albumPath += "x" }), ("number", { $0.number += 1 }), ("pageCount", { $0.pageCount += 1 }),
            ("cover", { $0.cover?.width += 1 }), ("coverAlt", { $0.coverAlt += "x" }), ("download", { $0.download = nil }),
        ]
        Self.expectEveryField(of: Self.galleryPage, page, digest: { $0.digest(site: Self.site) })
        let download: [Change<GalleryPageInputs.Download>] = [
            ("path", { $0.path += "x" }), ("photos", { $0.photos += 1 }), ("bytes", { $0.bytes += 1 }),
        ]
        Self.expectEveryField(of: Self.galleryPage.download!, download, digest: { download in
            var page = Self.galleryPage
            page.download = download
            return page.digest(site: Self.site)
        })
        func digest(_ tile: GalleryPageInputs.Tile) -> ContentDigest {
            var page = Self.galleryPage
            page.tiles = [tile]
            return page.digest(site: Self.site)
        }
        let tile: [Change<GalleryPageInputs.Tile>] = [
            ("href", { $0.href += "x" }), ("images", { $0.images[0].path += "x" }), ("sources", { $0.sources[0].images[0].width += 1 }),
            ("width", { $0.width += 1 }), ("height", { $0.height += 1 }), ("alt", { $0.alt += "x" }), ("caption", { $0.caption = nil }),
            ("color", { $0.color = nil }), ("sketch", { $0.sketch = nil }), ("name", { $0.name += "x" }),
            ("album", { $0.album?.count += "x" }), ("video", { $0.video?.duration = nil }), ("live", { $0.live = false }),
        ]
        Self.expectEveryField(of: Self.tile, tile, digest: digest)
        let image: [Change<GalleryPageInputs.Image>] = [("path", { $0.path += "x" }), ("width", { $0.width += 1 })]
        Self.expectEveryField(of: Self.tile.images[0], image, digest: { image in
            var tile = Self.tile
            tile.images = [image]
            return digest(tile)
        })
        var noVideo = Self.tile
        noVideo.video = nil
        var silent = Self.tile
        silent.video?.duration = nil
        var albumTitle = Self.tile
        albumTitle.album?.title += "x"
        #expect(Set([Self.tile, noVideo, silent, albumTitle].map(digest)).count == 4)
    }
}

/// The neighbours' URLs in `<script type="speculationrules">`: JSON that reads back as the URLs and cannot end
/// the script element, whatever a name holds.
struct SpeculationRulesTests {
    @Test func hostileURLsStayInsideTheScript() throws {
        let urls = ["a%20b.jpg.html", "</script><b>\"\\&\n.html"]
        guard case .string(let json) = SitePages.speculation(urls) else {
            Issue.record("no JSON")
            return
        }
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"), "\(json)")
        #expect(try JSONParser.parse(json) == .array(urls.map { .string($0) }))
        #expect(SitePages.speculation([]) == .null)
    }
}
