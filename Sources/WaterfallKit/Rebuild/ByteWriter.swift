#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Writes the index's values into a file in blocks, keeping its checksum (in keyed mode, its MAC).
struct ByteWriter {
    private var file: BufferedWriter
    private var block: [UInt8] = []
    private var checksum = Checksum.start
    private var mac: RecordMAC.Stream?

    init(_ file: BufferedWriter, mac: RecordMAC? = nil) {
        self.file = file
        self.mac = mac?.stream()
        block.reserveCapacity(1 << 16)
    }

    var isKeyed: Bool { mac != nil }

    mutating func bytes<Bytes: Collection>(_ bytes: Bytes) throws(FileSystemError) where Bytes.Element == UInt8 {
        block.append(contentsOf: bytes)
        if block.count >= 1 << 16 { try spill() }
    }

    mutating func uint64(_ value: UInt64) throws(FileSystemError) {
        try withUnsafeBytes(of: value.littleEndian) { (raw) throws(FileSystemError) in try bytes(raw) }
    }

    mutating func int(_ value: Int) throws(FileSystemError) { try uint64(UInt64(bitPattern: Int64(value))) }

    mutating func count(_ value: Int) throws(FileSystemError) { try uint64(UInt64(value)) }

    mutating func string(_ text: String) throws(FileSystemError) {
        try count(text.utf8.count)
        try bytes(text.utf8)
    }

    mutating func optional(_ text: String?) throws(FileSystemError) {
        try bytes(CollectionOfOne(text == nil ? 0 : 1))
        if let text { try string(text) }
    }

    mutating func optional(_ number: Int?) throws(FileSystemError) {
        try bytes(CollectionOfOne(number == nil ? 0 : 1))
        if let number { try int(number) }
    }

    mutating func entry(_ entry: BuildCache.Entry, numbers: [String: Int]) throws(FileSystemError) {
        try string(entry.name)
        try int(entry.size)
        try int(entry.modified)
        try string(entry.content)
        try string(entry.header.format.rawValue)
        for value in [entry.header.pixelWidth, entry.header.pixelHeight, entry.header.orientation.rawValue, entry.header.frames] {
            try int(value)
        }
        try bytes(CollectionOfOne(entry.header.video == nil ? 0 : 1))
        if let video = entry.header.video {
            for text in [video.container, video.codec, video.pixelFormat] { try string(text) }
            try optional(video.audioCodec)
            for value in [video.durationMilliseconds, video.codedWidth, video.codedHeight, video.rotation] { try int(value) }
            try optional(video.creationTime)
            try optional(video.contentIdentifier)
            try optional(video.transfer)
        }
        try int(entry.factsVersion)
        try facts(entry.facts)
        try count(entry.derived.count)
        for label in entry.derived.labels {
            let derived = entry.derived[label]!
            try count(numbers[label]!)
            try count(numbers[derived.key]!)
            try string(derived.file)
            try int(derived.bytes)
            try string(derived.hash?.hex ?? "")
            try int(derived.width)
            try int(derived.height)
            try string(derived.format.rawValue)
            try optional(derived.averageColor?.hex)
            try optional(derived.sketch?.base64)
        }
    }

    /// Writes what is left and the checksum (the MAC).
    mutating func finish() throws(FileSystemError) {
        try spill()
        if let mac {
            try file.append(bytes: RecordMAC.bytes(mac.tag))
        } else {
            try withUnsafeBytes(of: checksum.littleEndian) { (raw) throws(FileSystemError) in try file.append(bytes: raw) }
        }
        try file.flush()
    }

    /// Writes the cache's file `name` (at its top) through `body`, under a temporary name then renamed: a
    /// build killed on the way leaves the old file or none. Any failure leaves the old file.
    static func replace(_ name: String, in folder: CacheFolder, temporary: String, mac: RecordMAC?,
                        _ body: (inout ByteWriter) throws(FileSystemError) -> Void) {
        folder.tmp.remove(temporary)
        guard let descriptor = try? folder.tmp.createNew(temporary) else { return }
        var writer = ByteWriter(BufferedWriter(descriptor: descriptor, path: folder.tmp.display(temporary)), mac: mac)
        let written: Bool
        do {
            try body(&writer)
            try writer.finish()
            written = true
        } catch {
            written = false
        }
        close(descriptor)
        guard written, (try? folder.tmp.rename(temporary, to: folder.root, as: name)) != nil else {
            folder.tmp.remove(temporary)
            return
        }
    }

    private mutating func spill() throws(FileSystemError) {
        if var stream = mac {
            stream.add(block)
            mac = stream
        } else {
            checksum = Checksum.of(block, from: checksum)
        }
        try file.append(bytes: block)
        block.removeAll(keepingCapacity: true)
    }
}
