/// Every page of the site: each album's gallery pages (a waterfall each, paginated, the sub-albums as cover
/// tiles on the first) and a page per photo. Rendered with the theme's `page.mustache` and `photo.mustache`.
struct SitePages {
    var configuration: SiteConfiguration
    var sizes: ImageSizes
    var templates: TemplateLibrary

    /// Every page's site path, in the order `render` makes them: known before any is rendered, so the
    /// writer can check the way is clear.
    func paths(_ root: Album) -> [String] {
        root.all.flatMap { album in
            (1...pageCount(album)).map { Self.galleryPath(album: album.sitePath, page: $0) } + album.photos.map(\.page)
        }
    }

    /// Renders every page and hands each to `emit` at once, so a site of any size is never in memory whole.
    func render(_ root: Album, emit: (String, String) throws(BuildError) -> Void) throws(BuildError) {
        try render(root, trail: [], emit: emit)
    }

    private func render(_ album: Album, trail above: [(title: String, path: String)],
                        emit: (String, String) throws(BuildError) -> Void) throws(BuildError) {
        let trail = above + [(album.title, Self.galleryPath(album: album.sitePath, page: 1))]
        let count = pageCount(album)
        for number in 1...count {
            let slice = album.photos.dropFirst((number - 1) * configuration.perPage).prefix(configuration.perPage)
            let path = Self.galleryPath(album: album.sitePath, page: number)
            try emit(path, try galleryPage(album, number: number, of: count, photos: Array(slice), path: path, trail: trail))
        }
        for index in album.photos.indices {
            try emit(album.photos[index].page, try photoPage(album, index: index, trail: trail))
        }
        for child in album.children { try render(child, trail: trail, emit: emit) }
    }

    private func pageCount(_ album: Album) -> Int {
        max(1, (album.photos.count + configuration.perPage - 1) / configuration.perPage)
    }

    static func galleryPath(album: String, page: Int) -> String {
        SitePath.join(album, page == 1 ? "index.html" : "page-\(page).html")
    }

    // MARK: - Gallery pages

    private func galleryPage(_ album: Album, number: Int, of pageCount: Int, photos: [PublishedPhoto], path: String,
                             trail: [(title: String, path: String)]) throws(BuildError) -> String {
        let albums = number == 1 ? album.children.filter { $0.cover != nil } : []
        let boxes = albums.map { $0.cover!.photo.header } + photos.map(\.photo.header)
        let board = try Self.board(boxes.map { Size(width: Double($0.width), height: Double($0.height)) }, configuration)
        var tiles: [TemplateValue] = []
        for (index, child) in albums.enumerated() {
            var tile = self.tile(child.cover!, index: index, page: path, board: board)
            tile["href"] = .string(SitePath.url(from: path, to: Self.galleryPath(album: child.sitePath, page: 1)))
            tile["album"] = ["title": .string(child.title), "count": .string(Self.count(child.totalPhotos))]
            tile["alt"] = .string(child.title)
            tile["caption"] = .null
            tiles.append(.object(tile))
        }
        for (offset, photo) in photos.enumerated() {
            tiles.append(.object(tile(photo, index: albums.count + offset, page: path, board: board)))
        }
        var context = common(page: path, title: album.title, trail: trail)
        context["description"] = album.description.map { .string($0) } ?? .null
        context["layoutCSS"] = .string(board.css)
        context["tiles"] = .list(tiles)
        context["empty"] = .bool(tiles.isEmpty)
        context["photoCountText"] = .string(Self.count(album.totalPhotos))
        context["pager"] = pageCount == 1 ? .null : pager(album: album.sitePath, number: number, of: pageCount, from: path)
        context["share"] = share(trail)?.value(page: path, title: album.title, description: album.description,
                                               image: album.cover?.view, imageAlt: album.cover?.photo.label ?? "") ?? .null
        return try render("page", context)
    }

    private func tile(_ published: PublishedPhoto, index: Int, page: String, board: BoardStyle) -> [String: TemplateValue] {
        let photo = published.photo
        let srcset = Self.srcset(published.tiles, from: page)
        let sources = modernFormats.compactMap { format -> TemplateValue? in
            let files = published.tiles(in: format)
            guard !files.isEmpty, let type = format.mimeType else { return nil }
            return ["type": .string(type), "srcset": .string(Self.srcset(files, from: page))]
        }
        return [
            "picture": .bool(!sources.isEmpty),
            "sources": .list(sources),
            "index": .int(index),
            "href": .string(SitePath.url(from: page, to: published.page)),
            "src": .string(SitePath.url(from: page, to: published.tiles[0].path)),
            "srcset": .string(srcset),
            "sizes": .string(sizes.sizesAttribute),
            "width": .int(photo.header.width),
            "height": .int(photo.header.height),
            "alt": .string(photo.label),
            "caption": photo.caption.map { .string($0.title) } ?? .null,
            "style": .string(board.tileStyles[index]),
            // The mean colour of the tile image the visitor gets first: a coloured mosaic while images load.
            "color": published.tiles[0].averageColor.map { .string($0.hex) } ?? .null,
            "eager": .bool(board.firstScreen[index]),
            "name": .string(photo.fileName),
            "album": .null,
        ]
    }

