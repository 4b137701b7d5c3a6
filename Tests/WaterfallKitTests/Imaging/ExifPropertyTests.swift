import Testing
@testable import WaterfallKit

/// Seeded random damage to the EXIF fixtures: whole files through the C reader and the parser, and Exif
/// payloads straight into the parser. Nothing may crash, and whatever comes out must still be clean facts.
/// There is no timing assertion: every loop in the reader is bounded by the buffer, so a hang would show as
/// a test that never ends.
struct ExifPropertyTests {
    static let mutationsPerFile = 150

    static func fixtures() throws -> [[UInt8]] {
        try Fixtures.files(in: "exif").map { try Fixtures.bytes(ExifFixtureTests.path($0)) }
    }

    @Test("damaged files never crash the reader and give clean facts")
    func damagedFiles() throws {
        var random = SplitMix64(seed: 0xE71F)
        for original in try Self.fixtures() where original.count < 70_000 {
            for _ in 0..<Self.mutationsPerFile {
                let facts = ExifReader().read(bytes: random.mutate(original, focus: 0..<min(original.count, 70_000)))
                Self.expectClean(facts)
            }
        }
    }

    @Test("damaged Exif payloads never crash the parser and give clean facts")
    func damagedPayloads() throws {
        var random = SplitMix64(seed: 0x71FF)
        var payloads = 0
        for original in try Self.fixtures() {
            let tiff = ExifReader().raw(bytes: original).exif
            guard !tiff.isEmpty else { continue }
            payloads += 1
            for _ in 0..<Self.mutationsPerFile * 4 {
                Self.expectClean(ExifParser.facts(tiff: random.mutate(tiff, focus: 0..<min(tiff.count, 512))))
            }
        }
        #expect(payloads >= 15)
    }

    @Test("random bytes behind a TIFF header never crash the parser")
    func randomPayloads() {
        var random = SplitMix64(seed: 0x5EED)
        for round in 0..<3_000 {
            let order: [UInt8] = round.isMultiple(of: 2) ? [0x49, 0x49, 42, 0] : [0x4D, 0x4D, 0, 42]
            var bytes = order + (0..<random.nextInt(in: 0...600)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // Mostly small offsets and counts, so that the parser gets past its first checks.
            for index in stride(from: 4, to: bytes.count, by: 4) where random.nextUnit() < 0.5 {
                bytes[index] = UInt8(random.nextInt(in: 0...40))
                if index + 1 < bytes.count { bytes[index + 1] = 0 }
            }
            Self.expectClean(ExifParser.facts(tiff: bytes))
        }
    }

    /// What any answer must look like, however hostile the input.
    static func expectClean(_ facts: ExifFacts) {
        let names = [facts.make, facts.model, facts.lens].compactMap { $0 }
        let captions = [facts.imageDescription, facts.pngDescription, facts.pngTitle].compactMap { $0 }
        for text in names + captions {
            #expect(!text.isEmpty && text.first != " " && text.last != " " && !text.contains("  "))
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
        for text in names { #expect(text.utf8.count <= ExifText.nameLimit * 3) }  // a byte can grow to 3 in 1252
        for text in captions { #expect(text.utf8.count <= ExifText.captionLimit * 3) }
        for number in [facts.focalLength, facts.fNumber, facts.exposureTime?.seconds].compactMap({ $0 }) {
            #expect(number.isFinite && number > 0)
        }
        if let iso = facts.iso { #expect(iso > 0) }
        if let date = facts.dateTaken { #expect(ExifDateTime(exif: date.description.exifForm) != nil) }
        _ = facts.summary
        _ = facts.caption
        _ = facts.dateTaken?.iso8601
    }
}

private extension String {
    /// "2024-05-17 08:30:12" back to "2024:05:17 08:30:12".
    var exifForm: String {
        String(self.enumerated().map { $0.offset == 4 || $0.offset == 7 ? ":" : $0.element })
    }
}

extension SplitMix64 {
    /// A damaged copy: a few random edits, mostly inside `focus` (where the metadata is), of the kinds that
    /// break parsers: flipped bits, extreme 16/32-bit values (counts, offsets, lengths), truncation,
    /// duplicated and deleted ranges.
    mutating func mutate(_ original: [UInt8], focus: Range<Int>) -> [UInt8] {
        var bytes = original
        for _ in 0..<nextInt(in: 1...4) {
            guard !bytes.isEmpty else { return bytes }
            let range = focus.clamped(to: 0..<bytes.count)
            let at = range.isEmpty ? nextInt(in: 0...bytes.count - 1) : nextInt(in: range.lowerBound...range.upperBound - 1)
            switch nextInt(in: 0...6) {
            case 0:
                bytes[at] ^= UInt8(1) << UInt8(nextInt(in: 0...7))
            case 1:
                bytes[at] = UInt8(truncatingIfNeeded: next())
            case 2:
                let extremes: [[UInt8]] = [[0xFF, 0xFF], [0, 0], [0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0, 0, 0, 8],
                                           [8, 0, 0, 0], [0x7F, 0xFF, 0xFF, 0xF0], [0, 0, 0xFF, 0xF0]]
                let value = extremes[nextInt(in: 0...extremes.count - 1)]
                for (offset, byte) in value.enumerated() where at + offset < bytes.count { bytes[at + offset] = byte }
            case 3:
                bytes.removeSubrange(at...)
            case 4:
                let end = min(bytes.count, at + nextInt(in: 1...64))
                bytes.insert(contentsOf: bytes[at..<end], at: at)
            case 5:
                bytes.removeSubrange(at..<min(bytes.count, at + nextInt(in: 1...16)))
            default:
                bytes[at] = UInt8(nextInt(in: 0...40))
            }
        }
        return bytes
    }
}
