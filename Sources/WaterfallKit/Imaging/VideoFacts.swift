/// What a video's container and stream headers say (`VideoProbe`), kept with its header. The header's own
/// size is the display size: the stored size with the sample aspect ratio applied and the display matrix's
/// quarter turn made, so the layout treats a video as it treats a photo.
public struct VideoFacts: Sendable, Hashable {
    /// ffprobe's name of the demuxer: `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm` or `avi`.
    public var container: String
    /// The first video stream's codec (`h264`, `hevc`, `vp9`, `av1`, `mpeg4`, …) and pixel format.
    public var codec: String
    public var pixelFormat: String
    /// The first audio stream's codec, nil for a silent video.
    public var audioCodec: String?
    /// 0 when the container does not say (a live recording's WebM).
    public var durationMilliseconds: Int
    /// The size as coded, and the quarter turn (clockwise, 0, 90, 180 or 270) the display matrix asks for.
    public var codedWidth: Int
    public var codedHeight: Int
    public var rotation: Int
    /// When it was recorded, as the container says (`creation_time`: `2024-05-17T08:30:12.000000Z`).
    public var creationTime: String?
    /// Apple's content identifier (`com.apple.quicktime.content.identifier`): a Live Photo's clip. Capitals.
    public var contentIdentifier: String?
    /// The video stream's transfer characteristic, as ffprobe names it (`bt709`, `arib-std-b67` for HLG,
    /// `smpte2084` for PQ); nil when the stream does not say.
    public var transfer: String?

    public init(container: String, codec: String, pixelFormat: String, audioCodec: String?, durationMilliseconds: Int,
                codedWidth: Int, codedHeight: Int, rotation: Int, creationTime: String? = nil, contentIdentifier: String? = nil,
                transfer: String? = nil) {
        self.container = container
        self.codec = codec
        self.pixelFormat = pixelFormat
        self.audioCodec = audioCodec
        self.durationMilliseconds = durationMilliseconds
        self.codedWidth = codedWidth
        self.codedHeight = codedHeight
        self.rotation = rotation
        self.creationTime = creationTime
        self.contentIdentifier = contentIdentifier
        self.transfer = transfer
    }

    /// High dynamic range: PQ or HLG, which a poster or a conversion tone-maps (`ToneMap`).
    public var isHDR: Bool { transfer == "smpte2084" || transfer == "arib-std-b67" }

    /// `0:07`, `12:03`, `1:02:03`; nil when the duration is unknown.
    public var durationText: String? {
        guard durationMilliseconds > 0 else { return nil }
        let seconds = max(1, (durationMilliseconds + 500) / 1000)
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// The duration for a `datetime` attribute: `PT7S`, `PT12M3S`.
    public var durationISO: String? {
        guard durationMilliseconds > 0 else { return nil }
        let seconds = max(1, (durationMilliseconds + 500) / 1000)
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        return "PT" + (h > 0 ? "\(h)H" : "") + (m > 0 ? "\(m)M" : "") + (s > 0 || seconds < 60 ? "\(s)S" : "")
    }

    /// Values a probe could have given (a damaged or planted cache entry is not trusted to be sane).
    var isPlausible: Bool {
        !codec.isEmpty && codec.utf8.count <= 64 && container.utf8.count <= 128 && pixelFormat.utf8.count <= 64
            && (audioCodec?.utf8.count ?? 0) <= 64 && (0...(1 << 40)).contains(durationMilliseconds)
            && (1...65_536).contains(codedWidth) && (1...65_536).contains(codedHeight) && [0, 90, 180, 270].contains(rotation)
            && (creationTime?.utf8.count ?? 0) <= 40 && contentIdentifier.map { ContentIdentifier.clean($0) == $0 } ?? true
            && (transfer?.utf8.count ?? 0) <= 32
    }

    var json: JSONValue {
        .object([
            ("container", .string(container)), ("codec", .string(codec)), ("pixelFormat", .string(pixelFormat)),
            ("audio", audioCodec.map { .string($0) } ?? .null), ("durationMilliseconds", .int(durationMilliseconds)),
            ("codedWidth", .int(codedWidth)), ("codedHeight", .int(codedHeight)), ("rotation", .int(rotation)),
            ("created", creationTime.map { .string($0) } ?? .null),
            ("contentIdentifier", contentIdentifier.map { .string($0) } ?? .null),
            ("transfer", transfer.map { .string($0) } ?? .null),
        ])
    }

    init?(json: JSONValue) {
        let fields = json.members
        guard let container = fields["container"]?.text, let codec = fields["codec"]?.text,
              let pixelFormat = fields["pixelFormat"]?.text, let duration = fields["durationMilliseconds"]?.number,
              let width = fields["codedWidth"]?.number, let height = fields["codedHeight"]?.number,
              let rotation = fields["rotation"]?.number,
              fields["transfer"] != nil else { return nil }  // an entry from before HDR was read: probed again
        self.init(container: container, codec: codec, pixelFormat: pixelFormat, audioCodec: fields["audio"]?.text,
                  durationMilliseconds: duration, codedWidth: width, codedHeight: height, rotation: rotation,
                  creationTime: fields["created"]?.text, contentIdentifier: fields["contentIdentifier"]?.text,
                  transfer: fields["transfer"]?.text)
        guard isPlausible else { return nil }
    }

    /// An ISO base media file (MP4, MOV), a Matroska one (WebM, MKV), or another (AVI).
    var isISO: Bool { container.hasPrefix("mov,") }
    var isMatroska: Bool { container.hasPrefix("matroska") }
}
