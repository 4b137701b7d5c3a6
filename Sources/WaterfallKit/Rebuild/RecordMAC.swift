import CImageIO

/// A keyed MAC for one kind of record: libsodium's keyed BLAKE2b with 16-byte tags, under a subkey of the
/// user's key (`RecordKey`). A record whose tag does not verify is no record. Tags are held as
/// `ContentDigest`s (two words; their hex is the tag's bytes in order).
struct RecordMAC: Sendable {
    /// The keyed state, prepared once and copied for each message (a record's tag costs no pass over the
    /// key block).
    private let prepared: [UInt8]

    static let tagBytes = Int(WF_TAG_BYTES)
    static let keyBytes = Int(WF_KEY_BYTES)

    init(key: [UInt8]) {
        precondition(key.count == Self.keyBytes, "a MAC key is \(Self.keyBytes) bytes")
        var state = [UInt8](repeating: 0, count: Int(WF_MAC_STATE_BYTES))
        state.withUnsafeMutableBufferPointer { state in
            key.withUnsafeBufferPointer { wf_mac_prepare(state.baseAddress!, $0.baseAddress!) }
        }
        prepared = state
    }

    /// The tag of `a` followed by `b`.
    func tag(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) -> ContentDigest {
        var tag = [UInt8](repeating: 0, count: Self.tagBytes)
        prepared.withUnsafeBufferPointer { state in
            tag.withUnsafeMutableBufferPointer { out in
                wf_mac_two(state.baseAddress!, Self.base(a), a.count, Self.base(b), b.count, out.baseAddress!)
            }
        }
        return Self.digest(tag)
    }

    func tag(_ bytes: some Collection<UInt8>) -> ContentDigest {
        Self.contiguous(bytes) { tag($0) }
    }

    /// Whether `expected` is the tag of `a` followed by `b` (compared in constant time).
    func verify(_ expected: ContentDigest, _ a: UnsafeRawBufferPointer,
                _ b: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) -> Bool {
        let tag = Self.bytes(expected)
        return prepared.withUnsafeBufferPointer { state in
            tag.withUnsafeBufferPointer { tag in
                wf_mac_check(state.baseAddress!, Self.base(a), a.count, Self.base(b), b.count, tag.baseAddress!) == 1
            }
        }
    }

    func verify(_ expected: ContentDigest, _ bytes: some Collection<UInt8>) -> Bool {
        Self.contiguous(bytes) { verify(expected, $0) }
    }

    /// The tag of a whole open file (read from its start); nil when it cannot be read.
    func tag(descriptor: Int32) -> ContentDigest? {
        var tag = [UInt8](repeating: 0, count: Self.tagBytes)
        let status = prepared.withUnsafeBufferPointer { state in
            tag.withUnsafeMutableBufferPointer { wf_mac_fd(state.baseAddress!, descriptor, $0.baseAddress!) }
        }
        return status == 0 ? Self.digest(tag) : nil
    }

    /// The prepared keyed state, for C code that hashes as it reads or writes (the album archives' writer).
    func withPreparedState<Result>(_ body: (UnsafePointer<UInt8>) -> Result) -> Result {
        prepared.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// A tag made over bytes given in parts (a file written in blocks).
    func stream() -> Stream { Stream(state: prepared) }

    struct Stream: Sendable {
        fileprivate var state: [UInt8]

        /// Adds `a` followed by `b`.
        mutating func add(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) {
            state.withUnsafeMutableBufferPointer {
                wf_mac_update($0.baseAddress!, RecordMAC.base(a), a.count, RecordMAC.base(b), b.count)
            }
        }

        mutating func add(_ bytes: some Collection<UInt8>) { RecordMAC.contiguous(bytes) { add($0) } }

        /// Adds a line's bytes and its newline, in one call.
        mutating func add(line: some Collection<UInt8>) {
            RecordMAC.contiguous(line) { line in withUnsafeBytes(of: UInt8(ascii: "\n")) { add(line, $0) } }
        }

        /// The tag of everything added so far (more may be added after).
        var tag: ContentDigest {
            var tag = [UInt8](repeating: 0, count: RecordMAC.tagBytes)
            state.withUnsafeBufferPointer { state in tag.withUnsafeMutableBufferPointer { wf_mac_final(state.baseAddress!, $0.baseAddress!) } }
            return RecordMAC.digest(tag)
        }
    }

    /// Whether two tags are equal, compared in constant time.
    static func equal(_ a: ContentDigest, _ b: ContentDigest) -> Bool {
        bytes(a).withUnsafeBufferPointer { a in bytes(b).withUnsafeBufferPointer { wf_tag_equal(a.baseAddress!, $0.baseAddress!) == 1 } }
    }

    fileprivate static func base(_ bytes: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
        bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }

    fileprivate static func contiguous<Result>(_ bytes: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = bytes.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(bytes).withUnsafeBytes(body)
    }

    /// Tag bytes as two big-endian words, so that the digest's hex is the bytes' hex.
    static func digest(_ tag: some Collection<UInt8>) -> ContentDigest {
        let tag = Array(tag)
        let word = { (range: Range<Int>) in tag[range].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        return ContentDigest((word(0..<8), word(8..<16)))
    }

    static func bytes(_ digest: ContentDigest) -> [UInt8] {
        (0..<16).map { index in
            let word = index < 8 ? digest.high : digest.low
            return UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * (index % 8)))
        }
    }
}

extension RecordMAC {
    /// A whole file's bytes sealed: the payload, then a line `mac HEX` with the payload's tag. A reader
    /// without a key takes such a file for a damaged one.
    func sealed(_ payload: [UInt8]) -> [UInt8] {
        payload + Array("\(Self.trailerStart)\(tag(payload).hex)\n".utf8)
    }

    /// The payload of sealed bytes when their tag verifies; nil for anything else (no seal, another key's).
    func opened(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let start = Self.trailerStart.utf8
        let trailer = start.count + 2 * Self.tagBytes + 1
        guard bytes.count >= trailer else { return nil }
        let cut = bytes.count - trailer
        let tail = bytes[cut...]
        guard tail.starts(with: start), tail.last == UInt8(ascii: "\n"),
              let tag = ContentDigest(hexBytes: tail.dropFirst(start.count).dropLast()),
              verify(tag, bytes[..<cut]) else { return nil }
        return bytes[..<cut]
    }

    private static let trailerStart = "\nmac "
}
