/// The range of every numeric setting of `waterfall.json` (the README's table lists them).
///
/// Each range is wide enough for any gallery a person would make, and together they keep every number the
/// build derives from them small: tile and view images at most 16,384 px wide (a JPEG holds 65,535; the
/// resampler's weights and the cache keys stay small), a page's CSS lengths far inside what `DecimalText`
/// writes exactly, and no `Int` product (tile width × density, pages × photos) anywhere near overflow.
/// Combinations inside the ranges that the layout still cannot honour (32 columns with 1,000 px gaps on a
/// 320 px board) are reported by `SiteConfiguration.checkCombinations(file:)`.
enum SettingLimits {
    /// Photos per gallery page: a page of 10,000 tiles is already heavy for a browser.
    static let perPage = 1...10_000
    /// The 1× tile image: a tile wider than 8K is not a tile.
    static let tileWidth = 16...8_192
    /// Each pixel density: phones go to 3×, 4 leaves room.
    static let density = 1...4
    /// How many densities may be listed (there are only four distinct ones).
    static let densityCount = 8
    /// The widest image derived from a photo: tile width × density, and the view size.
    static let widestImage = 16_384
    /// Long edge of the view image a tile links to.
    static let viewSize = 16...widestImage
    /// Long edge of the full-size image; 0 for none.
    static let zoomSize = 0...widestImage
    /// A converted video's long edge: even, and within what H.264's levels hold (8K).
    static let videoSize = 16...8192
    /// JPEG, WebP and AVIF quality.
    static let quality = 1...100
    /// AVIF encoder speed (libavif's scale: 10 fastest).
    static let avifSpeed = 1...10
    /// `minRating`: XMP's stars (0 is unrated, -1 rejected: neither is a minimum).
    static let rating = 1...5
    /// How many formats `formats` may list (there are three).
    static let formatCount = 3
    /// The pixel cap: a gigapixel is far beyond any camera, and a decode that size already needs 4 GB.
    static let maxPixels = 1...1_000_000_000
    /// How many responsive bands: one per common breakpoint and then some.
    static let bandCount = 16
    /// Columns of one band.
    static let columns = 1...32
    /// Where a band starts, in CSS px of board width.
    static let minWidth = 0.0...100_000
    /// Gaps between columns and rows, and each inset.
    static let spacing = 0.0...1_000
    /// How near the shortest a column must be to count as tied (`flowTolerance`): a tile's height at most.
    static let flowTolerance = 0.0...1_000
    /// The share of a tile's height a flush bottom may crop: beyond a half, it is another picture.
    static let maxCrop = 0.0...0.5
    /// The footer's height.
    static let footerHeight = 0.0...10_000
    /// The most an album's originals may come to for it to get an archive: 16 TiB, a file size every file
    /// system that holds a site allows, and far beyond any album anyone downloads whole.
    static let zipMaxBytes = 1...(1 << 44)
}
