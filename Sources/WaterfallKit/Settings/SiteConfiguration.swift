/// Everything a gallery build can be told, with every default in one place. `waterfall.json` (see
/// `SiteConfiguration+JSON.swift`) may set any of it; command-line flags override the file.
public struct SiteConfiguration: Sendable, Equatable {
    /// The page title; nil means the input folder's name.
    public var title: String?
    public var description: String?
    /// Column counts by board width. The default: 2 columns under 600 px, 3 under 900, 4 under 1400, 5 above.
    public var bands: [BandSetting] = [
        BandSetting(minWidth: 0, columns: 2),
        BandSetting(minWidth: 600, columns: 3),
        BandSetting(minWidth: 900, columns: 4),
        BandSetting(minWidth: 1400, columns: 5),
    ]
    public var columnSpacing: Double = 10
    public var rowSpacing: Double = 10
    public var insets = EdgeInsets(all: 10)
    public var footerHeight: Double = 50
    /// See `WaterfallConfiguration.flowTolerance`: 0, the classic shortest-column rule.
    public var flowTolerance: Double = 0
    /// How tiles are shared out to the columns; see `PlacementPolicy`.
    public var placement = PlacementPolicy.balanced
    /// Whether the columns end where they fall or on one line.
    public var bottom = BottomSetting.natural
    /// With a flush bottom: the largest share of a column's last tile that may be cropped.
    public var maxCrop = BottomPolicy.defaultMaxCrop
    public var footerText = "Made with Waterfall"
    public var sort = SortOrder.name
    public var reverse = false
    public var maxPixels = HeaderReader.defaultMaxPixels
    /// JPEG quality of derived images.
    public var quality = ThumbnailRequest.defaultQuality
    /// JPEG quality of the tile images only screens denser than 1× take; nil: `quality` less
    /// `ThumbnailRequest.defaultDenseQualityDrop`.
    public var denseQuality: Int?
    /// The formats every derived image is made in, the visitor's preference first; `jpeg` last (the
    /// `<img>` fallback: JPEG, or PNG where there is alpha).
    public var formats = DeliveryFormat.defaultList
    /// WebP quality, 1–100.
    public var webpQuality = ThumbnailRequest.defaultWebPQuality
    /// AVIF quality, 1–100; nil: the quality that matches the JPEG's at `avifSpeed`.
    public var avifQuality: Int?
    /// AVIF encoder speed, 1 (slowest, smallest) to 10 (fastest).
    public var avifSpeed = ThumbnailRequest.defaultAVIFSpeed
    /// Long edge of the image a tile links to.
    public var viewSize = 2048
    /// Long edge of one more image of a photo larger than its view, for its page's full-size link; 0: none.
    public var zoomSize = 0
    /// Long edge of a video converted for browsers (one they play as it is is published as it is).
    public var videoSize = 1920
    /// Width of the 1× tile image; nil means the widest tile the bands produce on boards up to `widestBoard`.
    public var tileWidth: Int?
    /// Pixel densities tile images are made for: 1×, 2× and 3× screens by default.
    public var densities = [1, 2, 3]
    /// Whether the originals are published beside the derived images.
    public var originals = OriginalsPolicy.none
    /// Whether every album gets an archive of its own originals (`ALBUM/originals/NAME.zip`), linked from its
    /// pages.
    public var zip = false
    /// An album whose originals come to more than this gets no archive (the build says so). 4 GB, just
    /// under 4 GiB: an archive that size needs no Zip64 record (every offset and size fits in 32 bits, its
    /// headers included), so every unzip tool opens it, and it fits on a FAT32 stick.
    public var zipMaxBytes = 4_000_000_000
    /// Whether each keyword of the photos' metadata gets pages of its photos, linked from theirs.
    public var keywordPages = true
    /// Publish only photos rated at least this (1–5); nil: every photo but the rejected.
    public var minRating: Int?
    /// Whether photos rated -1 (rejected) are published when `minRating` is nil.
    public var publishRejected = false
    /// Where the site will be published; with it, pages get link-preview tags and the site a feed and a
    /// sitemap (which need absolute URLs). Without it, none of these.
    public var baseURL: BaseURL?

