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

    /// The hash of a whole open file, read from its start.
    func digest(_ file: OpenFile) throws(FileSystemError) -> ContentDigest {
        guard let mac else { return try file.contentDigest() }
        guard let tag = mac.tag(descriptor: file.descriptor) else { throw FileSystemError.system(file.path, "cannot read") }
        return tag
    }
}
