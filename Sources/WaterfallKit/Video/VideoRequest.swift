/// How a video is published (`VideoPublisher`): as it is, in a clean container, when browsers play it so
/// (H.264 or HEVC with AAC or no sound in MP4; VP8, VP9 or AV1 with Opus, Vorbis or no sound in WebM), or
/// converted once to H.264 and AAC in MP4 with its long edge at most `maxEdge`. A Live Photo's clip is
/// copied only as H.264 (`live`). Its `key` names everything that changes the published bytes, FFmpeg's
/// version included.
struct VideoRequest: Sendable, Equatable {
    enum Mode: String, Sendable {
        /// The streams copied into a new MP4 (metadata left behind), or into a new WebM.
        case copyMP4 = "copy-mp4"
        case copyWebM = "copy-webm"
        /// Decoded, turned upright, scaled down to `maxEdge` and encoded as H.264 and AAC in MP4.
        case convert
        /// A Live Photo's clip that is not H.264: as `convert`, with a fast preset, within the view size.
        case live = "live-h264"
    }

    var mode: Mode
    var maxEdge: Int
    var ffmpeg: String
    /// Made SDR on the way (`ToneMap`): an HDR video that is converted.
    var toneMaps = false

    /// `live`: the clip of a Live Photo, whose `maxEdge` is the photo page's view size.
    init(for facts: VideoFacts, live: Bool = false, maxEdge: Int, ffmpeg: String) {
        mode = Self.mode(for: facts, live: live)
        self.maxEdge = maxEdge
        self.ffmpeg = ffmpeg
        toneMaps = facts.isHDR && converts
    }

    static func mode(for facts: VideoFacts, live: Bool = false) -> Mode {
        let sound = facts.audioCodec
        // 8-bit 4:2:0 H.264 is what every browser decodes; HEVC as phones record it plays where the system
        // has a decoder (Safari everywhere, Chromium and Edge on most machines), as the issue asks. A Live
        // Photo's clip (at most 4 s, played on demand) is made H.264: Debian's Chromium and Firefox have no
        // HEVC decoder, and an iPhone records its clips in HEVC.
        let h264 = facts.codec == "h264" && ["yuv420p", "yuvj420p"].contains(facts.pixelFormat)
        let hevc = facts.codec == "hevc" && ["yuv420p", "yuvj420p", "yuv420p10le"].contains(facts.pixelFormat)
        if facts.isISO, h264 || (hevc && !live), sound == nil || sound == "aac" { return .copyMP4 }
        if live { return .live }
        let web = ["vp8", "vp9", "av1"].contains(facts.codec) && ["yuv420p", "yuv420p10le"].contains(facts.pixelFormat)
        if facts.isMatroska, web, sound == nil || sound == "opus" || sound == "vorbis" { return .copyWebM }
        return .convert
    }

    var format: ImageFormat { mode == .copyWebM ? .webm : .mp4 }

    /// Decoded and encoded again (not copied).
    var converts: Bool { mode == .convert || mode == .live }

    var key: String {
        let encoding = switch mode {
        case .convert: "|h264-crf23-threads4-aac128|\(maxEdge)"
        case .live: "|h264-veryfast-crf23-threads2-aac128|\(maxEdge)"
        case .copyMP4, .copyWebM: ""
        }
        return "\(Versions.video)|\(mode.rawValue)" + encoding + (toneMaps ? "|mobius-bt709" : "") + "|\(ffmpeg)"
    }

    /// The size a converted video is published at: the display size within `maxEdge`, even (H.264 with
    /// 4:2:0 needs it); a copied one keeps its own.
    func publishedSize(display width: Int, _ height: Int) -> (width: Int, height: Int) {
        guard converts else { return (width, height) }
        let scale = min(1, Double(maxEdge) / Double(max(width, height)))
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        return (even(Double(width) * scale), even(Double(height) * scale))
    }
}
