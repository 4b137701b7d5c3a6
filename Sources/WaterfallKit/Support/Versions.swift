/// Every version Waterfall writes into its files or feeds to its keys and digests, and when to bump each.
/// A bump only makes what it names be made again (or read as absent) by the next build: the site and the
/// cache stay sound either way, so when in doubt, bump.
enum Versions {
    /// Waterfall's version: `--version`, the pages' generator tag, and part of every page's digest (a new
    /// version renders every page again).
    static let program = "0.1.0"

    // MARK: Derived files (part of each file's key in the cache: another key makes the file again)

    /// Bump when the derivation code changes its output for the same request, or the key's shape changes
    /// (one format's encoder alone: its tag below).
    /// 3: the mean colour is recorded with each image; 4: formats (a set's images are made from its largest
    /// box, whatever its encoder: `madeFrom` names that box only); 5: opaque images resampled in fixed point
    /// (within one level of the float filter's bytes); 6: a JPEG that is its own view image is copied
    /// losslessly where that costs no bytes (jpeg_copy.c); 7: the common AVIF decoded by libavif (avif_decode.c);
    /// 8: a YCbCr JPEG made into JPEGs stays in its Y, Cb and Cr planes (raster.c); 9: so does an AVIF stored
    /// as JPEG's YCbCr, and an alpha channel that is all 255 is filtered as RGB in fixed point; 10: one mean
    /// colour per set, from its smallest image, Lanczos weights by rotation (within a float's rounding), and RGB from
    /// every other decoder split into Y, Cb and Cr planes as it arrives when the set is all JPEG (ycc_split.c),
    /// and a size made from the size before it where that is about twice as large (the 500-px tile from the 1000);
    /// 11: the smallest image of an opaque still carries its sketch.
    static let derive = "derive-11"
    /// The WebP encoder's own output (webp_encode.c).
    static let webpEncoder = "webp"
    /// The AVIF encoder's own output: avif3, 8 bits and quantisation matrices from speed 9, as avif_support.h
    /// sets them.
    static let avifEncoder = "avif3"
    /// An original as the store takes it in (a hard link or a copy of the input's bytes).
    static let original = "original-1"
    /// A video's poster frame as PosterFrame picks and decodes it (with FFmpeg's version beside it).
    /// 2: an HDR video's tone-mapped.
    static let poster = "poster-2"
    /// A published video as VideoRequest copies or converts it (with FFmpeg's version beside it).
    static let video = "video-1"
    /// An album's archive of its originals as archive/zip_writer.c writes it (each entry's fields, the
    /// options libarchive is given) and as AlbumArchive names its entries: part of each archive's inputs
    /// digest, so a bump writes every archive again.
    static let zip = "zip-1"

    // MARK: Pages and the site

    /// Part of every page's digest, with the renderer's identity (`RendererIdentity`): bump whenever the
    /// values `SitePages` gives the templates change (a new field, another spelling), for the platforms where
    /// the running executable cannot be hashed. 2: videos; 3: a tile's priority apart from its eager loading,
    /// a srcset for the view; 4: sketches; 5: an album's archive (`download`); 6: descriptions as HTML
    /// (sigal's Markdown: `descriptionHTML`); 7: a photo's keywords; 8: Live Photos (`live`, `motion`).
    static let pages = "pages-8"
    /// Bump when what a site is made from gains an input `SiteInputs` does not see.
    static let siteInputs = "site-inputs-1"

    // MARK: Files in the cache and the output's state folder (another version is not read: it is made again)

    /// The cache folder's layout (`BuildCache`): the version file at its top.
    static let cache = "waterfall-cache-4"
    /// The cache's index of photo entries (`CacheIndex`). 2: a video's facts; 3: sketches; 4: facts with
    /// their sources; 5: a video's content identifier; 6: whether a photo is see-through, a video's transfer.
    static let cacheIndex = "waterfall-cache-index-6"
    /// What a photo's facts hold as `PhotoFacts` reads them: an entry's facts of another version are read
    /// again from the photo, without making its images again. 1: EXIF's; 2: metadata with sources.
    /// 3: XMP and IPTC, and EXIF Artist, Copyright and Rating; 4: a Live Photo's content identifier (still
    /// and clip); 5: a TIFF's XMP and IPTC, a PNG's raw IPTC profile; 6: whether the image is see-through.
    static let facts = 6
    /// The memo of XMP sidecars' readings (`SidecarMemo`); `facts` is part of its magic line too, so a reader
    /// that reads more from XMP parses every sidecar again.
    static let sidecarMemo = "waterfall-sidecars-1"
    /// The memo of the last build's plan (`PlanMemo`).
    static let plan = "waterfall-plan-1"
    /// The output's manifest of the files Waterfall wrote (`OutputRecords`).
    static let manifest = 1
}
