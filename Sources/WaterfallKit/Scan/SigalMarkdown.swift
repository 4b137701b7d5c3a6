/// sigal's Markdown sidecar: `IMG_1.md` beside `IMG_1.jpg` (never `IMG_1.jpg.md`), and an album's
/// `index.md`. Read as sigal 2.5 reads them (Python-Markdown's `meta` extension): an optional first line
/// `---`, then `Key: value` lines (keys in any case, up to 3 spaces before them), each continued by lines
/// indented 4 spaces or more; the block ends at a blank line, at `---` or `...`, or at the first line that is
/// neither. The rest is the Markdown body: the description, rendered to HTML by cmark-gfm.
struct SigalMarkdown: Equatable {
    /// Each key (lower-cased) and its values, a line each.
    var meta: [String: [String]]
    /// The Markdown after the meta block.
    var body: [UInt8]

    /// A sidecar larger than this is not a description (cmark's limit too).
    static let maximumBytes = RenderedMarkdown.maximumBytes
    static let albumFile = "index.md"

    var title: String? { meta["title"]?.first }

    /// Reads it as sigal does: UTF-8, a byte-order mark dropped, `\r\n` and `\r` as line ends, tabs as 4 spaces.
    static func parse(_ bytes: [UInt8]) -> SigalMarkdown {
        var unified: [UInt8] = []
        unified.reserveCapacity(bytes.count)
        for (offset, byte) in bytes.enumerated() where offset >= (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0) {
            if byte == 13 { unified.append(10) } else if byte != 10 || offset == 0 || bytes[offset - 1] != 13 { unified.append(byte) }
        }
        var lines = unified.split(separator: 10, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var meta: [String: [String]] = [:]
        var index = 0
        if let first = lines.first, isBegin(first) { index = 1 }
        var key: String?
        while index < lines.count {
            let line = lines[index].map { $0 == "\t" ? "    " : String($0) }.joined()
            if line.trimmed.isEmpty || isEnd(line) {
                index += 1
                break
            }
            if let (name, value) = keyLine(line) {
                key = name
                meta[name, default: []].append(value)
            } else if let key, line.hasPrefix("    ") {
                meta[key, default: []].append(line.trimmed)
            } else {
                break
            }
            index += 1
        }
        lines.removeFirst(min(index, lines.count))
        return SigalMarkdown(meta: meta, body: Array(lines.joined(separator: "\n").utf8))
    }

    /// `^-{3}(\s.*)?`: three dashes, then nothing or a space and anything.
    static func isBegin(_ line: String) -> Bool {
        line.hasPrefix("---") && (line.count == 3 || line.dropFirst(3).first?.isWhitespace == true)
    }

    static func isEnd(_ line: String) -> Bool {
        isBegin(line) || (line.hasPrefix("...") && (line.count == 3 || line.dropFirst(3).first?.isWhitespace == true))
    }

    /// `^[ ]{0,3}([A-Za-z0-9_-]+):\s*(.*)`, the key lower-cased and the value trimmed.
    static func keyLine(_ line: String) -> (String, String)? {
        let rest = line.drop { $0 == " " }
        guard line.count - rest.count <= 3, let colon = rest.firstIndex(of: ":") else { return nil }
        let name = rest[..<colon]
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") })
        else { return nil }
        return (name.lowercased(), String(rest[rest.index(after: colon)...]).trimmed)
    }

    /// sigal's `Date` (Python's `datetime.fromisoformat`): `2024-05-17`, `2024-05-17 08:30`, `2024-05-17T08:30:12`,
    /// with fractions or an offset after it ignored. Shown as written (no time zone is applied).
    static func date(_ text: String) -> PhotoMetadata.Taken? {
        let digits = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= digits.count else { return nil }
            var value = 0
            for byte in digits[from..<(from + count)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), digits.count >= 10, digits[4] == 45, digits[7] == 45, let month = number(5, 2),
              let day = number(8, 2), (1...12).contains(month), (1...31).contains(day), year >= 1 else { return nil }
        var (hour, minute, second) = (0, 0, 0)
        if digits.count > 10 {
            guard digits[10] == 84 || digits[10] == 32, let h = number(11, 2), digits.count > 13, digits[13] == 58,
                  let m = number(14, 2), h < 24, m < 60 else { return nil }
            (hour, minute) = (h, m)
            if digits.count > 16, digits[16] == 58 {
                guard let s = number(17, 2), s < 60 else { return nil }
                second = s
            }
        }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let shown = String(decoding: digits[0..<10], as: UTF8.self) + " \(two(hour)):\(two(minute)):\(two(second))"
        return PhotoMetadata.Taken(text: shown, number: ((year * 100 + month) * 100 + day) * 1_000_000 + hour * 10_000 + minute * 100 + second)
    }
}

extension SigalMarkdown {
    /// `IMG_1.md` for the photo `IMG_1.jpg` (a path relative to the input), as sigal names it.
    static func sidecarName(for name: String) -> String {
        let fileName = FolderPath.lastComponent(of: name)
        guard let dot = fileName.lastIndex(ofASCII: "."), dot != fileName.startIndex else { return name + ".md" }
        return SitePath.join(SitePath.folder(of: name), String(fileName[..<dot]) + ".md")
    }

