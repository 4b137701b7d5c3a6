/// A video's poster: one frame a little way in (a third of the way, at most three seconds: past a fade in
/// from black or a first frame of nothing), the most typical of the ten frames from there (FFmpeg's
/// `thumbnail` filter), tone-mapped when it is HDR (`ToneMap`), turned upright and scaled to the video's
/// display size, as a PNG for the image pipeline to make the tile and view images from, as it makes them
/// from a photo.
struct PosterFrame {
    var tools: VideoTools

    /// Where in the video the poster is looked for, in seconds.
    static func start(durationMilliseconds: Int) -> Double {
        min(3, Double(durationMilliseconds) / 3000)
    }

    /// Writes the poster of the open video `source` as `name` in `folder`.
    func make(source: OpenFile, header: ImageHeader, into folder: FolderHandle, as name: String) -> Result<Void, DeriveError> {
        guard let facts = header.video else { return .failure(DeriveError(.invalidRequest, "not a video")) }
        let start = Self.start(durationMilliseconds: facts.durationMilliseconds)
        let limits = FFmpegRun.limits(seconds: start + 10, perSecond: 4)
        func arguments(seekingTo seconds: Double) -> [String] {
            ["-threads", "2"] + VideoTools.inputOptions + (seconds > 0 ? ["-ss", String(format3(seconds))] : []) + ["-i", VideoTools.input,
             "-map", "0:V:0", "-an", "-sn", "-dn", "-frames:v", "1",
             "-vf", (["thumbnail=10"] + ToneMap.filters(for: facts)
                     + ["scale=\(header.width):\(header.height):flags=lanczos", "setsar=1", "format=rgb24"]).joined(separator: ","),
             "-f", "image2", "-update", "1", "-c:v", "png", "-compression_level", "1",
             "-fflags", "+bitexact", "-flags", "+bitexact", "-y", VideoTools.output]
        }
        let run = FFmpegRun(tools: tools)
        var made = run.run(arguments(seekingTo: start), source: source, into: folder, as: name, limits: limits)
        // A container whose duration says more than its frames hold: the poster from the start (not after a
        // limit, or a file that changed: those would only fail again).
        if case .failure(let error) = made, start > 0, error.kind == .corrupt {
            made = run.run(arguments(seekingTo: 0), source: source, into: folder, as: name, limits: limits)
        }
        return made.map { _ in () }
    }
}

/// `1.333`: seconds as FFmpeg reads them, the same text in every locale.
func format3(_ seconds: Double) -> String {
    let milliseconds = Int((seconds * 1000).rounded())
    let rest = milliseconds % 1000
    return "\(milliseconds / 1000)." + (rest < 10 ? "00" : rest < 100 ? "0" : "") + "\(rest)"
}
