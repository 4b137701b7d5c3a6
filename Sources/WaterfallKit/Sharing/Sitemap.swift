/// `sitemap.xml`: every page of the site (gallery pages, later pages included, and photo pages) by its
/// absolute URL, in the order the site renders them. No `lastmod`: the build knows no honest one.
struct Sitemap {
    static let path = "sitemap.xml"

    var baseURL: BaseURL

    func document(pages: [String]) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"# + "\n"
        for page in pages {
            xml += "<url><loc>" + XMLText.escape(baseURL.absolute(page)) + "</loc></url>\n"
        }
        return xml + "</urlset>\n"
    }
}
