/// Reads a video's display size, codecs and duration from its container and stream headers with `ffprobe`
/// (no frame is decoded), under `VideoTools.quick`'s limits. Whatever the file claims is checked: a size
/// over the pixel limit, no video stream, or anything ffprobe cannot read is a one-line reason.
struct VideoProbe: Sendable {
    var tools: VideoTools
    var maxPixels: Int

    /// The header of the video open as `file`: its display size as the size, orientation up (the turn is
    /// made in every image and video published), and the facts.
    func read(_ file: OpenFile) -> Result<ImageHeader, ImageReadError> {
        let entries = "format=format_name,duration:format_tags=creation_time,\(Self.contentIdentifierKey):stream=index,codec_type,codec_name,width,height,"
            + "sample_aspect_ratio,pix_fmt,color_transfer,duration:stream_disposition=attached_pic:stream_side_data=displaymatrix,rotation"
        // Warnings too: that is how ffprobe tells of a track whose frames are in another file.
        let run = HelperProcess.run(tools.ffprobe, ["-v", "warning", "-hide_banner"] + VideoTools.inputOptions
            + ["-show_entries", entries, "-of", "json", VideoTools.input], input: file.descriptor, limits: VideoTools.quick,
            stdoutCapacity: 1 << 20)
        guard run.succeeded else { return .failure(ImageReadError(.corrupt, "ffprobe cannot read it: \(Self.reason(run))")) }
        if let elsewhere = Self.externalTrack(run.stderr) {
            return .failure(ImageReadError(.unsupported, "its frames are in another file (\(elsewhere)), which Waterfall does not open"))
        }
        guard run.stdoutTotal <= run.stdout.count, let json = try? JSONParser.parse(bytes: run.stdout) else {
            return .failure(ImageReadError(.corrupt, "ffprobe's answer is not one Waterfall can read"))
        }
        return Self.header(from: json, maxPixels: maxPixels)
    }

    /// The QuickTime metadata key of a Live Photo's clip: the identifier its still's MakerNote shares.
    static let contentIdentifierKey = "com.apple.quicktime.content.identifier"

    /// Where a QuickTime movie's external data reference points, when ffprobe skipped one (it never opens
    /// another file: `enable_drefs` is off), as one line: "an external reference to /Volumes/Elsewhere/clip.mov".
    static func externalTrack(_ stderr: String) -> String? {
        guard let skipped = stderr.firstRange(of: "Skipped opening external track") else { return nil }
        let rest = stderr[skipped.upperBound...]
        // FFmpeg writes path='…', dir='…', filename='…', volume='…' without escaping: the path may hold
        // quotes of its own, so it runs to the next field's name (or to the line's last quote).
        guard let start = rest.firstRange(of: "path='") else { return "an external data reference" }
        let line = rest[start.upperBound...].prefix { !$0.isNewline }
        guard let end = line.firstRange(of: "', dir='")?.lowerBound ?? line.lastIndex(of: "'"), end > line.startIndex else {
            return "an external data reference"
        }
        return "an external data reference to \(PathText.display(String(rest[start.upperBound..<end].prefix(200))))"
    }

    /// ffprobe's last words, without its `[mov,mp4,… @ 0x…]` prefix and the file name.
    static func reason(_ run: HelperProcess.Outcome) -> String {
        var text = run.failure
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") { text = String(text[text.index(after: end)...]).trimmed }
        if text.hasPrefix(VideoTools.input + ": ") { text = String(text.dropFirst(VideoTools.input.count + 2)) }
        return text.isEmpty ? "unreadable" : text
    }

