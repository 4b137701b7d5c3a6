/// Every page of the site: each album's gallery pages (a waterfall each, paginated, the sub-albums as cover
/// tiles on the first) and a page per photo. Rendered with the theme's `page.mustache` and `photo.mustache`.
struct SitePages: Sendable {
    var configuration: SiteConfiguration
    var sizes: ImageSizes
    var templates: TemplateLibrary
    /// What every photo page depends on besides its own inputs: the templates and the settings its page reads.
    let siteDigest: ContentDigest
    /// What every gallery page depends on besides its own inputs: the same, and the layout's settings.
    let galleryDigest: ContentDigest
    /// Each album's archive of its originals, by the album's folder in the site (`zip`; known once the
    /// archives are written or kept, before the pages are rendered).
    var downloads: [String: GalleryPageInputs.Download] = [:]
    /// The site's keywords, with their folders (`keywordPages`; known once the photos are named): nil for none.
    var keywords: KeywordIndex?

    /// A page to write: its inputs' digest when the page is known to depend on nothing else (a writer may
    /// keep the page it made from the same digest), and how to render it.
    struct Page {
        var path: String
        var inputs: ContentDigest?
        var render: () throws(BuildError) -> String
    }

    init(configuration: SiteConfiguration, sizes: ImageSizes, templates: TemplateLibrary) {
        self.configuration = configuration
        self.sizes = sizes
        self.templates = templates
        var site = DigestBuilder()
        site.add(Versions.pages)
        site.add(Versions.program)
        site.add(RendererIdentity.executableDigest()?.hex)
        for name in templates.names {
            site.add(name)
            site.add(templates.templates[name]!.source)
        }
        site.add(configuration.footerText)
        site.add(configuration.baseURL?.text)
        siteDigest = site.digest
        var gallery = DigestBuilder()
        gallery.add(siteDigest)
        // The layout's settings as Swift writes them: plain structs and enums of numbers (shortest
        // round-trip decimals), the same text for the same values in every run.
        gallery.add("\(configuration.layoutBands)")
        gallery.add("\(configuration.layoutConfiguration)")
        gallery.add(configuration.footerHeight.description)
        gallery.add(sizes.sizesAttribute)
        galleryDigest = gallery.digest
    }

    /// Every page's site path, in the order `render` makes them: known before any is rendered, so the
    /// writer can check the way is clear.
    func paths(_ root: Album) -> [String] {
        root.all.flatMap { album in
            (1...pageCount(album)).map { Self.galleryPath(album: album.sitePath, page: $0) } + album.photos.map(\.page)
        } + keywordPages().map { keywordPath($0.kind) }
    }

    /// Hands every page to `emit`, which renders it (or keeps the one already written from the same
    /// inputs) at once, so a site of any size is never in memory whole. Every page's inputs digest is
    /// worked out first, on every core (`jobs`), from the very inputs the page is rendered from (made again
    /// when it is rendered: a rebuild keeps most pages on their digest alone, and 100,000 pages' inputs held
    /// at once would be some 100 MB).
    func render(_ root: Album, jobs: Int = Parallelism.available, emit: (Page) throws(BuildError) -> Void) throws(BuildError) {
        let (albums, pages) = self.pages(root)
        // Each photo's label is on three photo pages and a gallery page: made once, not four times.
        let labels = albums.parallelMap(jobs: jobs) { $0.album.photos.map(\.photo.label) }
        @Sendable func inputs(_ page: PageToMake) -> PageInputs {
            let (album, trail) = albums[page.album]
            switch page.kind {
            case .gallery(let number, let count):
                return .gallery(galleryInputs(album, number: number, of: count, trail: trail, labels: labels[page.album]))
            case .photo(let index):
                return .photo(photoPageInputs(album, index: index, trail: trail, labels: labels[page.album]))
            case .keywords(let number, let count):
                return .gallery(keywordIndexInputs(number: number, of: count, albums: albums, labels: labels))
            case .keyword(let keyword, let number, let count):
                return .gallery(keywordInputs(keyword, number: number, of: count, albums: albums, labels: labels))
            }
        }
        let digests = pages.parallelMap(jobs: jobs) { page in
            switch inputs(page) {
            case .gallery(let inputs): inputs.digest(site: galleryDigest)
            case .photo(let inputs): inputs.digest(site: siteDigest)
            }
        }
        for (page, digest) in zip(pages, digests) {
            let (album, _) = albums[page.album]
            let path = switch page.kind {
            case .gallery(let number, _): Self.galleryPath(album: album.sitePath, page: number)
            case .photo(let index): album.photos[index].page
            case .keywords, .keyword: keywordPath(page.kind)
            }
            try emit(Page(path: path, inputs: digest) { () throws(BuildError) in
                switch inputs(page) {
                case .gallery(let inputs): try galleryPage(inputs)
                case .photo(let inputs): try photoPage(inputs)
                }
            })
        }
    }

