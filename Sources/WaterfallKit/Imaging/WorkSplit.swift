/// Where a build's work went, in seconds summed over the workers (so on two cores it can exceed the wall
/// time): the profile `--report` gives and `make bench-thumbs` prints.
public struct WorkSplit: Sendable, Equatable {
    /// Reading headers and EXIF facts of new photos.
    public var read = 0.0
    /// Content hashes of new photos (of stored images too: `store`).
    public var hash = 0.0
    /// Decoding pixels (the resampling that runs inside the decode is in `resample`).
    public var decode = 0.0
    public var resample = 0.0
    /// Encoding and writing each derived image.
    public var encode = 0.0
    /// Moving made images into the cache's store, hashing them as they go in, and recording the entries.
    public var store = 0.0

    public init() {}

    /// The stages in pipeline order, with their seconds.
    public var stages: [(stage: String, seconds: Double)] {
        [("read", read), ("hash", hash), ("decode", decode), ("resample", resample), ("encode", encode), ("store", store)]
    }

    static func + (a: WorkSplit, b: WorkSplit) -> WorkSplit {
        var sum = WorkSplit()
        sum.read = a.read + b.read
        sum.hash = a.hash + b.hash
        sum.decode = a.decode + b.decode
        sum.resample = a.resample + b.resample
        sum.encode = a.encode + b.encode
        sum.store = a.store + b.store
        return sum
    }

    /// Seconds since `start`, on the clock the stages are measured with.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