    public init() {}

    /// `denseQuality`, or its default from `quality`.
    var resolvedDenseQuality: Int {
        denseQuality ?? max(SettingLimits.quality.lowerBound, quality - ThumbnailRequest.defaultDenseQualityDrop)
    }

    /// How the cache's store takes the originals in: as `originals` says, and when only the archives need
    /// them, as `link` does (a hard link to the very file read, where the cache is on its file system: the
    /// archives cost no copy of the input).
    var storedOriginals: OriginalsPolicy { originals != .none ? originals : zip ? .link : .none }

    /// A settings file larger than this is not one.
    static let maximumFileBytes = 1 << 20

    public enum OriginalsPolicy: String, Sendable, Equatable, CaseIterable {
        /// Only derived images are published: no GPS position or full-size file leaves the machine.
        case none
        /// Hard-linked into `originals/` (copied across file systems).
        case link
        /// Copied into `originals/`.
        case copy
    }

    /// The widest board tile images are made for; the last band grows without bound, screens do not.
    static let widestBoard: Double = 2560

    public enum BottomSetting: String, Sendable, Equatable, CaseIterable {
        /// Every tile at its photo's full height.
        case natural
        /// Each column's last tile cropped (up to `maxCrop` of its height) so that every column ends on one line.
        case flush
    }

    public enum SortOrder: String, Sendable, Equatable, CaseIterable {
        /// Natural file-name order: `IMG_2` before `IMG_10`, case ignored.
        case name
        /// When taken (EXIF DateTimeOriginal, else the file's modification time); ties by name.
        case date
    }

    /// Photos per gallery page; later pages get their own URLs, linked from the footer.
    public var perPage = 100

    /// What an album's own `waterfall.json` may set (the layout and images are the top folder's).
    public struct AlbumSettings: Sendable, Equatable {
        public var title: String?
        public var description: String?
        /// The description as safe HTML (sigal's `index.md`, rendered by cmark-gfm), shown in its place.
        public var descriptionHTML: String?
        public var sort: SortOrder?
        public var reverse: Bool?
        /// The file name of the photo shown on the album's tile; default: the album's first photo.
        public var cover: String?

        public init() {}
    }

    /// One responsive band: from `minWidth` CSS pixels of board width up to the next band's.
    public struct BandSetting: Sendable, Equatable {
        public var minWidth: Double
        public var columns: Int
        public var columnSpacing: Double?
        public var rowSpacing: Double?

        public init(minWidth: Double, columns: Int, columnSpacing: Double? = nil, rowSpacing: Double? = nil) {
            self.minWidth = minWidth
            self.columns = columns
            self.columnSpacing = columnSpacing
            self.rowSpacing = rowSpacing
        }
    }

    /// The layout engine's configuration (columns come from each band).
    var layoutConfiguration: WaterfallConfiguration {
        WaterfallConfiguration(columnSpacing: columnSpacing, rowSpacing: rowSpacing, edgeInsets: insets,
                               footerHeight: footerHeight, placement: placement, flowTolerance: flowTolerance,
                               bottom: bottom == .flush ? .flush(maxCrop: maxCrop) : .natural)
    }

    /// The narrowest board the first band is laid out for. A band that starts at 0 still serves every
    /// narrower screen (its CSS is the default); the engine just needs a width that leaves tiles room.
    static let narrowestBoard: Double = 320

    /// The engine's bands. The first band starts at `narrowestBoard` if it starts below it.
    var layoutBands: [Band] {
        bands.sorted { $0.minWidth < $1.minWidth }.enumerated().map { position, band in
            Band(minimumWidth: position == 0 ? max(band.minWidth, Self.narrowestBoard) : band.minWidth,
                 columnCount: band.columns, columnSpacing: band.columnSpacing, rowSpacing: band.rowSpacing)
        }
    }
}