    /// What one page is made from.
    enum PageInputs {
        case gallery(GalleryPageInputs)
        case photo(PhotoPageInputs)
    }

    /// One page to make: which album's (its place in the list of albums), and which of its pages.
    struct PageToMake: Sendable {
        enum Kind: Sendable {
            case gallery(number: Int, count: Int)
            case photo(index: Int)
            /// The keywords' index, and a keyword's pages (its place in `keywords`): after every album's.
            case keywords(number: Int, count: Int)
            case keyword(Int, number: Int, count: Int)
        }

        var album: Int
        var kind: Kind
    }

    /// A breadcrumb: a page's title and path.
    struct Crumb: Sendable {
        var title: String
        var path: String
    }

    /// Every album with the trail to it, and every page, in the order of `paths`: each album's gallery
    /// pages, its photos' pages, then its sub-albums', depth first.
    private func pages(_ root: Album) -> (albums: [(album: Album, trail: [Crumb])], pages: [PageToMake]) {
        var albums: [(album: Album, trail: [Crumb])] = []
        var pages: [PageToMake] = []
        func add(_ album: Album, above: [Crumb]) {
            let trail = above + [Crumb(title: album.title, path: Self.galleryPath(album: album.sitePath, page: 1))]
            let count = pageCount(album)
            albums.append((album, trail))
            for number in 1...count { pages.append(PageToMake(album: albums.count - 1, kind: .gallery(number: number, count: count))) }
            for index in album.photos.indices { pages.append(PageToMake(album: albums.count - 1, kind: .photo(index: index))) }
            for child in album.children { add(child, above: trail) }
        }
        add(root, above: [])
        return (albums, pages + keywordPages())
    }

    /// What gallery page `number` of `album` shows; `labels` are the album's photos' labels.
    private func galleryInputs(_ album: Album, number: Int, of count: Int, trail: [Crumb], labels: [String]) -> GalleryPageInputs {
        let first = (number - 1) * configuration.perPage
        let photos = album.photos.indices.dropFirst(first).prefix(configuration.perPage)
        let albums = number == 1 ? album.children.filter { $0.cover != nil } : []
        var tiles: [GalleryPageInputs.Tile] = []
        tiles.reserveCapacity(albums.count + photos.count)
        for child in albums {
            var tile = self.tile(child.cover!, alt: child.title)
            tile.href = Self.galleryPath(album: child.sitePath, page: 1)
            tile.album = (child.title, Self.count(child.totalPhotos, videos: child.totalVideos))
            tile.caption = nil
            tile.video = nil
            tile.live = false
            tiles.append(tile)
        }
        for index in photos { tiles.append(tile(album.photos[index], alt: labels[index])) }
        return GalleryPageInputs(
            path: Self.galleryPath(album: album.sitePath, page: number), title: album.title, description: album.description,
            descriptionHTML: album.descriptionHTML,
            trail: trail.map { .init(path: $0.path, title: $0.title) }, tiles: tiles, photoCount: Self.count(album.totalPhotos, videos: album.totalVideos),
            albumPath: album.sitePath, number: number, pageCount: count,
            cover: album.cover.map { .init(path: $0.view.path, width: $0.view.width, height: $0.view.height) },
            coverAlt: album.cover?.photo.label ?? "", download: downloads[album.sitePath])
    }

