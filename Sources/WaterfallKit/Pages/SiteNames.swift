/// Gives every album, page, image and original its path in the site, before anything is written, so that
/// no two things can ever want one path:
///
/// - an album folder keeps its name unless it is one the site itself uses there (`index.html`,
///   `page-N.html`, `photos`, `images`, `originals`, and `assets` and `keywords` at the top) or another album took it;
/// - each photo's page (`photos/NAME.html`), derived images (`images/SIZE/NAME[.jpg|.png|.webp|.avif]`, every
///   format of a size in one folder) and original (`originals/NAME`) keep its file name, with the derived
///   format's extension added when the name does not already say it (`a.jpg` → `a.jpg.avif`, `a.png` →
///   `a.png.avif`: two photos never meet on `a.avif`), unless another photo of the album wants the same name
///   (an opaque `a.png` is published as `a.png.jpg`, which a real `a.png.jpg` beside it also wants; a real
///   `a.jpg.avif` and the AVIF of `a.jpg`; `A.jpg` and `a.jpg`; the NFC and NFD spellings of one name);
/// - a name over 255 bytes is shortened.
///
/// What gives way gets a stable `~` tag (`NameAllocator`); claims are made in a fixed order (byte order of
/// the input names, real names before derived ones), so the same input always gives the same site.
enum SiteNames {
    static func assign(_ root: inout Album, jobs: Int = Parallelism.available) {
        assignFolders(&root, folder: "", isTop: true)
        // Albums name their photos' files apart from one another: every album's photos at once, each
        // album's moved out of the tree and back (not copied).
        var albums: [(photos: [PublishedPhoto], folder: String)] = []
        takePhotos(&root, into: &albums)
        albums.parallelUpdate(jobs: jobs) { album in assignPhotos(&album.photos, folder: album.folder) }
        var named = albums.makeIterator()
        returnPhotos(&root, from: &named)
        fixCovers(&root)
    }

    private static func assignFolders(_ album: inout Album, folder: String, isTop: Bool) {
        album.sitePath = folder
        var folders = NameAllocator(reserving: isTop ? { isReservedAtTop($0) } : { isReserved($0) })
        for index in album.children.indices {
            let name = FolderPath.lastComponent(of: album.children[index].path)
            let claimed = folders.claim(stem: name, ext: "", identity: album.children[index].path)
            assignFolders(&album.children[index], folder: SitePath.join(folder, claimed), isTop: false)
        }
    }

    private static func takePhotos(_ album: inout Album, into albums: inout [(photos: [PublishedPhoto], folder: String)]) {
        albums.append((album.photos, album.sitePath))
        album.photos = []
        for index in album.children.indices { takePhotos(&album.children[index], into: &albums) }
    }

    private static func returnPhotos<Named: IteratorProtocol>(_ album: inout Album, from named: inout Named)
        where Named.Element == (photos: [PublishedPhoto], folder: String) {
        album.photos = named.next()!.photos
        for index in album.children.indices { returnPhotos(&album.children[index], from: &named) }
    }

    /// The cover is a copy of one of the tree's photos, made before they had their paths: the named one
    /// replaces it, children first (an album's cover may be its first child's).
    private static func fixCovers(_ album: inout Album) {
        for index in album.children.indices { fixCovers(&album.children[index]) }
        if let cover = album.cover {
            album.cover = album.all.lazy.flatMap(\.photos).first { BuildCache.sameBytes($0.photo.name, cover.photo.name) }
        }
    }

    private static func assignPhotos(_ photos: inout [PublishedPhoto], folder: String) {
        var pages = NameAllocator(), originals = NameAllocator()
        // Each photo's name, file name and its split once, not once per file it gets.
        let names = photos.map(\.photo.name)
        let fileNames = photos.map(\.photo.fileName)
        let split = fileNames.map(NameAllocator.split)
        let byName = photos.indices.sorted { ExactPath.precedes(names[$0], names[$1]) }
        let pageFolder = SitePath.join(folder, "photos/"), originalFolder = SitePath.join(folder, "originals/")
        for index in byName {
            let (stem, ext) = split[index]
            photos[index].page = pageFolder + pages.claim(stem: stem, ext: ext + ".html", identity: names[index])
            photos[index].original = originalFolder + originals.claim(stem: stem, ext: ext, identity: names[index])
        }
        // Derived images, folder by folder (`images/500`, `images/view`): names that are the photo's own
        // file name claim first, so a real `a.png.jpg` keeps its name and the `a.png` published as JPEG gives way.
        var claims: [(photo: Int, image: Int, added: Bool)] = []
        for index in byName {
            for (position, image) in photos[index].images.enumerated() {
                // The original published is at the original's path.
                if image.role == .original {
                    photos[index].images[position].path = photos[index].original
                    continue
                }
                // The photo's own name is the image's when it already says the image's format.
                claims.append((index, position, !image.format.isNamed(by: fileNames[index])))
            }
        }
        var folders: [String: NameAllocator] = [:]
        for claim in claims.filter({ !$0.added }) + claims.filter(\.added) {
            let (stem, ext) = split[claim.photo]
            let image = photos[claim.photo].images[claim.image]
            let added = claim.added ? image.format.fileExtension : ""
            let name = folders[image.size, default: NameAllocator()].claim(stem: stem, ext: ext + added, identity: names[claim.photo])
            photos[claim.photo].images[claim.image].path = SitePath.join(folder, "images/\(image.size)/" + name)
        }
    }

    /// Names an album folder cannot have, because the album's own files use them (folded, as `NameAllocator.fold`).
    static func isReserved(_ folded: String) -> Bool {
        ["index.html", "photos", "images", "originals"].contains(folded) || isPageName(folded)
    }

    static func isReservedAtTop(_ folded: String) -> Bool {
        // The feed, the sitemap and the keywords are reserved with or without them, so albums keep their paths.
        isReserved(folded) || ["assets", SitePath.stateFolder, AtomFeed.path, Sitemap.path, KeywordIndex.folder].contains(folded)
    }

    /// `page-2.html`, `page-10.html`, …: the names of later gallery pages.
    static func isPageName(_ name: String) -> Bool {
        guard name.hasPrefix("page-"), name.hasSuffix(".html") else { return false }
        let number = name.dropFirst(5).dropLast(5)
        return !number.isEmpty && number.allSatisfy(\.isASCIIDigit)
    }
}
