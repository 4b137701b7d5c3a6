import CImageIO

/// The content hash that proves a file is the one a record describes: without a key, the fast 128-bit
/// FNV-1a pair (`ContentDigest.of`, which anyone can match); in keyed mode, keyed BLAKE2b of the file's
/// bytes under the key's content subkey, which no one without the key can compute, let alone match. One
/// hasher serves a whole build (the scan, the cache and the output's records), so the hashes agree.
struct ContentHasher: Sendable {
    private let mac: RecordMAC?

    static let plain = ContentHasher(mac: nil)

    private init(mac: RecordMAC?) { self.mac = mac }

    init(key: [UInt8]) { mac = RecordMAC(key: key) }

    var isKeyed: Bool { mac != nil }

    func digest(_ bytes: [UInt8]) -> ContentDigest {
        guard let mac else { return ContentDigest.of(bytes) }
        return mac.tag(bytes)
    }

    /// Hands C code that hashes bytes as it streams them (archive/zip_writer.c) what it hashes with: the
    /// prepared keyed state, or nil for the plain hash.
    func withState<Result>(_ body: (UnsafePointer<UInt8>?) -> Result) -> Result {
        guard let mac else { return body(nil) }
        return mac.withPreparedState { body($0) }
    }

    /// The digest C code hashing with `withState`'s state wrote as 16 bytes: the keyed tag, or the plain
    /// hash's two words in the machine's order.
    func digest(streamed bytes: [UInt8]) -> ContentDigest {
        guard mac == nil else { return RecordMAC.digest(bytes) }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyBytes(from: bytes.prefix(16)) }
        return ContentDigest(words)
    }

    /// The hash of a whole open file, read from its start.
    func digest(_ file: OpenFile) throws(FileSystemError) -> ContentDigest {
        guard let mac else { return try file.contentDigest() }
        guard let tag = mac.tag(descriptor: file.descriptor) else { throw FileSystemError.system(file.path, "cannot read") }
        return tag
    }
}
