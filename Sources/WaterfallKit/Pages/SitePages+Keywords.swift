/// The keyword pages (`keywordPages`): the index of the keywords, a waterfall of one tile per keyword as an
/// album's sub-albums are shown, and each keyword's pages, a waterfall of its photos as an album's, their
/// tiles linking to the photos' own pages. Made from the same gallery page inputs and template as albums.
extension SitePages {
    /// The keyword pages, in the order `paths` lists them: the index's, then each keyword's.
    func keywordPages() -> [PageToMake] {
        guard let keywords, !keywords.keywords.isEmpty else { return [] }
        let count = pages(keywords.keywords.count)
        var pages = (1...count).map { PageToMake(album: 0, kind: .keywords(number: $0, count: count)) }
        for (index, keyword) in keywords.keywords.enumerated() {
            let count = self.pages(keyword.photos.count)
            pages += (1...count).map { PageToMake(album: 0, kind: .keyword(index, number: $0, count: count)) }
        }
        return pages
    }

    func keywordPath(_ kind: PageToMake.Kind) -> String {
        switch kind {
        case .keywords(let number, _): Self.galleryPath(album: KeywordIndex.folder, page: number)
        case .keyword(let index, let number, _): Self.galleryPath(album: keywords!.keywords[index].folder, page: number)
        case .gallery, .photo: preconditionFailure("not a keyword page")
        }
    }

    /// Page `number` of the keywords' index: a tile per keyword (its first photo's), with its photo count.
    func keywordIndexInputs(number: Int, of count: Int, albums: [(album: Album, trail: [Crumb])],
                            labels: [[String]]) -> GalleryPageInputs {
        let keywords = self.keywords!.keywords
        let shown = keywords.indices.dropFirst((number - 1) * configuration.perPage).prefix(configuration.perPage)
        let tiles = shown.map { index -> GalleryPageInputs.Tile in
            let keyword = keywords[index]
            let first = keyword.photos[0]
            var tile = self.tile(albums[first.album].album.photos[first.photo], alt: keyword.title)
            tile.href = Self.galleryPath(album: keyword.folder, page: 1)
            tile.album = (keyword.title, Self.count(keyword.photos.count, videos: keyword.videos))
            tile.caption = nil
            tile.video = nil
            return tile
        }
        let first = keywords[0].photos[0]
        return inputs(path: Self.galleryPath(album: KeywordIndex.folder, page: number), title: Self.indexTitle,
                      trail: indexTrail(albums), tiles: tiles, count: keywords.count == 1 ? "1 keyword" : "\(keywords.count) keywords",
                      number: number, of: count, cover: albums[first.album].album.photos[first.photo], coverAlt: keywords[0].title)
    }

    /// Page `number` of keyword `index`'s photos.
    func keywordInputs(_ index: Int, number: Int, of count: Int, albums: [(album: Album, trail: [Crumb])],
                       labels: [[String]]) -> GalleryPageInputs {
        let keyword = keywords!.keywords[index]
        let shown = keyword.photos.dropFirst((number - 1) * configuration.perPage).prefix(configuration.perPage)
        let tiles = shown.map { tile(albums[$0.album].album.photos[$0.photo], alt: labels[$0.album][$0.photo]) }
        let first = keyword.photos[0]
        let trail = indexTrail(albums) + [Crumb(title: keyword.title, path: Self.galleryPath(album: keyword.folder, page: 1))]
        return inputs(path: Self.galleryPath(album: keyword.folder, page: number), title: keyword.title, trail: trail, tiles: tiles,
                      count: Self.count(keyword.photos.count, videos: keyword.videos), number: number, of: count,
                      cover: albums[first.album].album.photos[first.photo], coverAlt: labels[first.album][first.photo])
    }

    /// The index's title and breadcrumb.
    static let indexTitle = "Keywords"

    private func indexTrail(_ albums: [(album: Album, trail: [Crumb])]) -> [Crumb] {
        albums[0].trail + [Crumb(title: Self.indexTitle, path: Self.galleryPath(album: KeywordIndex.folder, page: 1))]
    }

    private func inputs(path: String, title: String, trail: [Crumb], tiles: [GalleryPageInputs.Tile], count: String,
                        number: Int, of pageCount: Int, cover: PublishedPhoto, coverAlt: String) -> GalleryPageInputs {
        GalleryPageInputs(
            path: path, title: title, description: nil, trail: trail.map { .init(path: $0.path, title: $0.title) }, tiles: tiles,
            photoCount: count, albumPath: SitePath.folder(of: path), number: number, pageCount: pageCount,
            cover: .init(path: cover.view.path, width: cover.view.width, height: cover.view.height), coverAlt: coverAlt, download: nil)
    }

    /// How many gallery pages `items` tiles take.
    private func pages(_ items: Int) -> Int { max(1, (items + configuration.perPage - 1) / configuration.perPage) }
}
