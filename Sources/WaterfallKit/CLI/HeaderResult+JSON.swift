/// How `inspect` shows each file.
extension HeaderResult {
    var jsonValue: JSONValue {
        switch header {
        case .success(let header):
            if let video = header.video {
                .object([
                    ("path", .string(path)),
                    ("format", .string("video")),
                    ("container", .string(video.container)),
                    ("codec", .string(video.codec)),
                    ("audio", video.audioCodec.map { .string($0) } ?? .null),
                    ("duration", video.durationMilliseconds > 0 ? .double(Double(video.durationMilliseconds) / 1000) : .null),
                    ("pixelWidth", .int(video.codedWidth)),
                    ("pixelHeight", .int(video.codedHeight)),
                    ("rotation", .int(video.rotation)),
                    ("width", .int(header.width)),
                    ("height", .int(header.height)),
                ] + (video.isHDR ? [("hdr", .string(video.transfer ?? ""))] : []))  // its curve: arib-std-b67 (HLG), smpte2084 (PQ)
            } else {
                .object([
                    ("path", .string(path)),
                    ("format", .string(header.format.rawValue)),
                    ("pixelWidth", .int(header.pixelWidth)),
                    ("pixelHeight", .int(header.pixelHeight)),
                    ("orientation", .int(header.orientation.rawValue)),
                    ("width", .int(header.width)),
                    ("height", .int(header.height)),
                ] + (header.isAnimated ? [("animated", .bool(true)), ("frames", .int(header.frames))] : []))
            }
        case .failure(let error):
            .object([("path", .string(path)), ("error", .string(error.reason))])
        }
    }

    static func json(_ results: [HeaderResult]) -> String {
        JSONValue.array(results.map(\.jsonValue)).renderedOnePerLine()
    }

    static func table(_ results: [HeaderResult]) -> String {
        let rows: [[String]] = results.map { result in
            switch result.header {
            case .success(let header) where header.video != nil:
                [result.path, "video (\(header.video!.codec)" + (header.video!.durationText.map { ", \($0)" } ?? "") + ")",
                 "\(header.video!.codedWidth)×\(header.video!.codedHeight)", "\(header.video!.rotation)°", "\(header.width)×\(header.height)"]
            case .success(let header):
                [result.path, header.format.rawValue + (header.isAnimated ? " (\(header.frames) frames)" : ""),
                 "\(header.pixelWidth)×\(header.pixelHeight)",
                 String(header.orientation.rawValue), "\(header.width)×\(header.height)"]
            case .failure(let error):
                [result.path, "error: \(error.reason)"]
            }
        }
        let heading = ["FILE", "FORMAT", "STORED", "ORIENTATION", "DISPLAY"]
        let failed = results.count { !$0.succeeded }
        let summary = "\(results.count) file\(results.count == 1 ? "" : "s"), \(failed) unreadable\n"
        return TextTable(heading: heading, rows: rows).rendered() + summary
    }
}
