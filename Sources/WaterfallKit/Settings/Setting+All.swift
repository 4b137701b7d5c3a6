/// Every setting, in the order the docs list them.
extension Setting {
    static let all: [Setting] = words + layout + images + site

    private static let words: [Setting] = [
        Setting(key: "title", kind: "string", about: "the page title", range: "", defaultText: { $0.title ?? "the folder's name" },
                flag: ("--title", "T"), album: true) { reader, value, configuration throws(SettingProblem) in
            configuration.title = try reader.string(value, "title")
        },
        Setting(key: "description", kind: "string", about: "words under the title", range: "",
                defaultText: { $0.description ?? "none" }, album: true) { reader, value, configuration throws(SettingProblem) in
            configuration.description = try reader.string(value, "description")
        },
    ]

    private static let layout: [Setting] = [
        Setting(key: "bands", kind: "list of `{\"minWidth\", \"columns\", \"columnSpacing\"?, \"rowSpacing\"?}`",
                about: "columns by board width",
                range: "1–\(SettingLimits.bandCount) bands; `minWidth` \(text(SettingLimits.minWidth)) px, "
                    + "`columns` \(text(SettingLimits.columns)), spacing as below",
                defaultText: { configuration in
                    let bands = configuration.bands.sorted { $0.minWidth < $1.minWidth }
                    let words = bands.indices.map { index in
                        (index == 0 ? "\(bands[index].columns) columns" : "\(bands[index].columns)")
                            + (index + 1 < bands.count ? " under \(bands[index + 1].minWidth.readable)" + (index == 0 ? " px" : "") : " above")
                    }
                    return words.joined(separator: ", ") + ": `["
                        + bands.map { "{\"minWidth\": \($0.minWidth.readable), \"columns\": \($0.columns)}" }.joined(separator: ", ") + "]`"
                }) { reader, value, configuration throws(SettingProblem) in
            configuration.bands = try reader.bands(value, "bands")
        },
        Setting(key: "columnSpacing", kind: "number (px)", about: "the gap between columns", range: text(SettingLimits.spacing),
                defaultText: { $0.columnSpacing.readable }, flag: ("--column-spacing", "G")) { reader, value, configuration throws(SettingProblem) in
            configuration.columnSpacing = try reader.length(value, "columnSpacing")
        },
        Setting(key: "rowSpacing", kind: "number (px)", about: "the gap between the tiles of a column", range: text(SettingLimits.spacing),
                defaultText: { $0.rowSpacing.readable }, flag: ("--row-spacing", "R")) { reader, value, configuration throws(SettingProblem) in
            configuration.rowSpacing = try reader.length(value, "rowSpacing")
        },
        Setting(key: "insets", kind: "number, or `[top, left, bottom, right]` (px)",
                about: "the space around the tiles (`T,L,B,R` or one number on the command line)",
                range: "\(text(SettingLimits.spacing)) each", defaultText: { $0.insets.top.readable },
                flag: ("--insets", "T,L,B,R")) { reader, value, configuration throws(SettingProblem) in
            configuration.insets = try reader.insets(value, "insets")
        },
        Setting(key: "footerHeight", kind: "number (px)", about: "the footer's height under the tallest column",
                range: text(SettingLimits.footerHeight), defaultText: { $0.footerHeight.readable },
                flag: ("--footer-height", "F")) { reader, value, configuration throws(SettingProblem) in
            configuration.footerHeight = try reader.length(value, "footerHeight", in: SettingLimits.footerHeight)
        },
        Setting(key: "flowTolerance", kind: "number (px)",
                about: "columns within this of the shortest count as tied, and the leftmost is taken (see the layout rules)",
                range: text(SettingLimits.flowTolerance), defaultText: { $0.flowTolerance.readable },
                flag: ("--flow-tolerance", "T")) { reader, value, configuration throws(SettingProblem) in
            configuration.flowTolerance = try reader.length(value, "flowTolerance", in: SettingLimits.flowTolerance)
        },
        Setting(key: "placement", kind: "`\"balanced\"`, `\"shortest\"` or `\"round-robin\"`",
                about: "how tiles are shared out to the columns: balanced levels the columns' ends by placing the last "
                    + "2 rows and 4 tiles again; shortest: each tile to the shortest column; round-robin: tile i to column i mod C",
                range: "", defaultText: { "`\"\($0.placement.name)\"`" },
                flag: ("--placement", "P")) { reader, value, configuration throws(SettingProblem) in
            let name = try reader.string(value, "placement")
            guard let placement = PlacementPolicy.named(name) else {
                throw reader.fail("placement", "must be 'balanced', 'shortest' or 'round-robin' (got '\(name)')")
            }
            configuration.placement = placement
        },
        Setting(key: "bottom", kind: "`\"natural\"` or `\"flush\"`",
                about: "natural: every tile at its photo's shape; flush: each column's last tile cropped (centred) so that "
                    + "every column ends on one line", range: "", defaultText: { "`\"\($0.bottom.rawValue)\"`" },
                flag: ("--bottom", "B")) { reader, value, configuration throws(SettingProblem) in
            configuration.bottom = try reader.choice(value, "bottom", SiteConfiguration.BottomSetting.allCases.map { ($0.rawValue, $0) })
        },
        Setting(key: "maxCrop", kind: "number",
                about: "with a flush bottom, the most of a reshaped tile's picture that may be cropped away (where that "
                    + "cannot level a band, its end stays natural)",
                range: text(SettingLimits.maxCrop), defaultText: { $0.maxCrop.readable },
                flag: ("--max-crop", "S")) { reader, value, configuration throws(SettingProblem) in
            configuration.maxCrop = try reader.number(value, "maxCrop", in: SettingLimits.maxCrop)
        },
        Setting(key: "footerText", kind: "string", about: "", range: "", defaultText: { "`\($0.footerText)`" }) {
            reader, value, configuration throws(SettingProblem) in
            configuration.footerText = try reader.string(value, "footerText")
        },
        Setting(key: "sort", kind: "`\"name\"` or `\"date\"`", about: "", range: "", defaultText: { "`\"\($0.sort.rawValue)\"`" },
                album: true) { reader, value, configuration throws(SettingProblem) in
            configuration.sort = try reader.choice(value, "sort", SiteConfiguration.SortOrder.allCases.map { ($0.rawValue, $0) })
        },
        Setting(key: "reverse", kind: "boolean", about: "", range: "", defaultText: { "\($0.reverse)" },
                album: true) { reader, value, configuration throws(SettingProblem) in
            configuration.reverse = try reader.bool(value, "reverse")
        },
    ]