    /// The header ffprobe's JSON describes, checked.
    static func header(from json: JSONValue, maxPixels: Int) -> Result<ImageHeader, ImageReadError> {
        let root = json.members
        let streams = root["streams"]?.elements ?? []
        let format = root["format"]?.members ?? [:]
        // Cover art travels as a one-frame "video" stream: it is not the video.
        let videos = streams.filter { $0.members["codec_type"]?.text == "video" && $0.members["disposition"]?.members["attached_pic"]?.number != 1 }
        guard let video = videos.first?.members else {
            return .failure(ImageReadError(.unsupported, streams.isEmpty ? "no streams" : "no video stream (sound only)"))
        }
        guard let codec = video["codec_name"]?.text, let width = video["width"]?.number, let height = video["height"]?.number else {
            return .failure(ImageReadError(.unsupported, "a video stream ffprobe cannot name or size"))
        }
        guard width > 0, height > 0 else { return .failure(ImageReadError(.corrupt, "zero width or height (\(width)×\(height))")) }
        guard let rotation = Self.rotation(video) else {
            return .failure(ImageReadError(.unsupported, "a display matrix that is not a plain quarter turn (mirrored, scaled or at another angle)"))
        }
        var (displayWidth, displayHeight) = Self.applying(aspect: video["sample_aspect_ratio"]?.text, width: width, height: height)
        if rotation % 180 != 0 { swap(&displayWidth, &displayHeight) }
        if width > 65_536 || height > 65_536 || displayWidth * displayHeight > maxPixels || width * height > maxPixels {
            return .failure(ImageReadError(.tooLarge, "\(width)×\(height) is " + HeaderReader.overLimit(pixels: width * height, limit: maxPixels)))
        }
        let audio = streams.first { $0.members["codec_type"]?.text == "audio" }?.members["codec_name"]?.text
        let seconds = format["duration"]?.text.flatMap(Double.init) ?? video["duration"]?.text.flatMap(Double.init) ?? 0
        let facts = VideoFacts(
            container: format["format_name"]?.text ?? "", codec: codec, pixelFormat: video["pix_fmt"]?.text ?? "",
            audioCodec: audio, durationMilliseconds: seconds.isFinite && seconds > 0 && seconds < 1e7 ? Int(seconds * 1000) : 0,
            codedWidth: width, codedHeight: height, rotation: rotation,
            creationTime: format["tags"]?.members["creation_time"]?.text.map { String($0.prefix(40)) },
            contentIdentifier: format["tags"]?.members[contentIdentifierKey]?.text.flatMap(ContentIdentifier.clean),
            transfer: video["color_transfer"]?.text.flatMap { $0.utf8.count <= 32 && $0 != "unknown" ? $0 : nil })
        var header = ImageHeader(format: .video, pixelWidth: displayWidth, pixelHeight: displayHeight)
        header.video = facts
        return .success(header)
    }

    /// The quarter turn clockwise the display matrix asks for; nil for any other matrix (a mirror, a scale,
    /// an angle that is not a quarter turn): FFmpeg and the browsers would not agree on how to show it, so
    /// such a video is refused rather than laid out one way and played another. Read from the matrix itself
    /// (ffprobe's `rotation` is rounded, and undefined for a degenerate matrix).
    static func rotation(_ stream: [String: JSONValue]) -> Int? {
        let sides = stream["side_data_list"]?.elements ?? []
        guard let side = sides.first(where: { $0.members["displaymatrix"] != nil || $0.members["rotation"] != nil })?.members else { return 0 }
        guard let text = side["displaymatrix"]?.text else {
            // No matrix text: only a whole quarter turn (a small number ffprobe printed) is taken.
            guard let degrees = side["rotation"]?.number, (-360...360).contains(degrees), degrees % 90 == 0 else { return nil }
            return ((-degrees % 360) + 360) % 360
        }
        return quarterTurn(matrix: text)
    }

    /// `00000000:  a  b  u` / `00000001:  c  d  v` / `00000002:  x  y  w`, as ffprobe prints a display
    /// matrix (16.16 fixed point): the clockwise quarter turn it is, if it is one.
    static func quarterTurn(matrix text: String) -> Int? {
        let rows = text.split(whereSeparator: \.isNewline).map { line in
            line.split(separator: ":", maxSplits: 1).last.map { $0.split(separator: " ").compactMap { Int($0) } } ?? []
        }
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 }) else { return nil }
        let one = 1 << 16
        switch (rows[0][0], rows[0][1], rows[1][0], rows[1][1]) {
        case (one, 0, 0, one): return 0
        case (0, one, -one, 0): return 90
        case (-one, 0, 0, -one): return 180
        case (0, -one, one, 0): return 270
        default: return nil
        }
    }

    /// The size a sample aspect ratio `N:D` shows: the width stretched (or shrunk), the height kept, as
    /// players show it.
    static func applying(aspect: String?, width: Int, height: Int) -> (Int, Int) {
        guard let parts = aspect?.split(separator: ":"), parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]),
              n > 0, d > 0, n != d, n <= 100 * d, d <= 100 * n else { return (width, height) }
        return (max(1, (width * n + d / 2) / d), height)
    }
}
