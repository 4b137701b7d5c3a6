/// What a photo's header says, read without touching its pixel data.
public struct ImageHeader: Sendable, Hashable {
    public var format: ImageFormat
    /// Size as stored in the file, before orientation.
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var orientation: Orientation
    /// JPEG: 1 (gray), 3 (YCbCr/RGB) or 4 (CMYK/YCCK); PNG: channels.
    public var components: Int
    /// JPEG: progressive (SOF2/SOF10); PNG: Adam7 interlaced.
    public var progressive: Bool
    public var bitDepth: Int
    /// How many bytes of the file the reader fetched.
    public var bytesRead: Int
    /// GIF and WebP: frames in the file (1 for a still image).
    public var frames: Int
    /// A video's codecs, duration and stored size (`format` is `.video`); the size above is then its
    /// display size, orientation up.
    public var video: VideoFacts? {
        get { videoBox?.facts }
        set { videoBox = newValue.map(VideoBox.init) }
    }

    /// `video`, boxed: a photo's header (hundreds of thousands of them in a large site) carries one
    /// pointer for it, not a video's worth of room.
    private var videoBox: VideoBox?

    public init(format: ImageFormat, pixelWidth: Int, pixelHeight: Int, orientation: Orientation = .up,
                components: Int = 3, progressive: Bool = false, bitDepth: Int = 8, bytesRead: Int = 0, frames: Int = 1) {
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.components = components
        self.progressive = progressive
        self.bitDepth = bitDepth
        self.bytesRead = bytesRead
        self.frames = frames
    }

    /// More than one frame: an animated GIF or WebP.
    public var isAnimated: Bool { frames > 1 }

    public var isVideo: Bool { video != nil }

    /// Size as displayed: orientations 5–8 swap width and height.
    public var width: Int { orientation.swapsWidthAndHeight ? pixelHeight : pixelWidth }
    public var height: Int { orientation.swapsWidthAndHeight ? pixelWidth : pixelHeight }

    public var pixelCount: Int { pixelWidth * pixelHeight }

    /// The pixels a decode of every frame passes through (canvas × frames): what a decoder's time is set by.
    var decodedPixels: Int {
        let (pixels, overflow) = pixelCount.multipliedReportingOverflow(by: max(1, frames))
        return overflow ? .max : pixels
    }
}

/// A video's facts held by reference (`ImageHeader.video`), equal and hashed by value.
private final class VideoBox: Sendable, Hashable {
    let facts: VideoFacts

    init(_ facts: VideoFacts) { self.facts = facts }

    static func == (lhs: VideoBox, rhs: VideoBox) -> Bool { lhs.facts == rhs.facts }

    func hash(into hasher: inout Hasher) { hasher.combine(facts) }
}
