/// The `share` value a page's head turns into Open Graph and Twitter card tags (`share.mustache`), and
/// the feed link. Present only when the site has a base URL: previews need absolute URLs.
struct ShareTags {
    var baseURL: BaseURL
    var siteTitle: String

    /// One page's tags. `image` is a view image (the photo's, or the album cover's): the largest the site
    /// has, which is what `summary_large_image` cards want; its width and height are its real pixels.
    func value(page: String, title: String, description: String?, image: PhotoPageInputs.Image?, imageAlt: String) -> TemplateValue {
        [
            // "website" on every page: og:type "article" promises article:* facts (author, published
            // time) a photo page does not have, and Open Graph has no type for a single photo.
            "type": "website",
            "title": .string(title),
            "siteName": .string(siteTitle),
            "description": description.map { .string($0) } ?? .null,
            "url": .string(baseURL.absolute(page)),
            "image": image.map { image in
                ["url": .string(baseURL.absolute(image.path)), "width": .int(image.width), "height": .int(image.height),
                 "alt": .string(imageAlt)]
            } ?? .null,
            "feed": .string(SitePath.url(from: page, to: AtomFeed.path)),
        ]
    }
}
