/// Everything a photo page shows, gathered before it is rendered. The page is made from this value, the
/// theme and the site-wide settings alone (`SitePages.siteDigest`), so when their digest is the one the
/// output's records keep for the page, the page is the same and is not rendered again. The same value decides
/// and renders (`SitePages.render`); a new field here is a new line in `digest` (PageInputsTests fails until
/// it is).
struct PhotoPageInputs {
    struct Link: Equatable {
        var path: String
        var title: String
    }

    struct Image: Equatable {
        var path: String
        var width: Int
        var height: Int
    }

    var path: String
    var label: String
    var fileName: String
    var caption: Caption?
    var summary: String?
    var takenText: String?
    /// The fallback view image; the images that may stand in for it (`PublishedPhoto.viewSet`), and those of
    /// the other formats as `<source>`s (MIME type, images), the visitor's preference first.
    var view: Image
    var viewSet: [GalleryPageInputs.Image]
    var sources: [(type: String, images: [GalleryPageInputs.Image])]
    /// A video's page: the file it plays (the view image is its poster).
    var video: Video?
    /// A Live Photo's still: its video, which the page plays on demand over the still (duration unused).
    var motion: Video?

    struct Video: Equatable {
        var path: String
        var type: String
        var duration: String?
    }

    /// The placeholder colour: the view's, else the first tile's.
    var color: String?
    /// The still's sketch, shown in the view's place until the image arrives.
    var sketch: Sketch?
    /// The original, when originals are published: its path in the site, its size in bytes and its kind
    /// ("JPG", "HEIC"), for the download link.
    var original: Original?
    /// The largest picture a visitor can open, when it is larger than the view: the original when browsers
    /// show its format.
    var fullSize: Image?
    var previous: Link?
    var next: Link?
    /// The gallery page the photo's tile is on, and the album's title; the tile's number there.
    var back: Link
    var backTile: Int
    /// The breadcrumbs down to the album (the photo itself is added on the page).
    var trail: [Link]
    /// Its keywords' pages (`keywordPages`), in the keywords' index order.
    var keywords: [Link]
    /// The neighbours' view images (next, then previous), fetched ahead once this photo is in.
    var ahead: [Ahead]

    struct Original: Equatable {
        var path: String
        var bytes: Int
        var kind: String
    }

    /// A neighbour's view images as its page offers them: the view's width (for `sizes`), the fallback's
    /// set and the other formats'.
    struct Ahead {
        var width: Int
        var viewSet: [GalleryPageInputs.Image]
        var sources: [(type: String, images: [GalleryPageInputs.Image])]
    }

    func digest(site: ContentDigest) -> ContentDigest {
        var builder = DigestBuilder()
        builder.add(site)
        builder.add(path)
        builder.add(label)
        builder.add(fileName)
        builder.add(caption?.title)
        builder.add(caption?.description)
        builder.add(caption?.descriptionHTML)
        builder.add(summary)
        builder.add(takenText)
        add(view, to: &builder)
        add(viewSet, to: &builder)
        add(sources, to: &builder)
        builder.add(video?.path)
        builder.add(video?.type)
        builder.add(video?.duration)
        builder.add(motion?.path)
        builder.add(motion?.type)
        builder.add(motion?.duration)
        builder.add(color)
        builder.add(sketch?.base64)
        builder.add(original?.path)
        builder.add(original?.bytes)
        builder.add(original?.kind)
        builder.add(fullSize?.path)
        builder.add(fullSize?.width)
        builder.add(fullSize?.height)
        for link in [previous, next, back] as [Link?] {
            builder.add(link?.path)
            builder.add(link?.title)
        }
        builder.add(backTile)
        builder.add(trail.count)
        for crumb in trail {
            builder.add(crumb.path)
            builder.add(crumb.title)
        }
        builder.add(keywords.count)
        for keyword in keywords {
            builder.add(keyword.path)
            builder.add(keyword.title)
        }
        builder.add(ahead.count)
        for neighbour in ahead {
            builder.add(neighbour.width)
            add(neighbour.viewSet, to: &builder)
            add(neighbour.sources, to: &builder)
        }
        return builder.digest
    }

    private func add(_ image: Image, to builder: inout DigestBuilder) {
        builder.add(image.path)
        builder.add(image.width)
        builder.add(image.height)
    }

    private func add(_ sources: [(type: String, images: [GalleryPageInputs.Image])], to builder: inout DigestBuilder) {
        builder.add(sources.count)
        for source in sources {
            builder.add(source.type)
            add(source.images, to: &builder)
        }
    }

    private func add(_ images: [GalleryPageInputs.Image], to builder: inout DigestBuilder) {
        builder.add(images.count)
        for image in images {
            builder.add(image.path)
            builder.add(image.width)
        }
    }
}
