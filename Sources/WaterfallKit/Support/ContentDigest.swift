import CImageIO

/// A content hash held as two words (a record of the output keeps hundreds of thousands of them); its
/// text is the 32 hex digits `ContentHash` writes.
struct ContentDigest: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    init(_ words: (UInt64, UInt64)) {
        high = words.0
        low = words.1
    }

    /// From 32 hex digits; nil for anything else.
    /// Read byte by byte: a rebuild of 100,000 photos reads some 700,000 of them.
    init?(hex: String) { self.init(hexBytes: hex.utf8) }

    init?<Bytes: Sequence>(hexBytes: Bytes) where Bytes.Element == UInt8 {
        // Over the bytes in place when they are contiguous: a rebuild reads half a million digests.
        guard let words = hexBytes.withContiguousStorageIfAvailable(Self.words) ?? Self.words(hexBytes) else { return nil }
        self.init(words)
    }

    /// The two words 32 hex digits spell; nil for anything else.
    private static func words<Bytes: Sequence>(_ hexBytes: Bytes) -> (UInt64, UInt64)? where Bytes.Element == UInt8 {
        var words: (UInt64, UInt64) = (0, 0)
        var count = 0
        for byte in hexBytes {
            guard count < 32, let digit = byte.hexDigitValue.map(UInt64.init) else { return nil }
            if count < 16 { words.0 = words.0 << 4 | digit } else { words.1 = words.1 << 4 | digit }
            count += 1
        }
        return count == 32 ? words : nil
    }

    var hex: String { ContentHash.hex((high, low)) }

    static func of(_ bytes: [UInt8]) -> ContentDigest {
        var hash: (UInt64, UInt64) = (0, 0)
        bytes.withUnsafeBufferPointer { buffer in
            withUnsafeMutableBytes(of: &hash) { wf_hash_bytes(buffer.baseAddress, buffer.count, $0.baseAddress!.assumingMemoryBound(to: UInt64.self)) }
        }
        return ContentDigest(hash)
    }
}
