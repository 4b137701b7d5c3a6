/// Every page's inputs digest, fed straight from the album into the digest: the same bytes, in the same
/// order, as `PhotoPageInputs.digest` and `GalleryPageInputs.digest` of the inputs `render` would make, but
/// without making them. A rebuild of 100,000 photos digests 101,000 pages and renders none, and making their
/// inputs (lists of tiles, links and images, each a copy) only to digest them was a seventh of its CPU time.
/// Debug builds check each digest against the inputs' own (`render`), so a field added to the inputs and
/// not here is caught by any test that builds a site.
extension SitePages {
    /// `photoPageInputs(album, index:, trail:).digest(site: siteDigest)`; `labels` are the album's photos'
    /// labels (each is on three photo pages and a gallery page: made once, not four times).
    func photoPageDigest(_ album: Album, index: Int, trail: [Crumb], labels: [String]) -> ContentDigest {
        var builder = DigestBuilder()
        builder.add(siteDigest)
        let published = album.photos[index]
        let photo = published.photo
        builder.add(published.page)
        builder.add(labels[index])
        builder.add(photo.fileName)
        builder.add(photo.caption?.title)
        builder.add(photo.caption?.description)
        builder.add(photo.facts.summary)
        builder.add(photo.facts.takenText)
        let view = published.view
        builder.add(view.path)
        builder.add(view.width)
        builder.add(view.height)
        Self.addImages(published.viewSet(in: .jpeg), to: &builder)
        // Each format's set once: a rebuild digests every photo page.
        let sources = configuration.formats.compactMap { format in
            format.mimeType.map { ($0, published.viewSet(in: format)) }
        }.filter { !$0.1.isEmpty }
        builder.add(sources.count)
        for (type, files) in sources {
            builder.add(type)
            Self.addImages(files, to: &builder)
        }
        let video = published.video
        builder.add(video?.path)
        builder.add(video.map(Self.mimeType))
        builder.add(video == nil ? nil : photo.header.video?.durationText)
        builder.add((view.averageColor ?? Self.firstTile(published)?.averageColor)?.hex)
        builder.add(Self.viewSketch(published)?.base64)
        builder.add(configuration.originals == .none ? nil : Optional(published.original))
        for other in [index - 1, index + 1] {
            let neighbour = album.photos.indices.contains(other) ? album.photos[other] : nil
            builder.add(neighbour?.page)
            builder.add(neighbour.map { _ in labels[other] })
        }
        let galleryPage = index / configuration.perPage + 1
        builder.add(Optional(Self.galleryPath(album: album.sitePath, page: galleryPage)))
        builder.add(Optional(album.title))
        builder.add((galleryPage == 1 ? album.children.count { $0.cover != nil } : 0) + index % configuration.perPage)
        add(trail, to: &builder)
        return builder.digest
    }

    /// `galleryInputs(album, number:, of:, trail:).digest(site: galleryDigest)`; `labels` as for a photo page.
    func galleryPageDigest(_ album: Album, number: Int, of pageCount: Int, trail: [Crumb], labels: [String]) -> ContentDigest {
        let photos = album.photos.dropFirst((number - 1) * configuration.perPage).prefix(configuration.perPage)
        let covers = number == 1 ? album.children.count { $0.cover != nil } : 0
        var builder = DigestBuilder(capacity: 64 * (covers + photos.count + 4))
        builder.add(galleryDigest)
        builder.add(Self.galleryPath(album: album.sitePath, page: number))
        builder.add(album.title)
        builder.add(album.description)
        add(trail, to: &builder)
        builder.add(covers + photos.count)
        if covers > 0 {
            for child in album.children {
                guard let cover = child.cover else { continue }
                addTile(cover, href: Self.galleryPath(album: child.sitePath, page: 1), alt: child.title, caption: nil,
                        album: (child.title, Self.count(child.totalPhotos)), to: &builder)
            }
        }
        for (photo, label) in zip(photos, labels[photos.indices]) {
            addTile(photo, href: photo.page, alt: label, caption: photo.photo.caption?.title, album: nil, to: &builder)
        }
        builder.add(Self.count(album.totalPhotos))
        builder.add(album.sitePath)
        builder.add(number)
        builder.add(pageCount)
        let cover = album.cover.map(\.view)
        builder.add(cover?.path)
        builder.add(cover?.width ?? -1)
        builder.add(cover?.height ?? -1)
        builder.add(album.cover?.photo.label ?? "")
        return builder.digest
    }

    /// A tile as `GalleryPageInputs.digest` adds it.
    private func addTile(_ published: PublishedPhoto, href: String, alt: String, caption: String?,
                         album: (title: String, count: String)?, to builder: inout DigestBuilder) {
        builder.add(href)
        Self.addTiles(of: published, in: .jpeg, to: &builder)
        builder.add(configuration.formats.count { $0.mimeType != nil && Self.hasTiles(published, in: $0) })
        for format in configuration.formats {
            guard let type = format.mimeType, Self.hasTiles(published, in: format) else { continue }
            builder.add(type)
            Self.addTiles(of: published, in: format, to: &builder)
        }
        builder.add(published.photo.header.width)
        builder.add(published.photo.header.height)
        builder.add(alt)
        builder.add(caption)
        builder.add(Self.firstTile(published)?.averageColor?.hex)
        builder.add(Self.firstTile(published)?.sketch?.base64)
        builder.add(published.photo.fileName)
        builder.add(album?.title)
        builder.add(album?.count)
        // A cover tile is the album's, never a video's.
        let video = album == nil ? published.photo.header.video : nil
        builder.add(video == nil ? 0 : 1)
        builder.add(video?.durationText)
    }

    /// The photo's tile images in `format` (smallest first) as a list of paths and widths.
    private static func addTiles(of published: PublishedPhoto, in format: DeliveryFormat, to builder: inout DigestBuilder) {
        builder.add(published.images.count { $0.role == .tile && $0.delivery == format })
        for image in published.images where image.role == .tile && image.delivery == format {
            builder.add(image.path)
            builder.add(image.width)
        }
    }

    private static func hasTiles(_ published: PublishedPhoto, in format: DeliveryFormat) -> Bool {
        published.images.contains { $0.role == .tile && $0.delivery == format }
    }

    /// Images as `PhotoPageInputs` adds a list of them.
    private static func addImages(_ files: [DerivedFile], to builder: inout DigestBuilder) {
        builder.add(files.count)
        for file in files {
            builder.add(file.path)
            builder.add(file.width)
        }
    }

    /// The fallback's smallest tile (`tiles[0]`), without the list.
    private static func firstTile(_ published: PublishedPhoto) -> DerivedFile? {
        published.images.first { $0.role == .tile && $0.delivery == .jpeg }
    }

    private func add(_ trail: [Crumb], to builder: inout DigestBuilder) {
        builder.add(trail.count)
        for crumb in trail {
            builder.add(crumb.path)
            builder.add(crumb.title)
        }
    }
}
