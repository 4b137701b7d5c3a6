/// A photo with its derived images, ready for the page.
struct PublishedPhoto: Sendable {
    /// The photo, which nothing changes once it is published, held by reference: the album tree, the
    /// sort, the names and the pages each copy 100,000 of these, and a copy is then a handful of
    /// reference counts instead of one for each of the photo's strings.
    var photo: Photo { box.photo }
    private let box: PhotoBox
    /// Tile images, smallest first, then the view image.
    var images: [DerivedFile]
    /// Its page in the site (`ALBUM/photos/NAME.html`), and where its original goes when originals are
    /// published (`ALBUM/originals/NAME`): given by `SiteNames`.
    var page = ""
    var original = ""

    init(photo: Photo, images: [DerivedFile]) {
        box = PhotoBox(photo)
        self.images = images
    }

    /// The fallback's tile images (JPEG or PNG), smallest first.
    var tiles: [DerivedFile] { tiles(in: .jpeg) }
    /// The fallback's view image.
    var view: DerivedFile { images.first { $0.role == .view && $0.delivery == .jpeg }! }

    /// The full-size image (`zoomSize`), when the photo has one.
    var zoom: DerivedFile? { images.first { $0.role == .zoom } }

    /// A video's published file.
    var video: DerivedFile? { photo.header.isVideo ? images.first { $0.role == .video } : nil }

    /// A Live Photo's still: its video's published file, which its page plays on demand.
    var motion: DerivedFile? { photo.header.isVideo ? nil : images.first { $0.role == .video } }

    /// The original, when it is published (from the store, where it was taken from the photo's one open).
    var originalFile: DerivedFile? { images.first { $0.role == .original } }

    func tiles(in format: DeliveryFormat) -> [DerivedFile] { images.filter { $0.role == .tile && $0.delivery == format } }
    func view(in format: DeliveryFormat) -> DerivedFile? { images.first { $0.role == .view && $0.delivery == format } }

    /// The images a photo page may show in the view's place, in one format, narrowest first: the tiles
    /// narrower than the view (the same picture, at the widths a phone needs), then the view. An animation's
    /// view alone: its tiles are stills.
    func viewSet(in format: DeliveryFormat) -> [DerivedFile] {
        guard let view = view(in: format) else { return [] }
        guard !photo.header.isAnimated else { return [view] }
        return tiles(in: format).filter { $0.width < view.width } + [view]
    }
}

/// A published photo's `Photo`, held by reference.
private final class PhotoBox: Sendable {
    let photo: Photo

    init(_ photo: Photo) { self.photo = photo }
}
