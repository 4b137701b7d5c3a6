/// One derived image in the cache's image store, as its entry records it.
struct StoredImage: Sendable, Equatable {
    var key: String
    /// The file in the cache's `images/` folder.
    var file: String
    var bytes: Int
    /// The file's content hash: what proves the file is the one that was made (16 bytes, not 32 hex
    /// digits: a site holds 200,000 of them). nil when the recorded text is not a digest: never proven.
    var hash: ContentDigest?
    var width: Int
    var height: Int
    var format: ImageFormat
    /// The image's mean colour (a still's), for the page's placeholders.
    var averageColor: AverageColor? = nil
    /// The still's sketch, on its smallest image only.
    var sketch: Sketch? = nil
}
