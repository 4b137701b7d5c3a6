#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One record of the output's manifest or journal as a line of JSON:
/// `{"path": "photos/a.jpg.html", "size": 1234, "hash": "…", "device": "64769", "inode": "1311", "modified": 17…}`,
/// and for a page made from known inputs, `"inputs": "…"` last. In keyed mode the record also holds the
/// file's change time (`"changed": …` after `modified`) and ends in its MAC, `"mac": "…"`: the tag, under
/// the key's record subkey, of the line as it would be without that field. A line whose MAC does not
/// verify is no record: each line stands alone, so one forged line proves nothing and costs no other.
///
/// Lines are written in exactly this shape, so reading takes a fast path over the bytes (a site of 100,000
/// photos has some 400,000 of them); a line in any other shape (a path that needs escapes, a line edited
/// by hand) goes through the full JSON parser, and a line that is not a record is not one.
enum OutputRecordLine {
    /// The line of `record`, sealed with its MAC when `mac` is given.
    static func render(_ record: OwnedFile, mac: RecordMAC? = nil) -> String {
        let line = JSONValue.object([
            ("path", .string(record.path)), ("size", .int(record.size)), ("hash", .string(record.hash?.hex ?? "")),
            ("device", .string(String(record.identity.device))), ("inode", .string(String(record.identity.inode))),
            ("modified", .int(record.modified)),
        ] + (mac != nil ? record.changed.map { [("changed", .int($0))] } ?? [] : [])
          + (record.inputs.map { [("inputs", .string($0.hex))] } ?? [])).rendered()
        guard let mac else { return line + "\n" }
        return String(line.dropLast()) + sealStart + mac.tag(line.utf8).hex + sealEnd + "\n"
    }

    static func parse(_ line: ArraySlice<UInt8>, mac: RecordMAC? = nil) -> OwnedFile? {
        parseInPlace(line, mac: mac).map { path, record in
            var record = record
            record.path = String(decoding: path, as: UTF8.self)
            return record
        }
    }

    /// `parse`, the path left as its UTF-8 bytes (read in place, no string made, in the common case) and
    /// the record's own path empty. With `mac`, only a line whose MAC verifies (unless not `verifying`: the
    /// manifest's seal vouched for it), and that holds a change time.
    static func parseInPlace(_ line: ArraySlice<UInt8>, mac: RecordMAC? = nil,
                             verifying: Bool = true) -> (path: ArraySlice<UInt8>, record: OwnedFile)? {
        guard let mac else { return parseUnsealed(line, sealed: false) }
        guard let body = unsealed(line, mac: mac, verifying: verifying), let parsed = parseUnsealed(body, sealed: true),
              parsed.record.changed != nil else { return nil }
        return parsed
    }

    /// A line read as it was before its MAC was added (`sealed`: its closing `}` is cut off with the MAC).
    private static func parseUnsealed(_ line: ArraySlice<UInt8>, sealed: Bool) -> (path: ArraySlice<UInt8>, record: OwnedFile)? {
        var cursor = Cursor(bytes: line, sealed: sealed)
        if let parsed = cursor.record() { return parsed }
        return generic(sealed ? line + [UInt8(ascii: "}")] : line).map { record in
            var record = record
            let path = ArraySlice(record.path.utf8)
            record.path = ""
            return (path, record)
        }
    }

    private static let sealStart = #", "mac": ""#
    private static let sealEnd = #""}"#

    /// The manifest's last line in keyed mode: the tag, under the key's manifest subkey, of every byte before
    /// it. When it verifies, it vouches for every line at once.
    static func manifestSeal(_ tag: ContentDigest) -> String { manifestSealStart + tag.hex + sealEnd + "\n" }

    /// The tag a manifest's seal line holds; nil for any other line.
    static func manifestSealTag(_ line: ArraySlice<UInt8>) -> ContentDigest? {
        let start = manifestSealStart.utf8.count, end = sealEnd.utf8.count
        guard line.count == start + 2 * RecordMAC.tagBytes + end, line.starts(with: manifestSealStart.utf8),
              line.suffix(end).elementsEqual(sealEnd.utf8) else { return nil }
        return ContentDigest(hexBytes: line.dropFirst(start).dropLast(end))
    }

    private static let manifestSealStart = #"{"waterfall": "seal", "mac": ""#

    /// The line up to its MAC (without the closing `}` that the MAC was made with) when the MAC verifies, or
    /// without checking it when not `verifying` (a manifest whose seal vouches for it).
    private static func unsealed(_ line: ArraySlice<UInt8>, mac: RecordMAC, verifying: Bool) -> ArraySlice<UInt8>? {
        let start = sealStart.utf8.count, end = sealEnd.utf8.count, hex = 2 * RecordMAC.tagBytes
        guard line.count > start + hex + end else { return nil }
        let cut = line.endIndex - end - hex - start
        guard line[cut..<cut + start].elementsEqual(sealStart.utf8), line[(line.endIndex - end)...].elementsEqual(sealEnd.utf8),
              let tag = ContentDigest(hexBytes: line[(cut + start)..<(line.endIndex - end)]) else { return nil }
        let body = line[..<cut]
        guard verifying else { return body }
        let verified = body.withUnsafeBytes { body in
            withUnsafeBytes(of: UInt8(ascii: "}")) { mac.verify(tag, body, $0) }
        }
        return verified ? body : nil
    }