    private func pageCount(_ album: Album) -> Int {
        max(1, (album.photos.count + configuration.perPage - 1) / configuration.perPage)
    }

    static func galleryPath(album: String, page: Int) -> String {
        SitePath.join(album, page == 1 ? "index.html" : "page-\(page).html")
    }

    // MARK: - Gallery pages

    func tile(_ published: PublishedPhoto, alt: String) -> GalleryPageInputs.Tile {
        let photo = published.photo
        func images(_ files: [DerivedFile]) -> [GalleryPageInputs.Image] { files.map { .init(path: $0.path, width: $0.width) } }
        return GalleryPageInputs.Tile(
            href: published.page, images: images(published.tiles),
            sources: modernFormats.compactMap { format in
                let files = published.tiles(in: format)
                guard !files.isEmpty, let type = format.mimeType else { return nil }
                return (type, images(files))
            },
            width: photo.header.width, height: photo.header.height, alt: alt, caption: photo.caption?.title,
            // The mean colour of the tile image the visitor gets first: a coloured mosaic while images load.
            color: Self.placeholder(photo, published.tiles[0], mean: published.tiles[0].averageColor), sketch: published.tiles[0].sketch,
            name: photo.fileName, album: nil,
            video: photo.header.video.map { .init(duration: $0.durationText) }, live: published.motion != nil)
    }

    /// The gallery page, from its inputs alone (its board laid out from the tiles' sizes).
    private func galleryPage(_ page: GalleryPageInputs) throws(BuildError) -> String {
        let path = page.path
        let board = try Self.board(page.tiles.map { Size(width: Double($0.width), height: Double($0.height)) }, configuration)
        let tiles: [TemplateValue] = page.tiles.enumerated().map { index, tile in
            let sources: [TemplateValue] = tile.sources.map { ["type": .string($0.type), "srcset": .string(Self.srcset($0.images, from: path))] }
            return [
                "picture": .bool(!sources.isEmpty),
                "sources": .list(sources),
                "index": .int(index),
                "href": .string(SitePath.url(from: path, to: tile.href)),
                "src": .string(SitePath.url(from: path, to: tile.images[0].path)),
                "srcset": .string(Self.srcset(tile.images, from: path)),
                "sizes": .string(sizes.sizesAttribute),
                "width": .int(tile.width),
                "height": .int(tile.height),
                "alt": .string(tile.alt),
                "caption": tile.caption.map { .string($0) } ?? .null,
                "style": .string(board.style.tileStyles[index]),
                "color": tile.color.map { .string($0) } ?? .null,
                // Only where it pays: a sketch below every first screen would be bytes no one sees inline.
                "sketch": board.firstScreen.eager[index] ? tile.sketch.map { .string($0.dataURL) } ?? .null : .null,
                "eager": .bool(board.firstScreen.eager[index]),
                "priority": .bool(board.firstScreen.priority[index]),
                "name": .string(tile.name),
                "album": tile.album.map { ["title": .string($0.title), "count": .string($0.count)] } ?? .null,
                "video": tile.video.map { ["duration": $0.duration.map { .string($0) } ?? .null] } ?? .null,
                "live": .bool(tile.live),
            ]
        }
        var context = common(page: path, title: page.title, trail: page.trail.map { ($0.title, $0.path) })
        context["description"] = page.description.map { .string($0) } ?? .null
        context["descriptionHTML"] = page.descriptionHTML.map { .string($0) } ?? .null
        context["layoutCSS"] = .string(board.style.css)
        context["tiles"] = .list(tiles)
        context["empty"] = .bool(tiles.isEmpty)
        context["photoCountText"] = .string(page.photoCount)
        context["download"] = page.download.map { download -> TemplateValue in
            ["href": .string(SitePath.url(from: path, to: download.path)), "count": .string(Self.count(download.photos)),
             "size": .string(ByteCount.size(download.bytes))]
        } ?? .null
        context["pager"] = page.pageCount == 1 ? .null : pager(album: page.albumPath, number: page.number, of: page.pageCount, from: path)
        context["share"] = share(page.trail.first?.title)?.value(page: path, title: page.title, description: page.description,
                                                                 image: page.cover, imageAlt: page.coverAlt) ?? .null
        return try render("page", context)
    }

