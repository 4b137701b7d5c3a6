/// `feed.atom`: the newest photos of the whole site (RFC 4287).
///
/// Order: photos with an EXIF date taken, newest first; then those without one, in natural name order
/// (their file times are not used: a fresh checkout would reorder the feed). Ties by path, so the same
/// input always gives the same feed. Every date comes from the photos, never from the clock.
struct AtomFeed {
    static let path = "feed.atom"
    /// Entries in the feed: what readers show, without making the file grow with the gallery.
    static let entryLimit = 50
    /// What an undated photo's entry says: Atom requires a date, and this one never changes.
    static let undated = "1970-01-01T00:00:00Z"

    var baseURL: BaseURL
    var siteTitle: String

    func document(photos: [PublishedPhoto]) -> String {
        let entries = Self.newest(photos)
        let updated = entries.first.map(Self.updated) ?? Self.undated
        var xml = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n" + #"<feed xmlns="http://www.w3.org/2005/Atom">"# + "\n"
        xml += "<title>\(XMLText.escape(siteTitle))</title>\n"
        xml += "<id>\(XMLText.escape(baseURL.text))</id>\n"
        xml += #"<link rel="self" type="application/atom+xml" href="\#(XMLText.escape(baseURL.absolute(Self.path)))"/>"# + "\n"
        xml += #"<link rel="alternate" type="text/html" href="\#(XMLText.escape(baseURL.absolute("index.html")))"/>"# + "\n"
        xml += "<updated>\(updated)</updated>\n"
        // Atom requires an author for a feed whose entries name none: the site.
        xml += "<author><name>\(XMLText.escape(siteTitle))</name></author>\n"
        for photo in entries { xml += entry(photo) }
        return xml + "</feed>\n"
    }

    private func entry(_ published: PublishedPhoto) -> String {
        let page = XMLText.escape(baseURL.absolute(published.page))
        return "<entry>\n"
            + "<title>\(XMLText.escape(published.photo.label))</title>\n"
            + "<id>\(page)</id>\n"
            + #"<link rel="alternate" type="text/html" href="\#(page)"/>"# + "\n"
            + "<updated>\(Self.updated(published))</updated>\n"
            + #"<content type="html">\#(XMLText.escape(content(published)))</content>"# + "\n"
            + "</entry>\n"
    }

    /// The entry's HTML (escaped again for the XML around it): the view image and the caption.
    private func content(_ published: PublishedPhoto) -> String {
        let view = published.view
        var html = #"<p><img src="\#(XMLText.escape(baseURL.absolute(view.path)))" width="\#(view.width)" "#
            + #"height="\#(view.height)" alt="\#(XMLText.escape(published.photo.label))"></p>"#
        if let description = published.photo.caption?.description {
            html += "<p>\(XMLText.escape(description))</p>"
        }
        return html
    }

    /// The newest photos, in feed order.
    static func newest(_ photos: [PublishedPhoto]) -> [PublishedPhoto] {
        let byName = NaturalOrder.sorted(photos, by: { $0.photo.name })
        // Each date read once, before sorting: reading it inside the comparator crashes Swift 6.3.1's
        // optimiser (release builds, CopyPropagation's ownership check).
        let dated = byName.enumerated().map { (offset: $0.offset, element: $0.element, taken: $0.element.photo.taken) }
        let ranked = dated.sorted { a, b in
            switch (a.taken, b.taken) {
            case let (x?, y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.offset < b.offset
            }
        }
        return ranked.prefix(entryLimit).map(\.element)
    }

    /// RFC 3339 from the date taken. The cache keeps the camera's clock reading without its UTC offset,
    /// so it is written as UTC: stable, if up to a day off for a reader who compares it with the clock.
    static func updated(_ published: PublishedPhoto) -> String {
        guard let taken = published.photo.taken else { return undated }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let (date, time) = (taken / 1_000_000, taken % 1_000_000)
        let year = String(date / 10_000)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(date / 100 % 100) + "-" + two(date % 100)
            + "T" + two(time / 10_000) + ":" + two(time / 100 % 100) + ":" + two(time % 100) + "Z"
    }
}
