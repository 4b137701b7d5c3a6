extension CacheEntry {
    init?(json: JSONValue) {
        guard case .object(let members) = json else { return nil }
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        guard case .string(let name)? = fields["name"], case .int(let size)? = fields["size"],
              case .int(let modified)? = fields["modified"], case .string(let content)? = fields["content"],
              case .string(let format)? = fields["format"], let imageFormat = ImageFormat(rawValue: format),
              case .int(let width)? = fields["pixelWidth"], case .int(let height)? = fields["pixelHeight"],
              case .int(let orientation)? = fields["orientation"], case .object(let derived)? = fields["derived"],
              Self.plausible(width, height), (1...8).contains(orientation) else {
            return nil
        }
        self.name = name
        self.size = size
        self.modified = modified
        self.content = content
        header = ImageHeader(format: imageFormat, pixelWidth: width, pixelHeight: height,
                             orientation: Orientation(rawValue: orientation))
        if case .int(let frames)? = fields["frames"], (1...100_000).contains(frames) { header.frames = frames }
        // A video's facts come with it, and only with a video.
        header.video = fields["video"].flatMap(VideoFacts.init(json:))
        guard (imageFormat == .video) == (header.video != nil) else { return nil }
        // Facts of another version are read again from the photo (`factsVersion`), its images kept.
        if case .int(let version)? = fields["factsVersion"], version == Versions.facts, let read = fields["facts"].flatMap(PhotoFacts.init(json:)) {
            facts = read
            factsVersion = version
        } else {
            factsVersion = 0
        }
        for (label, value) in derived {
            guard case .object(let parts) = value else { return nil }
            let part = Dictionary(parts, uniquingKeysWith: { first, _ in first })
            guard case .string(let key)? = part["key"], case .string(let file)? = part["file"],
                  case .int(let bytes)? = part["bytes"], case .string(let hash)? = part["hash"],
                  case .int(let w)? = part["width"], case .int(let h)? = part["height"],
                  case .string(let kind)? = part["format"], let derivedFormat = ImageFormat(rawValue: kind),
                  Self.isStoreName(file), Self.plausible(w, h) else { return nil }
            var color: AverageColor?
            if case .string(let hex)? = part["average"] { color = AverageColor(hex: hex) }
            var sketch: Sketch?
            if case .string(let text)? = part["sketch"] { sketch = Sketch(base64: text) }
            self.derived[label] = StoredImage(key: key, file: file, bytes: bytes, hash: ContentDigest(hex: hash), width: w, height: h,
                                              format: derivedFormat, averageColor: color, sketch: sketch)
        }
    }

    /// A name in the image store (a planted entry may not name a file outside it).
    static func isStoreName(_ file: String) -> Bool {
        !file.utf8.contains(UInt8(ascii: "/")) && file.utf8.first != UInt8(ascii: ".") && !file.isEmpty  // by bytes: 300,000 of them
    }

    /// Sizes a header reader could have produced (a damaged or planted entry is not trusted to be sane).
    static func plausible(_ width: Int, _ height: Int) -> Bool {
        (1...1_000_000).contains(width) && (1...1_000_000).contains(height)
    }

    var json: JSONValue {
        .object([
            ("name", .string(name)), ("size", .int(size)), ("modified", .int(modified)), ("content", .string(content)),
            ("format", .string(header.format.rawValue)), ("pixelWidth", .int(header.pixelWidth)),
            ("pixelHeight", .int(header.pixelHeight)), ("orientation", .int(header.orientation.rawValue)), ("frames", .int(header.frames)),
            ("video", header.video?.json ?? .null),
            ("factsVersion", .int(factsVersion)), ("facts", facts.json),
            ("derived", .object(derived.labels.map { label in
                let item = derived[label]!
                return (label, .object([("key", .string(item.key)), ("file", .string(item.file)), ("bytes", .int(item.bytes)),
                                        ("hash", .string(item.hash?.hex ?? "")),
                                        ("width", .int(item.width)), ("height", .int(item.height)),
                                        ("format", .string(item.format.rawValue))]
                                       + (item.averageColor.map { [("average", .string($0.hex))] } ?? [])
                                       + (item.sketch.map { [("sketch", .string($0.base64))] } ?? [])))
            })),
        ])
    }
}