    /// The formats of `<source>` elements, in the visitor's preference order: all but the fallback.
    var modernFormats: [DeliveryFormat] { configuration.formats.filter { $0.mimeType != nil } }

    /// `a.jpg.avif 500w, …`, relative to the page.
    static func srcset(_ files: [GalleryPageInputs.Image], from page: String) -> String {
        files.map { "\(SitePath.url(from: page, to: $0.path)) \($0.width)w" }.joined(separator: ", ")
    }

    private func pager(album: String, number: Int, of count: Int, from path: String) -> TemplateValue {
        func href(_ page: Int) -> TemplateValue { .string(SitePath.url(from: path, to: Self.galleryPath(album: album, page: page))) }
        let pages: [TemplateValue] = (1...count).map { page in
            ["number": .int(page), "href": href(page), "current": .bool(page == number)]
        }
        return [
            "pages": .list(pages),
            "previous": number > 1 ? href(number - 1) : .null,
            "next": number < count ? href(number + 1) : .null,
        ]
    }

    // MARK: - Shared

    /// The link-preview tags' maker, when the site has a base URL; the site's title is the trail's first.
    func share(_ siteTitle: String?) -> ShareTags? {
        configuration.baseURL.map { ShareTags(baseURL: $0, siteTitle: siteTitle ?? "") }
    }

    func common(page: String, title: String, trail: [(title: String, path: String)]) -> [String: TemplateValue] {
        let crumbs: [TemplateValue] = trail.enumerated().map { position, crumb in
            ["title": .string(crumb.title), "href": .string(SitePath.url(from: page, to: crumb.path)),
             "current": .bool(position == trail.count - 1)]
        }
        return [
            "language": "en",
            "generator": .string("Waterfall \(Versions.program)"),
            "title": .string(title),
            "siteTitle": .string(trail.first?.title ?? title),
            "breadcrumbs": .list(crumbs),
            "hasBreadcrumbs": .bool(crumbs.count > 1),
            "assets": .string(SitePath.url(from: page, to: "assets/x").dropLast(1).description),
            "footerText": .string(configuration.footerText),
        ]
    }

    private static func board(_ sizes: [Size], _ configuration: SiteConfiguration) throws(BuildError) -> (style: BoardStyle, firstScreen: FirstScreen) {
        do {
            let items = try SizedItems(displaySizes: sizes)
            let layout = try ResponsiveLayout(bands: configuration.layoutBands,
                                              configuration: configuration.layoutConfiguration, items: items)
            return (BoardStyle(layout: layout, aspectRatios: items.aspectRatios, footerHeight: configuration.footerHeight),
                    FirstScreen(layout: layout))
        } catch {
            throw BuildError("layout: \(error)")
        }
    }

    func render(_ template: String, _ context: [String: TemplateValue]) throws(BuildError) -> String {
        do {
            return try templates.render(name: template, value: .object(context))
        } catch {
            throw BuildError(error)
        }
    }

    /// `video/mp4` or `video/webm`: the published video's `<source type>`.
    static func mimeType(_ file: DerivedFile) -> String { file.format == .webm ? "video/webm" : "video/mp4" }

    /// "5 photos and 1 video" for `items` of which `videos` are videos; "No photos" for none.
    static func count(_ items: Int, videos: Int = 0) -> String {
        func words(_ count: Int, _ noun: String) -> String { count == 1 ? "1 \(noun)" : "\(count) \(noun)s" }
        let photos = items - videos
        switch (photos, videos) {
        case (0, 0): return "No photos"
        case (_, 0): return words(photos, "photo")
        case (0, _): return words(videos, "video")
        default: return words(photos, "photo") + " and " + words(videos, "video")
        }
    }
}
