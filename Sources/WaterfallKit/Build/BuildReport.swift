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
    /// XMP sidecars a decoder parsed; the others' readings came from the last build's memo (`SidecarMemo`).
    public var sidecarsRead = 0
    /// Seconds per stage, in pipeline order: scan, images, pages (rendered and written).
    public var timings: [(stage: String, seconds: Double)] = []
    /// Where the work on new photos went, summed over the workers.
    public var work = WorkSplit()
}