    /// The photo's reading from its `NAME.md` (source `.sigal`): Title, the body as the description (HTML and
    /// plain text), and for a video its Date (sigal reads a photo's date from the photo alone). One that
    /// cannot be used is reported to `warn`, and the photo keeps its other sources.
    static func reading(for name: String, among names: Set<[UInt8]>, isVideo: Bool, input: InputFolder, decoders: DecoderPool?,
                        warn: (String) -> Void) -> PhotoMetadata? {
        let sidecar = sidecarName(for: name)
        guard names.contains(Array(sidecar.utf8)) else { return nil }
        guard let (markdown, rendered) = read(FolderPath.join(input.path, sidecar), input: input, decoders: decoders, warn: warn) else { return nil }
        let taken = isVideo ? markdown.meta["date"]?.first.flatMap(date) : nil
        var reading = PhotoMetadata(.sigal, title: markdown.title, description: rendered?.text, taken: taken)
        if reading.description != nil { reading.descriptionHTML = rendered?.html }
        return reading.isEmpty ? nil : reading
    }

    /// An album's `index.md` as album settings: Title, Thumbnail (the cover, a path from the album's folder)
    /// and the body as the description.
    static func albumSettings(_ path: String, input: InputFolder, decoders: DecoderPool?, warn: (String) -> Void)
        -> SiteConfiguration.AlbumSettings? {
        guard let (markdown, rendered) = read(path, input: input, decoders: decoders, warn: warn) else { return nil }
        var settings = SiteConfiguration.AlbumSettings()
        settings.title = markdown.title.flatMap { $0.isEmpty ? nil : $0 }
        settings.cover = markdown.meta["thumbnail"]?.first.flatMap { $0.isEmpty ? nil : $0 }
        if let rendered, !rendered.text.trimmed.isEmpty {
            settings.description = rendered.text.trimmed
            settings.descriptionHTML = rendered.html
        }
        return settings
    }

    /// The file read and its body rendered (nil when it has none, or no renderer was given); nil with a line
    /// to `warn` when it cannot be read. A body that cannot be rendered is left out with a line.
    private static func read(_ path: String, input: InputFolder, decoders: DecoderPool?, warn: (String) -> Void)
        -> (SigalMarkdown, RenderedMarkdown?)? {
        let markdown: SigalMarkdown
        do {
            markdown = parse(try input.open(path).read(limit: maximumBytes))
        } catch {
            warn("\(error); it is not used")
            return nil
        }
        guard let decoders, markdown.body.contains(where: { $0 > 32 }) else { return (markdown, nil) }
        switch RenderedMarkdown.render(markdown.body, decoders: decoders) {
        case .success(let rendered): return (markdown, rendered)
        case .failure(let error):
            warn("\(PathText.display(path)): \(error); its description is not used")
            return (markdown, nil)
        }
    }
}
