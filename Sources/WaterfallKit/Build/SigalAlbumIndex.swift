/// sigal's album `index.md` files folded into the albums' settings: each field an album's `waterfall.json`
/// (or, for the top album, the build's settings) leaves unset. A Thumbnail that names no photo of the album
/// or its sub-folders is left out with a line (sigal then takes its own pick).
enum SigalAlbumIndex {
    static func apply(_ indexes: [[UInt8]: (settings: SiteConfiguration.AlbumSettings, file: String)],
                      to settings: inout [[UInt8]: SiteConfiguration.AlbumSettings], configuration: SiteConfiguration,
                      photos: [ScannedFile], warn: (String) -> Void) {
        guard !indexes.isEmpty else { return }
        let names = Set(photos.map { Array($0.name.utf8) })
        for (folder, index) in indexes.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            var own = settings[folder] ?? SiteConfiguration.AlbumSettings()
            let isTop = folder.isEmpty
            if own.title == nil && !(isTop && configuration.title != nil) { own.title = index.settings.title }
            if own.description == nil && !(isTop && configuration.description != nil) {
                own.description = index.settings.description
                own.descriptionHTML = index.settings.descriptionHTML
            }
            if own.cover == nil, let cover = index.settings.cover {
                let path = SitePath.join(String(decoding: folder, as: UTF8.self), cover)
                if SitePath.isSafeRelativePath(path) && names.contains(Array(path.utf8)) {
                    own.cover = cover
                } else {
                    warn("\(PathText.display(index.file)): its Thumbnail \(PathText.display(cover)) is not a photo of the album; "
                         + "its first photo is the cover")
                }
            }
            if own != SiteConfiguration.AlbumSettings() { settings[folder] = own }
        }
    }
}
