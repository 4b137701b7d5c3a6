import CImageIO

/// Keyed mode's secret (`WATERFALL_KEY`, or `--key-file FILE`): 32 random bytes, written as 64 hexadecimal
/// digits. From it come one subkey per purpose (libsodium's crypto_kdf), so that a tag of one kind of
/// record never passes for another's: the content hash of files, the cache's entries, the cache's index,
/// the output's records (manifest and journal lines), the manifest's seal, the plan memo and the memo of
/// XMP sidecars' readings.
///
/// With a key, every cache entry and output record carries a MAC under it, and one without a valid MAC is
/// treated as absent; files are proven by a keyed hash of their bytes. Whoever can write the cache or the
/// records but cannot read the key can then cost a build time, never make it publish, keep, replace or
/// delete anything it would not otherwise (docs/safety.md says what holds, and what does not).
public struct RecordKey: Sendable {
    let content: ContentHasher
    let entries: RecordMAC
    let index: RecordMAC
    let records: RecordMAC
    /// The manifest's seal: one tag for the whole file, so that a rebuild need not check each line's.
    let manifest: RecordMAC
    let memo: RecordMAC
    let sidecars: RecordMAC

    public static let environmentVariable = "WATERFALL_KEY"
    /// 32 bytes: 256 bits, the most BLAKE2b's keyed mode and crypto_kdf take and the least worth having.
    static let hexDigits = 2 * RecordMAC.keyBytes
    /// A key of 64 hex digits that uses fewer different digits than this is a placeholder, not a random key
    /// (a random one does so with a probability under 10⁻¹⁸).
    static let minimumDistinctDigits = 8
    static let advice = "make one with 'openssl rand -hex 32'"

    /// What makes a text no key, in one line.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The key a text holds: 64 hexadecimal digits (either case), surrounding white space (a file's last
    /// newline) left out. `origin` names where it came from, for messages; the key is never shown.
    public init(text: [UInt8], origin: String) throws(Problem) {
        let digits = Self.trimmed(text)
        if digits.isEmpty {
            throw Problem(description: "\(origin) is empty (a CI secret not given to this job?); give the key, or unset "
                + "\(Self.environmentVariable) and leave out --key-file to build without one")
        }
        let values = digits.compactMap(\.hexDigitValue)
        guard digits.count == Self.hexDigits, values.count == digits.count else {
            let plural = digits.count == 1 ? "" : "s"
            let kind = values.count == digits.count ? "" : ", not all of them hexadecimal digits"
            throw Problem(description: "\(origin): not a key: a key is \(Self.hexDigits) hexadecimal digits (32 random bytes), "
                + "this is \(digits.count) character\(plural)\(kind); \(Self.advice)")
        }
        guard Set(values).count >= Self.minimumDistinctDigits else {
            throw Problem(description: "\(origin): not a random key (it uses only \(Set(values).count) of the 16 hexadecimal digits); "
                + Self.advice)
        }
        let master = stride(from: 0, to: values.count, by: 2).map { UInt8(values[$0] << 4 | values[$0 + 1]) }
        guard wf_crypto_ready() == 0 else { throw Problem(description: "\(origin): libsodium could not be started") }
        content = ContentHasher(key: try Self.subkey(.content, of: master, origin: origin))
        entries = RecordMAC(key: try Self.subkey(.cacheEntry, of: master, origin: origin))
        index = RecordMAC(key: try Self.subkey(.cacheIndex, of: master, origin: origin))
        records = RecordMAC(key: try Self.subkey(.outputRecord, of: master, origin: origin))
        manifest = RecordMAC(key: try Self.subkey(.manifestSeal, of: master, origin: origin))
        memo = RecordMAC(key: try Self.subkey(.planMemo, of: master, origin: origin))
        sidecars = RecordMAC(key: try Self.subkey(.sidecarMemo, of: master, origin: origin))
    }

    /// What each subkey is for (crypto_kdf's subkey numbers: never reuse one for another purpose).
    private enum Purpose: UInt64 {
        case content = 1, cacheEntry, cacheIndex, outputRecord, planMemo, manifestSeal, sidecarMemo
    }

    private static func subkey(_ purpose: Purpose, of master: [UInt8], origin: String) throws(Problem) -> [UInt8] {
        var subkey = [UInt8](repeating: 0, count: RecordMAC.keyBytes)
        let status = subkey.withUnsafeMutableBufferPointer { out in
            master.withUnsafeBufferPointer { wf_key_derive(out.baseAddress!, purpose.rawValue, $0.baseAddress!) }
        }
        guard status == 0 else { throw Problem(description: "\(origin): cannot derive the key's subkeys") }
        return subkey
    }

    private static func trimmed(_ text: [UInt8]) -> ArraySlice<UInt8> {
        let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        guard let first = text.firstIndex(where: { !space.contains($0) }), let last = text.lastIndex(where: { !space.contains($0) }) else {
            return []
        }
        return text[first...last]
    }
}
