/// What `waterfall build` was asked to do.
public struct BuildOptions: Sendable {
    public var input = "."
    /// The input folder's name as the user gave it, for the default title, when `input` does not end with
    /// it (a folder named by bytes that are not UTF-8 is reached through `/proc/self/fd`).
    public var inputName: String?
    public var output = "_site"
    /// A configuration file; nil means `waterfall.json` in the input folder, if there is one.
    public var configFile: String?
    /// A theme folder; nil means the default theme.
    public var templates: String?
    /// Overrides the configuration's title.
    public var title: String?
    public var jobs = Parallelism.available
    /// Unreadable photos fail the build instead of being skipped.
    public var strict = false
    /// Overrides the configuration's `originals`.
    public var originals: SiteConfiguration.OriginalsPolicy?
    /// Overrides the configuration's `baseURL`.
    public var baseURL: BaseURL?
    /// Override the configuration's `placement`, `bottom` and `maxCrop`.
    public var placement: PlacementPolicy?
    public var bottom: SiteConfiguration.BottomSetting?
    public var maxCrop: Double?
    /// Overrides the configuration's `formats`.
    public var formats: [DeliveryFormat]?
    /// Where the cache lives; nil means `OUTPUT/.waterfall/cache`.
    public var cacheDirectory: String?
    /// Only this part of the photos, into the cache, and no pages: (index from 1, count).
    public var shard: (index: Int, count: Int)?
    /// Symbolic links are followed wherever they lead, not only inside the input and the theme.
    public var followSymlinks = false
    /// What the decoder processes run (`waterfall` itself: the command passes `.this`).
    public var decoder = DecoderProgram.standard
    /// Keyed mode's key (`WATERFALL_KEY` or `--key-file`): the cache's entries and the output's records carry
    /// a MAC under it, and files are proven by a keyed hash; nil builds without one.
    public var key: RecordKey?

    /// The cache folder this build uses.
    public var cacheFolder: String { cacheDirectory ?? FolderPath.join(output, ".waterfall/cache") }

    public init() {}
}

/// What a build did, for the summary line and for tests.
public struct BuildReport: Sendable {
    public var photos: Int
    /// Files that were skipped, with the reason.
    public var skipped: [(path: String, reason: String)]
    /// Files of the previous build that this one no longer produces and removed.
    public var removed: [String]
    /// Files of the previous build that this one no longer produces but left alone, because they changed
    /// since Waterfall wrote them.
    public var leftAlone: [String] = []
    /// Derived images decoded and written by this build, and those kept from the last one.
    public var imagesMade: Int
    public var imagesKept: Int
    public var seconds: Double
    /// Albums (the top folder included) and pages written.
    public var albums = 1
    public var pages = 0
    /// Pages rendered by this build; the rest were kept, made from the same inputs as before.
    public var pagesRendered = 0
    /// The site was found exactly as the last build left it, from the same inputs: nothing was planned,
    /// checked or written again (`PlanMemo`).
    public var unchanged = false
    /// Photos whose header came from the cache instead of the file.
    public var cachedHeaders = 0
    /// Seconds per stage, in pipeline order: scan, images, pages (rendered and written).
    public var timings: [(stage: String, seconds: Double)] = []
    /// Where the work on new photos went, summed over the workers.
    public var work = WorkSplit()
}

/// A build that could not be done at all; `description` is one line.
public struct BuildError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// What was skipped before the build stopped (for reports: a --strict failure lists them).
    public var skipped: [(path: String, reason: String)] = []
    public init(_ description: String, skipped: [(path: String, reason: String)] = []) {
        self.description = description
        self.skipped = skipped
    }
}

/// What a build tells its observer while it works.
public enum BuildEvent: Sendable {
    /// `total` photos found, about to be looked at (their size and time stamp against the cache's).
    case reading(total: Int)
    /// One more photo looked at (or skipped).
    case read(done: Int, total: Int)
    /// A file left out, and why.
    case skipped(path: String, reason: String)
    /// Photos read and their derived images made: `done` of `total` (or skipped).
    case deriving(done: Int, total: Int)
    case writing(files: Int)
    /// A warning that is not about one file (an empty gallery, say).
    case warning(String)
    /// Something worth knowing that is not wrong (a folder left out on purpose).
    case note(String)
}
