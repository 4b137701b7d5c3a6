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
    /// Settings given on the command line (`--title`, `--max-crop`, …), by `waterfall.json` key, each
    /// flag's text as given: applied over the settings file's, in order (`Setting.apply(argument:to:)`).
    public var settings: [(key: String, text: String)] = []
    public var jobs = Parallelism.available
    /// Unreadable photos fail the build instead of being skipped.
    public var strict = false
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