    /// The fast path: the exact shape `render` writes, or nil.
    private struct Cursor {
        let bytes: ArraySlice<UInt8>
        var index: Int
        /// The line's MAC and closing `}` are cut off: it ends where its last field does.
        let sealed: Bool

        init(bytes: ArraySlice<UInt8>, sealed: Bool) {
            self.bytes = bytes
            index = bytes.startIndex
            self.sealed = sealed
        }

        mutating func record() -> (path: ArraySlice<UInt8>, record: OwnedFile)? {
            guard literal(#"{"path": ""#), let path = plainBytes(), literal(#", "size": "#), let size = number(),
                  literal(#", "hash": ""#), let hash = digest(),
                  literal(#", "device": ""#), let device = unsigned(),
                  literal(#"", "inode": ""#), let inode = unsigned(), literal(#"", "modified": "#), let modified = number()
            else { return nil }
            var changed: Int?
            if literal(#", "changed": "#) {
                guard let number = number() else { return nil }
                changed = number
            }
            var inputs: ContentDigest?
            if literal(#", "inputs": ""#) {
                guard let digest = digest().flatMap({ $0 }) else { return nil }
                inputs = digest
            }
            guard sealed || literal("}"), index == bytes.endIndex, SitePath.isSafeRelativePath(path) else { return nil }
            var record = OwnedFile(path: "", size: size, hash: hash, identity: FileIdentity(device: device, inode: inode),
                                   modified: modified, inputs: inputs)
            record.changed = changed
            return (path, record)
        }

        private mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.endIndex - index >= count else { return false }
            // By memcmp: a manifest line holds some ten of these, and a generic byte-by-byte compare of slices
            // was a seventh of reading 400,000 records.
            let matches = text.withUTF8Buffer { expected in
                bytes[index..<index + count].withUnsafeBufferPointer { memcmp($0.baseAddress!, expected.baseAddress!, count) == 0 }
            }
            if matches { index += count }
            return matches
        }

        /// `plainString`'s bytes, in place: valid UTF-8 (checked without making a string when all ASCII).
        private mutating func plainBytes() -> ArraySlice<UInt8>? {
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            let run = bytes[index..<end]
            guard !run.contains(UInt8(ascii: "\\")), !run.contains(where: { $0 < 0x20 }),
                  run.allSatisfy({ $0 < 0x80 }) || String(validating: run, as: UTF8.self) != nil else { return nil }
            index = end + 1
            return run
        }

        /// A string up to its closing quote, with no escapes in it (one with escapes takes the slow path).
        private mutating func plainString() -> String? {
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            let run = bytes[index..<end]
            guard !run.contains(UInt8(ascii: "\\")), !run.contains(where: { $0 < 0x20 }),
                  let text = String(validating: run, as: UTF8.self) else { return nil }
            index = end + 1
            return text
        }

        /// A string field read as a digest: the digest when it is 32 hex digits (read in place, the common
        /// case), nil inside when it is another plain string, nil when it is not a plain string.
        private mutating func digest() -> ContentDigest?? {
            let end = index + 32
            if end < bytes.endIndex, bytes[end] == UInt8(ascii: "\""), let digest = ContentDigest(hexBytes: bytes[index..<end]) {
                index = end + 1
                return .some(digest)
            }
            return plainString().map(ContentDigest.init(hex:))
        }

        private mutating func digits() -> ArraySlice<UInt8>? {
            let start = index
            while index < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index > start && index - start <= 20 ? bytes[start..<index] : nil
        }

        /// Read in place, without a String per number (a manifest has some two million of them); nil on
        /// overflow, as `UInt64(String)` gives.
        private mutating func unsigned() -> UInt64? {
            guard let run = digits() else { return nil }
            var value: UInt64 = 0
            for byte in run {
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                guard !overflow, !carry else { return nil }
                value = sum
            }
            return value
        }

        /// A decimal `Int`, perhaps negative; nil outside its range, as `Int(String)` gives.
        private mutating func number() -> Int? {
            let negative = index < bytes.endIndex && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            guard let magnitude = unsigned() else { return nil }
            if negative { return magnitude <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- magnitude) : nil }
            return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
        }
    }

    /// Any JSON object with the record's fields.
    private static func generic(_ line: ArraySlice<UInt8>) -> OwnedFile? {
        guard line.first == UInt8(ascii: "{"), let json = try? JSONParser.parse(String(decoding: line, as: UTF8.self)),
              case .object(let members) = json else { return nil }
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        guard case .string(let path)? = fields["path"], SitePath.isSafeRelativePath(path),
              case .int(let size)? = fields["size"], case .string(let text)? = fields["hash"],
              case .string(let device)? = fields["device"], let deviceNumber = UInt64(device),
              case .string(let inode)? = fields["inode"], let inodeNumber = UInt64(inode),
              case .int(let modified)? = fields["modified"] else { return nil }
        var inputs: ContentDigest?
        if case .string(let digest)? = fields["inputs"] { inputs = ContentDigest(hex: digest) }
        var record = OwnedFile(path: path, size: size, hash: ContentDigest(hex: text), identity: FileIdentity(device: deviceNumber, inode: inodeNumber),
                               modified: modified, inputs: inputs)
        if case .int(let changed)? = fields["changed"] { record.changed = changed }
        return record
    }
}
