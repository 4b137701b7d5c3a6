/// Reads the index's values, every length checked against what is left.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var isAtEnd: Bool { index == bytes.endIndex }

    /// What `ByteWriter` wrote after `magic`, when the file starts so and its trailer (the checksum, or with
    /// `mac` the MAC) holds; nil for anything else.
    static func body(of bytes: [UInt8], magic: [UInt8], mac: RecordMAC?) -> ArraySlice<UInt8>? {
        let trailer = mac == nil ? 8 : RecordMAC.tagBytes
        guard bytes.count >= magic.count + trailer, bytes.starts(with: magic) else { return nil }
        let body = bytes[..<(bytes.count - trailer)]
        if let mac {
            guard mac.verify(RecordMAC.digest(bytes[body.endIndex...]), body) else { return nil }
        } else {
            var checksum = ByteReader(bytes[body.endIndex...])
            guard checksum.uint64() == Checksum.of(body) else { return nil }
        }
        return body.dropFirst(magic.count)
    }

    mutating func uint64() -> UInt64? {
        guard bytes.endIndex - index >= 8 else { return nil }
        var value: UInt64 = 0
        for offset in (0..<8).reversed() { value = value << 8 | UInt64(bytes[index + offset]) }
        index += 8
        return value
    }

    mutating func int() -> Int? { uint64().map { Int(Int64(bitPattern: $0)) } }

    /// A count or a length: never more than the bytes left could hold.
    mutating func count() -> Int? {
        guard let value = uint64(), value <= UInt64(bytes.endIndex - index) else { return nil }
        return Int(value)
    }

    /// A string read as a digest, in place (no String made): the digest when it is 32 hex digits, nil
    /// inside when it is any other text, nil when there is no string.
    mutating func digest() -> ContentDigest?? {
        guard let length = count() else { return nil }
        defer { index += length }
        return .some(length == 32 ? ContentDigest(hexBytes: bytes[index..<index + length]) : nil)
    }

    mutating func string() -> String? {
        guard let length = count() else { return nil }
        defer { index += length }
        // Over the bytes in place; ASCII (names, hashes, store files: the common case) needs no validating.
        return bytes[index..<index + length].withUnsafeBufferPointer { text in
            text.allSatisfy { $0 < 0x80 } ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
        }
    }

    /// A byte that is 0 or 1; nil for anything else.
    mutating func flag() -> Bool? {
        guard index < bytes.endIndex, bytes[index] <= 1 else { return nil }
        defer { index += 1 }
        return bytes[index] == 1
    }

    /// A value `read` reads, after a flag byte saying whether there is one; nil when either is bad.
    mutating func optional<Value>(_ read: (inout ByteReader) -> Value?) -> Value?? {
        guard index < bytes.endIndex else { return nil }
        let flag = bytes[index]
        index += 1
        switch flag {
        case 0: return .some(nil)
        case 1: return read(&self).map { .some($0) }
        default: return nil
        }
    }

    mutating func strings() -> [String]? {
        guard let count = count() else { return nil }
        var strings: [String] = []
        for _ in 0..<count {
            guard let text = string() else { return nil }
            strings.append(text)
        }
        return strings
    }

    /// A video's facts, held to the same checks as in an entry's JSON file.
    mutating func video() -> VideoFacts? {
        guard let container = string(), let codec = string(), let pixelFormat = string(), let audio = optional({ $0.string() }),
              let duration = int(), let width = int(), let height = int(), let rotation = int(),
              let created = optional({ $0.string() }), let identifier = optional({ $0.string() }),
              let transfer = optional({ $0.string() }) else { return nil }
        let facts = VideoFacts(container: container, codec: codec, pixelFormat: pixelFormat, audioCodec: audio,
                               durationMilliseconds: duration, codedWidth: width, codedHeight: height, rotation: rotation,
                               creationTime: created, contentIdentifier: identifier, transfer: transfer)
        return facts.isPlausible ? facts : nil
    }

    /// An entry, held to the same checks as one read from its JSON file.
    mutating func entry(shared: [String]) -> BuildCache.Entry? {
        guard let name = string(), let size = int(), let modified = int(), let content = string(),
              let format = string().flatMap(ImageFormat.init(rawValue:)), let width = int(), let height = int(),
              let orientation = int(), let frames = int(), let video = optional({ $0.video() }),
              let factsVersion = int(), let facts = facts(), let derivedCount = count(),
              BuildCache.Entry.plausible(width, height), (1...8).contains(orientation) else { return nil }
        var entry = BuildCache.Entry(name: name, size: size, modified: modified, content: content,
                                     header: ImageHeader(format: format, pixelWidth: width, pixelHeight: height,
                                                         orientation: Orientation(rawValue: orientation)))
        if (1...100_000).contains(frames) { entry.header.frames = frames }
        guard (format == .video) == (video != nil) else { return nil }
        entry.header.video = video
        entry.facts = facts
        entry.factsVersion = factsVersion
        for _ in 0..<derivedCount {
            guard let label = count().flatMap({ shared.indices.contains($0) ? shared[$0] : nil }),
                  let key = count().flatMap({ shared.indices.contains($0) ? shared[$0] : nil }),
                  let file = string(), let bytes = int(), let hash = digest(), let w = int(), let h = int(),
                  let kind = string().flatMap(ImageFormat.init(rawValue:)), let average = optional({ $0.string() }),
                  let sketch = optional({ $0.string() }),
                  BuildCache.Entry.isStoreName(file), BuildCache.Entry.plausible(w, h) else { return nil }
            entry.derived[label] = BuildCache.Derived(key: key, file: file, bytes: bytes, hash: hash, width: w, height: h,
                                                      format: kind, averageColor: average.flatMap { AverageColor(hex: $0) },
                                                      sketch: sketch.flatMap { Sketch(base64: $0) })
        }
        return entry
    }
}