    private static let images: [Setting] = [
        Setting(key: "maxPixels", kind: "whole number", about: "photos claiming more pixels are skipped, before anything is decoded",
                range: text(SettingLimits.maxPixels), defaultText: { "\($0.maxPixels)" },
                flag: ("--max-pixels", "N")) { reader, value, configuration throws(SettingProblem) in
            configuration.maxPixels = try reader.integer(value, "maxPixels", in: SettingLimits.maxPixels)
        },
        Setting(key: "tileWidth", kind: "whole number",
                about: "width of the 1× tile image, made at each density (instead of the layout's widths)",
                range: "\(text(SettingLimits.tileWidth)), and `tileWidth` × the largest density at most \(SettingLimits.widestImage)",
                defaultText: { $0.tileWidth.map(String.init) ?? "none: the widths come from the layout ([images](images.md))" }) {
            reader, value, configuration throws(SettingProblem) in
            configuration.tileWidth = try reader.integer(value, "tileWidth", in: SettingLimits.tileWidth)
        },
        Setting(key: "densities", kind: "list of whole numbers",
                about: "the screens' pixel densities tile images are made for (over 2 only for boards up to 1024 px: phones)",
                range: "1–\(SettingLimits.densityCount) entries, each \(text(SettingLimits.density))",
                defaultText: { "`[\($0.densities.map(String.init).joined(separator: ", "))]`" }) { reader, value, configuration throws(SettingProblem) in
            configuration.densities = try reader.densities(value, "densities")
        },
        Setting(key: "viewSize", kind: "whole number", about: "long edge of the image a tile links to", range: text(SettingLimits.viewSize),
                defaultText: { "\($0.viewSize)" }, flag: ("--view-size", "N")) { reader, value, configuration throws(SettingProblem) in
            configuration.viewSize = try reader.integer(value, "viewSize", in: SettingLimits.viewSize)
        },
        Setting(key: "zoomSize", kind: "whole number",
                about: "long edge of one more image, for a photo larger than its view: the photo page's \"Full size\" link "
                    + "opens it (0: none; with originals published and shown by browsers, the link opens the original)",
                range: text(SettingLimits.zoomSize), defaultText: { "\($0.zoomSize)" }, flag: ("--zoom-size", "N")) {
            reader, value, configuration throws(SettingProblem) in
            configuration.zoomSize = try reader.integer(value, "zoomSize", in: SettingLimits.zoomSize)
        },
        Setting(key: "videoSize", kind: "whole number",
                about: "long edge of a video converted for browsers (one browsers play as it is is published as it is; see "
                    + "[docs/videos.md](videos.md))", range: text(SettingLimits.videoSize), defaultText: { "\($0.videoSize)" }) {
            reader, value, configuration throws(SettingProblem) in
            configuration.videoSize = try reader.integer(value, "videoSize", in: SettingLimits.videoSize)
        },
        Setting(key: "quality", kind: "whole number", about: "JPEG quality of derived images", range: text(SettingLimits.quality),
                defaultText: { "\($0.quality)" }) { reader, value, configuration throws(SettingProblem) in
            configuration.quality = try reader.integer(value, "quality", in: SettingLimits.quality)
        },
        Setting(key: "denseQuality", kind: "whole number",
                about: "JPEG quality of the tile images only screens denser than 1× take (wider than the widest 1× tile: 540, "
                    + "810 and 1000 px with the defaults; see [Derived images](images.md#dense-screens-a-lower-jpeg-quality))",
                range: text(SettingLimits.quality),
                defaultText: { "`quality` less \(ThumbnailRequest.defaultDenseQualityDrop): \($0.resolvedDenseQuality)" }) {
            reader, value, configuration throws(SettingProblem) in
            configuration.denseQuality = try reader.integer(value, "denseQuality", in: SettingLimits.quality)
        },
        Setting(key: "formats", kind: "list",
                about: "the formats of derived images, the visitor's preference first (as `--formats avif,webp,jpeg`); `\"jpeg\"` "
                    + "must be last: it is the `<img>` fallback (JPEG, or PNG where the photo has alpha)",
                range: "`\"avif\"`, `\"webp\"`, `\"jpeg\"`, each once",
                defaultText: { "`[\($0.formats.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))]`; `[\"avif\", \"jpeg\"]` "
                    + "recommended for a site with visitors (see Derived images)" },
                flag: ("--formats", "LIST")) { reader, value, configuration throws(SettingProblem) in
            configuration.formats = try reader.formats(value, "formats")
        },
        Setting(key: "webpQuality", kind: "whole number", about: "WebP quality of derived images", range: text(SettingLimits.quality),
                defaultText: { "\($0.webpQuality) (scores like the JPEG)" }) { reader, value, configuration throws(SettingProblem) in
            configuration.webpQuality = try reader.integer(value, "webpQuality", in: SettingLimits.quality)
        },
        Setting(key: "avifQuality", kind: "whole number", about: "AVIF quality of derived images", range: text(SettingLimits.quality),
                defaultText: { _ in "the quality that scores like the JPEG at `avifSpeed`: 83 at 9–10, 78 at 8, 76 at 7, 73 at 6 and below" }) {
            reader, value, configuration throws(SettingProblem) in
            configuration.avifQuality = try reader.integer(value, "avifQuality", in: SettingLimits.quality)
        },
        Setting(key: "avifSpeed", kind: "whole number",
                about: "AVIF encoder speed: 1 slowest and smallest, 9 fastest (10 is the same as 9 with Debian 12's libavif)",
                range: text(SettingLimits.avifSpeed), defaultText: { "\($0.avifSpeed)" }) { reader, value, configuration throws(SettingProblem) in
            configuration.avifSpeed = try reader.integer(value, "avifSpeed", in: SettingLimits.avifSpeed)
        },
    ]

