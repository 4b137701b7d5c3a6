/// Makes the file a video is published as (`VideoRequest`): its video stream and its first sound stream,
/// in MP4 with the index at the front (so playback starts before the whole file arrives) or in WebM, every
/// other stream and all of the container's metadata (a phone's GPS position, its make and model, the
/// recording software) left behind, and no version or time stamp written (`+bitexact`), so the same video
/// gives the same file.
struct VideoPublisher {
    var tools: VideoTools

    /// Makes it from the open video `source`.
    func make(source: OpenFile, header: ImageHeader, request: VideoRequest, into folder: FolderHandle,
              as name: String) -> Result<DerivedImage, DeriveError> {
        guard let facts = header.video else { return .failure(DeriveError(.invalidRequest, "not a video")) }
        let strip = ["-map_metadata", "-1", "-map_metadata:s:v", "-1", "-map_metadata:s:a", "-1", "-map_chapters", "-1",
                     "-fflags", "+bitexact"]
        // `V`: the first video stream that is not cover art.
        let streams = ["-map", "0:V:0", "-map", "0:a:0?", "-sn", "-dn"]
        let seconds = Double(facts.durationMilliseconds) / 1000
        let size = request.publishedSize(display: header.width, header.height)
        var arguments = ["-threads", "2"] + VideoTools.inputOptions + ["-i", VideoTools.input] + streams
        let limits: HelperProcess.Limits
        switch request.mode {
        case .copyMP4:
            arguments += ["-c", "copy"] + (facts.codec == "hevc" ? ["-tag:v", "hvc1"] : []) + strip
                + ["-movflags", "+faststart", "-f", "mp4"]
            limits = FFmpegRun.limits(seconds: seconds, perSecond: 1)
        case .copyWebM:
            arguments += ["-c", "copy"] + strip + ["-f", "webm"]
            limits = FFmpegRun.limits(seconds: seconds, perSecond: 1)
        case .convert, .live:
            // A Live Photo's clip is short and wanted at once: a fast preset. x264's bytes depend on its thread
            // count, so that is fixed, never the machine's core count: the same video gives the same file anywhere.
            let speed = request.mode == .live ? ["-preset", "veryfast", "-threads", "2"] : ["-preset", "medium", "-threads", "4"]
            // Frames as they are timed (a gap in the timestamps is not filled with copies of a frame).
            let filters = ToneMap.filters(for: facts) + ["scale=\(size.width):\(size.height):flags=lanczos", "setsar=1", "format=yuv420p"]
            arguments += ["-fps_mode", "vfr", "-vf", filters.joined(separator: ","), "-c:v", "libx264"] + speed
                + ToneMap.outputTags(for: facts) + ["-crf", "23", "-profile:v", "high",
                          "-c:a", "aac", "-b:a", "128k", "-ac", "2", "-flags:v", "+bitexact", "-flags:a", "+bitexact"]
                + strip + ["-movflags", "+faststart", "-f", "mp4"]
            limits = FFmpegRun.limits(seconds: seconds, perSecond: 30)
        }
        arguments += ["-y", VideoTools.output]
        return FFmpegRun(tools: tools).run(arguments, source: source, into: folder, as: name, limits: limits).map { _ in
            DerivedImage(format: request.format, width: size.width, height: size.height, source: header)
        }
    }
}
