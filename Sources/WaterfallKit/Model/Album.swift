/// An album: a folder of the input with photos in it or below it. The top folder is the root album.
struct Album: Sendable {
    /// Its folder relative to the input ("" for the top).
    var path: String
    /// Its folder in the site ("" for the top): usually `path`, but a folder named like a file the site
    /// writes (`photos`, `index.html`, …) or like another album on a case-insensitive file system gets
    /// another name (`SiteNames`).
    var sitePath: String
    var title: String
    var description: String?
    /// The description as safe HTML (an album's sigal `index.md`), shown in its place.
    var descriptionHTML: String?
    /// Its own photos, in gallery order.
    var photos: [PublishedPhoto]
    /// Its sub-albums, in natural folder-name order.
    var children: [Album]
    /// The photo on the album's tile: the `cover` its settings name, else its first photo, else the first
    /// sub-album's cover.
    var cover: PublishedPhoto?
    /// Photos and videos in the album and all its sub-albums.
    var totalPhotos: Int
    /// Of those, the videos.
    var totalVideos = 0

    /// Every album of the tree, depth first, this one first.
    var all: [Album] { [self] + children.flatMap(\.all) }

    /// Builds the album tree of `photos`, each album sorted by its own settings (or the top folder's).
    /// Folders are told apart byte for byte (two spellings of one name are two albums). A `cover` that names
    /// no photo of its album leaves the album's first photo the cover (`coverWarnings` says so).
    static func tree(of photos: [PublishedPhoto], configuration: SiteConfiguration, rootTitle: String,
                     settings: [[UInt8]: SiteConfiguration.AlbumSettings], jobs: Int = Parallelism.available) -> Album {
        var byAlbum: [[UInt8]: [PublishedPhoto]] = [:]
        var folders: [[UInt8]: String] = [[]: ""]
        var childrenOf: [[UInt8]: [String]] = [:]
        for photo in photos {
            byAlbum[Array(photo.photo.album.utf8), default: []].append(photo)
            var folder = photo.photo.album
            while !folder.isEmpty, folders.updateValue(folder, forKey: Array(folder.utf8)) == nil {
                childrenOf[Array(SitePath.folder(of: folder).utf8), default: []].append(folder)
                folder = SitePath.folder(of: folder)
            }
        }
        // Each album's photos put in order on every core (the albums are independent; sorting 100,000
        // names is most of the tree's work), each list moved out of `byAlbum`, not copied.
        var lists = byAlbum.map { (key: $0.key, photos: $0.value) }
        byAlbum = [:]
        lists.parallelUpdate(jobs: jobs) { list in
            let own = settings[list.key] ?? SiteConfiguration.AlbumSettings()
            list.photos = order(list.photos, by: own.sort ?? configuration.sort, reverse: own.reverse ?? configuration.reverse)
        }
        let ordered = Dictionary(uniqueKeysWithValues: lists.lazy.map { ($0.key, $0.photos) })
        lists = []
        func build(_ path: String) -> Album {
            let key = Array(path.utf8)
            let own = settings[key] ?? SiteConfiguration.AlbumSettings()
            let children = NaturalOrder.sorted(childrenOf[key] ?? [], by: { $0 }).map(build)
            let sorted = ordered[key] ?? []
            var cover = sorted.first ?? children.first?.cover
            if let name = own.cover, let named = photo(named: name, in: path, ordered) { cover = named }
            let folderName = String(path.split(separator: "/").last ?? "")
            return Album(path: path, sitePath: path,
                         title: own.title ?? (path.isEmpty ? configuration.title ?? rootTitle : folderName),
                         description: own.description ?? (path.isEmpty ? configuration.description : nil),
                         descriptionHTML: own.description == nil ? nil : own.descriptionHTML,
                         photos: sorted, children: children, cover: cover,
                         totalPhotos: sorted.count + children.reduce(0) { $0 + $1.totalPhotos },
                         totalVideos: sorted.count { $0.photo.header.isVideo } + children.reduce(0) { $0 + $1.totalVideos })
        }
        return build("")
    }

    /// The photo a `cover` names: a file of the album, or (as sigal's Thumbnail) a path into a sub-folder.
    private static func photo(named name: String, in album: String, _ ordered: [[UInt8]: [PublishedPhoto]]) -> PublishedPhoto? {
        let below = SitePath.folder(of: name), fileName = FolderPath.lastComponent(of: name)
        let folder = below.isEmpty ? album : SitePath.join(album, below)
        return ordered[Array(folder.utf8)]?.first { $0.photo.fileName == fileName }
    }

    /// One line for each album's settings whose `cover` names no photo of that album (their files named
    /// under `input`), in the albums' byte order. An album is a folder with photos in it or below it.
    static func coverWarnings(of photos: [PublishedPhoto], settings: [[UInt8]: SiteConfiguration.AlbumSettings],
                              input: String) -> [String] {
        let named = settings.filter { $0.value.cover != nil }
        guard !named.isEmpty else { return [] }
        var albums: Set<[UInt8]> = [[]]
        var names: Set<[UInt8]> = []  // every photo's path (a cover may name one in a sub-folder)
        for published in photos {
            var folder = published.photo.album
            names.insert(Array(SitePath.join(folder, published.photo.fileName).utf8))
            while !folder.isEmpty, albums.insert(Array(folder.utf8)).inserted { folder = SitePath.folder(of: folder) }
        }
        return named.sorted { $0.key.lexicographicallyPrecedes($1.key) }.compactMap { key, own in
            guard albums.contains(key), let name = own.cover, !names.contains(Array(SitePath.join(String(decoding: key, as: UTF8.self), name).utf8)) else { return nil }
            let path = String(decoding: key, as: UTF8.self)
            return "\(PathText.display(FolderPath.join(input, SitePath.join(path, "waterfall.json")))): 'cover' names \(PathText.display(name)), "
                + "which is not a photo of this album; its first photo is the cover"
        }
    }

    /// Name order is natural file-name order; date order is when taken (the file's time stamp when the photo
    /// does not say), ties broken by name so the order is stable.
    static func order(_ photos: [PublishedPhoto], by order: SiteConfiguration.SortOrder, reverse: Bool) -> [PublishedPhoto] {
        var sorted = NaturalOrder.sorted(photos, by: { $0.photo.fileName })
        if order == .date {
            // Ranked by position, not by name: two spellings of one name are two photos.
            sorted = sorted.enumerated().sorted { a, b in
                let (x, y) = (a.element.photo.dateKey, b.element.photo.dateKey)
                return x != y ? x < y : a.offset < b.offset
            }.map(\.element)
        }
        return reverse ? sorted.reversed() : sorted
    }
}