    private static let site: [Setting] = [
        Setting(key: "originals", kind: "`\"none\"`, `\"link\"` or `\"copy\"`",
                about: "publish the original files too: link (a hard link where possible) or copy; tiles show and link to derived images",
                range: "", defaultText: { "`\"\($0.originals.rawValue)\"`" },
                flag: ("--originals", "P")) { reader, value, configuration throws(SettingProblem) in
            configuration.originals = try reader.choice(value, "originals", SiteConfiguration.OriginalsPolicy.allCases.map { ($0.rawValue, $0) })
        },
        Setting(key: "zip", kind: "boolean",
                about: "give every album an archive of its own originals (`ALBUM/originals/NAME.zip`, photos and videos as "
                    + "they are, metadata included), linked from its pages with its size; see [Downloads](downloads.md)",
                range: "", defaultText: { "\($0.zip)" }, flag: ("--zip", "")) { reader, value, configuration throws(SettingProblem) in
            configuration.zip = try reader.bool(value, "zip")
        },
        Setting(key: "zipMaxBytes", kind: "whole number (bytes)",
                about: "an album whose originals come to more gets no archive, and the build says so",
                range: "\(text(SettingLimits.zipMaxBytes)) (16 TiB)",
                defaultText: { "\($0.zipMaxBytes) (4 GB: no Zip64 needed, so every unzip tool opens it)" }) {
            reader, value, configuration throws(SettingProblem) in
            configuration.zipMaxBytes = try reader.integer(value, "zipMaxBytes", in: SettingLimits.zipMaxBytes)
        },
        Setting(key: "keywordPages", kind: "boolean",
                about: "a page of photos for each keyword the photos' metadata gives (`keywords/NAME/`), an index of them, and "
                    + "links to them on each photo page (`--no-keyword-pages`: none); see [Metadata](metadata.md#keywords-and-ratings)",
                range: "", defaultText: { "\($0.keywordPages)" }, flag: ("--no-keyword-pages", ""), negated: true) {
            reader, value, configuration throws(SettingProblem) in
            configuration.keywordPages = try reader.bool(value, "keywordPages")
        },
        Setting(key: "minRating", kind: "whole number",
                about: "publish only photos rated at least this (unrated photos are not)", range: text(SettingLimits.rating),
                defaultText: { $0.minRating.map(String.init) ?? "none: every photo but the rejected" },
                flag: ("--min-rating", "N")) { reader, value, configuration throws(SettingProblem) in
            configuration.minRating = try reader.integer(value, "minRating", in: SettingLimits.rating)
        },
        Setting(key: "publishRejected", kind: "boolean",
                about: "publish photos rated -1 (rejected) too, unless `minRating` leaves them out",
                range: "", defaultText: { "\($0.publishRejected)" }, flag: ("--publish-rejected", "")) {
            reader, value, configuration throws(SettingProblem) in
            configuration.publishRejected = try reader.bool(value, "publishRejected")
        },
        Setting(key: "perPage", kind: "whole number", about: "photos per gallery page", range: text(SettingLimits.perPage),
                defaultText: { "\($0.perPage)" }) { reader, value, configuration throws(SettingProblem) in
            configuration.perPage = try reader.integer(value, "perPage", in: SettingLimits.perPage)
        },
        Setting(key: "baseURL", kind: "string",
                about: "the absolute `http://` or `https://` URL the site is published at (a `/` is added at the end if missing): "
                    + "adds link-preview tags, `feed.atom` and `sitemap.xml`; see [Sharing](sharing.md)",
                range: "plain ASCII, no query, fragment or user name", defaultText: { $0.baseURL?.text ?? "none" },
                flag: ("--base-url", "URL")) { reader, value, configuration throws(SettingProblem) in
            let text = try reader.string(value, "baseURL")
            guard let url = BaseURL(text) else {
                throw reader.fail("baseURL", "\(BaseURL.problem(with: text)!), such as https://example.com/photos/ (got \(BaseURL.quoted(text)))")
            }
            configuration.baseURL = url
        },
    ]
}
