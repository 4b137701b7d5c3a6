/// The files a base URL adds to the site: the Atom feed and the sitemap. Without one, none: the build
/// plans no such path, so a rebuild without it removes those of the last build through the manifest.
struct SharingFiles {
    var baseURL: BaseURL?
    var root: Album

    /// Known before anything is written, for the writer's plan.
    var paths: [String] { baseURL == nil ? [] : [AtomFeed.path, Sitemap.path] }

    /// Each file's text, made when the writer is ready for it.
    func documents(pages: [String]) -> [(path: String, text: String)] {
        guard let baseURL else { return [] }
        let photos = root.all.flatMap(\.photos)
        return [
            (AtomFeed.path, AtomFeed(baseURL: baseURL, siteTitle: root.title).document(photos: photos)),
            (Sitemap.path, Sitemap(baseURL: baseURL).document(pages: pages)),
        ]
    }
}
