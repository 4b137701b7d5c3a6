/// The site's keywords (`keywordPages`): each one's pages (`keywords/NAME/index.html`, `page-N.html`) show its
/// photos in the site's order (albums depth first, each in its gallery order), and the index
/// (`keywords/index.html`) lists the keywords in natural order.
///
/// Keywords are one when they fold together as names do on a case-insensitive file system (case, and the
/// NFC and NFD spellings of one word): `Sunset`, `sunset` and `SUNSET` are one keyword, shown with its
/// first spelling in natural order (ties in code-point order), so the same input always gives the same
/// site. Its folder is that spelling, made safe for a path (`/`, `\` and control characters become `_`, a
/// leading `.` too), given out by `NameAllocator`: a name that clashes with another keyword's (`a/b` and
/// `a_b`) or with the index's own files gets the usual `~` tag.
struct KeywordIndex: Sendable {
    /// The site folder of every keyword page, reserved at the top of the site (`SiteNames`).
    static let folder = "keywords"

    /// A photo of the site: its album's place in `Album.all`, and its place in that album.
    struct PhotoPlace: Sendable, Equatable {
        var album: Int
        var photo: Int
    }

    struct Keyword: Sendable {
        /// The spelling shown.
        var title: String
        /// Its folder in the site (`keywords/Sunset`).
        var folder: String
        var photos: [PhotoPlace]
        /// Of those, the videos.
        var videos: Int
    }

    /// In natural order of their titles.
    private(set) var keywords: [Keyword] = []
    /// Each keyword's place in `keywords`, by its folded spelling.
    private var places: [String: Int] = [:]

    /// The keywords of `albums` (`Album.all` of the site's tree, photos named).
    init(_ albums: [Album]) {
        var titles: [String: String] = [:]  // by folded spelling: the first spelling in natural order
        var photos: [String: [PhotoPlace]] = [:]
        for (albumIndex, album) in albums.enumerated() {
            for (photoIndex, published) in album.photos.enumerated() {
                var seen: Set<String> = []
                for word in published.photo.keywords {
                    let key = Self.fold(word)
                    if let title = titles[key] {
                        // Code points, not canonical equivalence: the NFC and NFD spellings are told apart here.
                        if !title.unicodeScalars.elementsEqual(word.unicodeScalars), NaturalOrder.areInIncreasingOrder(word, title) {
                            titles[key] = word
                        }
                    } else {
                        titles[key] = word
                    }
                    if seen.insert(key).inserted { photos[key, default: []].append(PhotoPlace(album: albumIndex, photo: photoIndex)) }
                }
            }
        }
        let titled = titles.map { (key: $0.key, title: $0.value) }
        var names = NameAllocator(reserving: { $0 == "index.html" || SiteNames.isPageName($0) })
        for entry in NaturalOrder.sorted(titled, by: \.title) {
            let name = names.claim(stem: Self.safeName(entry.title), ext: "", identity: entry.title)
            places[entry.key] = keywords.count
            let places = photos[entry.key]!
            let videos = places.count { albums[$0.album].photos[$0.photo].photo.header.isVideo }
            keywords.append(Keyword(title: entry.title, folder: SitePath.join(Self.folder, name), photos: places, videos: videos))
        }
    }

    /// The keywords of `photo` that have pages, in the index's order (each once), as links to their first pages.
    func links(for photo: Photo) -> [PhotoPageInputs.Link] {
        let found = Set(photo.keywords.compactMap { places[Self.fold($0)] })
        return found.sorted().map { .init(path: Self.galleryPath(keywords[$0].folder, page: 1), title: keywords[$0].title) }
    }

    /// The key keywords are told apart by: as a case-insensitive file system compares names (Swift's `String`
    /// compares and hashes the NFC and NFD spellings of a word as one).
    static func fold(_ word: String) -> String { NameAllocator.fold(word) }

    /// A keyword as a folder name: no separator, control character or leading dot (`..`, `.hidden`).
    static func safeName(_ word: String) -> String {
        var name = String(String.UnicodeScalarView(word.unicodeScalars.map { scalar in
            scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F ? "_" : scalar
        }))
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        return name.isEmpty ? "_" : name
    }

    static func galleryPath(_ folder: String, page: Int) -> String { SitePages.galleryPath(album: folder, page: page) }
}
