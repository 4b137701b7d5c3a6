/// What every video needs to be published: FFmpeg's programs (nil when not installed) and the size limit.
struct VideoSettings: Sendable {
    var tools: VideoTools?
    var maxEdge: Int

    var ffmpegVersion: String { tools?.version ?? "no ffmpeg" }

    /// Part of the key of every image made from a video's poster frame (`PosterFrame`).
    var posterKey: String { "\(Versions.poster)|\(ffmpegVersion)" }
}