    /// The formats of `<source>` elements, in the visitor's preference order: all but the fallback.
    private var modernFormats: [DeliveryFormat] { configuration.formats.filter { $0.mimeType != nil } }

    /// `a.jpg.avif 500w, …`, relative to the page.
    private static func srcset(_ files: [DerivedFile], from page: String) -> String {
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

    // MARK: - Photo pages

    private func photoPage(_ album: Album, index: Int, trail: [(title: String, path: String)]) throws(BuildError) -> String {
        let published = album.photos[index]
        let photo = published.photo
        let path = published.page
        let view = published.view
        let galleryPage = index / configuration.perPage + 1
        let tileIndex = (galleryPage == 1 ? album.children.filter { $0.cover != nil }.count : 0) + index % configuration.perPage
        var context = common(page: path, title: photo.label, trail: trail + [(photo.label, path)])
        let sources = modernFormats.compactMap { format -> TemplateValue? in
            guard let file = published.view(in: format), let type = format.mimeType else { return nil }
            return ["type": .string(type), "srcset": .string(SitePath.url(from: path, to: file.path))]
        }
        context["photo"] = [
            "picture": .bool(!sources.isEmpty),
            "sources": .list(sources),
            "src": .string(SitePath.url(from: path, to: view.path)),
            "width": .int(view.width),
            "height": .int(view.height),
            "alt": .string(photo.label),
            "name": .string(photo.fileName),
            "color": (view.averageColor ?? published.tiles[0].averageColor).map { .string($0.hex) } ?? .null,
        ]
        context["caption"] = photo.caption.map { caption in
            ["title": .string(caption.title), "description": caption.description.map { .string($0) } ?? .null]
        } ?? .null
        context["exif"] = photo.facts.summary.map { .string($0) } ?? .null
        context["taken"] = photo.facts.takenText.map { .string($0) } ?? .null
        context["original"] = configuration.originals == .none ? .null : .string(SitePath.url(from: path, to: published.original))
        // Whether the figure has a caption to show (a description, EXIF facts, the date, the original's link).
        context["hasDetails"] = .bool(photo.caption?.description != nil || photo.facts.summary != nil
                                      || photo.facts.takenText != nil || configuration.originals != .none)
        func neighbour(_ other: Int) -> TemplateValue {
            guard album.photos.indices.contains(other) else { return .null }
            let next = album.photos[other]
            return ["href": .string(SitePath.url(from: path, to: next.page)), "title": .string(next.photo.label)]
        }
        context["previous"] = neighbour(index - 1)
        context["next"] = neighbour(index + 1)
        context["back"] = [
            "href": .string(SitePath.url(from: path, to: Self.galleryPath(album: album.sitePath, page: galleryPage)) + "#tile-\(tileIndex)"),
            "title": .string(album.title),
        ]
        context["share"] = share(trail)?.value(page: path, title: photo.label, description: photo.caption?.description,
                                               image: view, imageAlt: photo.label) ?? .null
        return try render("photo", context)
    }

    // MARK: - Shared

    /// The link-preview tags' maker, when the site has a base URL; the site's title is the trail's first.
    private func share(_ trail: [(title: String, path: String)]) -> ShareTags? {
        configuration.baseURL.map { ShareTags(baseURL: $0, siteTitle: trail.first?.title ?? "") }
    }

    private func common(page: String, title: String, trail: [(title: String, path: String)]) -> [String: TemplateValue] {
        let crumbs: [TemplateValue] = trail.enumerated().map { position, crumb in
            ["title": .string(crumb.title), "href": .string(SitePath.url(from: page, to: crumb.path)),
             "current": .bool(position == trail.count - 1)]
        }
        return [
            "language": "en",
            "generator": .string("Waterfall \(WaterfallCLI.version)"),
            "title": .string(title),
            "siteTitle": .string(trail.first?.title ?? title),
            "breadcrumbs": .list(crumbs),
            "hasBreadcrumbs": .bool(crumbs.count > 1),
            "assets": .string(SitePath.url(from: page, to: "assets/x").dropLast(1).description),
            "footerText": .string(configuration.footerText),
        ]
    }

    private static func board(_ sizes: [Size], _ configuration: SiteConfiguration) throws(BuildError) -> BoardStyle {
        do {
            let items = try SizedItems(displaySizes: sizes)
            let layout = try ResponsiveLayout(bands: configuration.layoutBands,
                                              configuration: configuration.layoutConfiguration, items: items)
            return BoardStyle(layout: layout, aspectRatios: items.aspectRatios, footerHeight: configuration.footerHeight)
        } catch {
            throw BuildError("layout: \(error)")
        }
    }

    private func render(_ template: String, _ context: [String: TemplateValue]) throws(BuildError) -> String {
        do {
            return try templates.render(name: template, value: .object(context))
        } catch {
            throw BuildError("\(error)")
        }
    }

    static func count(_ photos: Int) -> String {
        photos == 0 ? "No photos" : photos == 1 ? "1 photo" : "\(photos) photos"
    }
}
