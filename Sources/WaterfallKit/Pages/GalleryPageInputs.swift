/// Everything a gallery page shows, gathered before it is rendered: its tiles (photos, and on the first page
/// the sub-albums' covers), the album's words and the pager. The page is made from this value, the theme and
/// the site-wide settings alone (`SitePages.galleryDigest`, which holds the layout's settings: the board is
/// laid out from the tiles' sizes), so an unchanged digest means an unchanged page. The same value decides
/// and renders (`SitePages.render`); a new field here is a new line in `digest` (PageInputsTests fails until
/// it is).
struct GalleryPageInputs {
    struct Image: Equatable {
        var path: String
        var width: Int
    }

    struct Tile {
        /// The page the tile opens: a photo page, or a sub-album's first page.
        var href: String
        /// The fallback tile images, smallest first, and the other formats' as `<source>`s.
        var images: [Image]
        var sources: [(type: String, images: [Image])]
        /// The photo's display size: the tile's box on the board.
        var width: Int
        var height: Int
        var alt: String
        var caption: String?
        var color: String?
        /// The photo's sketch, inlined where the tile is on a first screen.
        var sketch: Sketch?
        var name: String
        /// A sub-album's title and its photo count, for its cover tile.
        var album: (title: String, count: String)?
        /// A video's tile: its duration (`0:07`), nil when unknown; the play mark is drawn over the poster.
        var video: VideoMark?
        /// A Live Photo's still: the tile shows the still with a "Live" mark.
        var live = false
    }

    struct VideoMark: Equatable {
        var duration: String?
    }

    /// The album's archive of its originals (`zip`): where it is, how many photos it holds, its size.
    struct Download: Equatable, Sendable {
        var path: String
        var photos: Int
        var bytes: Int
    }

    var path: String
    var title: String
    var description: String?
    /// The description as safe HTML (sigal's `index.md`), shown unescaped in its place.
    var descriptionHTML: String? = nil
    var trail: [PhotoPageInputs.Link]
    var tiles: [Tile]
    var photoCount: String
    /// The album's folder in the site, the page's number and how many the album has.
    var albumPath: String
    var number: Int
    var pageCount: Int
    /// The album's cover view image and its words, for link previews.
    var cover: PhotoPageInputs.Image?
    var coverAlt: String
    /// The album's archive, on every one of its gallery pages; nil without one.
    var download: Download?

    func digest(site: ContentDigest) -> ContentDigest {
        var builder = DigestBuilder(capacity: 64 * (tiles.count + 4))
        builder.add(site)
        builder.add(path)
        builder.add(title)
        builder.add(description)
        builder.add(descriptionHTML)
        builder.add(trail.count)
        for crumb in trail {
            builder.add(crumb.path)
            builder.add(crumb.title)
        }
        builder.add(tiles.count)
        for tile in tiles { add(tile, to: &builder) }
        builder.add(photoCount)
        builder.add(albumPath)
        builder.add(number)
        builder.add(pageCount)
        builder.add(cover?.path)
        builder.add(cover?.width ?? -1)
        builder.add(cover?.height ?? -1)
        builder.add(coverAlt)
        builder.add(download?.path)
        builder.add(download?.photos ?? -1)
        builder.add(download?.bytes ?? -1)
        return builder.digest
    }

    private func add(_ tile: Tile, to builder: inout DigestBuilder) {
        builder.add(tile.href)
        add(tile.images, to: &builder)
        builder.add(tile.sources.count)
        for source in tile.sources {
            builder.add(source.type)
            add(source.images, to: &builder)
        }
        builder.add(tile.width)
        builder.add(tile.height)
        builder.add(tile.alt)
        builder.add(tile.caption)
        builder.add(tile.color)
        builder.add(tile.sketch?.base64)
        builder.add(tile.name)
        builder.add(tile.album?.title)
        builder.add(tile.album?.count)
        builder.add(tile.video == nil ? 0 : 1)
        builder.add(tile.video?.duration)
        builder.add(tile.live)
    }

    private func add(_ images: [Image], to builder: inout DigestBuilder) {
        builder.add(images.count)
        for image in images {
            builder.add(image.path)
            builder.add(image.width)
        }
    }
}
