/// Reads the few TIFF tags a photo page shows from an Exif payload (a TIFF structure: JPEG APP1 after
/// "Exif\0\0", or PNG eXIf), in pure Swift so that a hostile payload can at worst give wrong facts.
///
/// Bounded by construction: at most three IFDs are read, IFD0, the Exif sub-IFD its tag 0x8769 points to,
/// and an Apple MakerNote's one IFD (`AppleMakerNote`, for a Live Photo's content identifier); no next-IFD
/// chain is followed (so IFD1, the thumbnail's, is never read), nor any other pointer (Interoperability). An Exif pointer back at IFD0 is refused. Every IFD and every value must lie inside
/// the buffer whole, as its count says, or it is ignored; strings are read up to a cap. The first entry
/// for a tag decides. The GPS IFD (0x8825) is never read, not even when the Exif pointer aims at it.
struct ExifParser {
    enum Tag {
        static let imageDescription: UInt16 = 0x010E
        static let make: UInt16 = 0x010F
        static let model: UInt16 = 0x0110
        static let artist: UInt16 = 0x013B
        static let copyright: UInt16 = 0x8298
        static let windowsRating: UInt16 = 0x4746
        static let exifIFD: UInt16 = 0x8769
        static let gpsIFD: UInt16 = 0x8825
        static let exposureTime: UInt16 = 0x829A
        static let fNumber: UInt16 = 0x829D
        static let iso: UInt16 = 0x8827
        static let dateTimeOriginal: UInt16 = 0x9003
        static let offsetTimeOriginal: UInt16 = 0x9011
        static let focalLength: UInt16 = 0x920A
        static let lensModel: UInt16 = 0xA434
        static let makerNote: UInt16 = 0x927C
    }

    /// An IFD entry whose whole value is known to lie in the buffer at `offset`.
    struct Entry {
        var type: UInt16
        var count: Int
        var offset: Int
    }

    private static let ifd0Tags: Set<UInt16> = [Tag.imageDescription, Tag.make, Tag.model, Tag.exifIFD, Tag.gpsIFD,
                                                Tag.artist, Tag.copyright, Tag.windowsRating]
    private static let exifTags: Set<UInt16> = [Tag.exposureTime, Tag.fNumber, Tag.iso, Tag.dateTimeOriginal,
                                                Tag.offsetTimeOriginal, Tag.focalLength, Tag.lensModel, Tag.makerNote]

    private let bytes: [UInt8]
    private let littleEndian: Bool

    /// nil unless the buffer starts with a TIFF header ("II*\0" or "MM\0*").
    init?(tiff bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        self.bytes = bytes
        guard read16(2) == 42 else { return nil }
    }

    static func facts(tiff: [UInt8]) -> ExifFacts {
        ExifParser(tiff: tiff)?.facts() ?? ExifFacts()
    }

    func facts() -> ExifFacts {
        var facts = ExifFacts()
        let ifd0Offset = Int(read32(4))
        guard let ifd0 = directory(at: ifd0Offset, tags: Self.ifd0Tags) else { return facts }
        facts.make = string(ifd0[Tag.make], limit: ExifText.nameLimit)
        facts.model = string(ifd0[Tag.model], limit: ExifText.nameLimit)
        facts.imageDescription = string(ifd0[Tag.imageDescription], limit: ExifText.captionLimit)
        facts.artist = string(ifd0[Tag.artist], limit: ExifText.nameLimit)
        facts.copyright = string(ifd0[Tag.copyright], limit: ExifText.captionLimit)
        facts.rating = integer(ifd0[Tag.windowsRating]).flatMap { (0...5).contains($0) ? $0 : nil }

        // The GPS pointer is looked at only to refuse an Exif pointer that aims at the same IFD.
        guard let exifOffset = pointer(ifd0[Tag.exifIFD]), exifOffset != ifd0Offset,
              exifOffset != pointer(ifd0[Tag.gpsIFD]),
              let exif = directory(at: exifOffset, tags: Self.exifTags)
        else { return facts }
        facts.exposureTime = rational(exif[Tag.exposureTime]).flatMap(ExposureTime.init)
        facts.fNumber = positive(rational(exif[Tag.fNumber]))
        facts.focalLength = positive(rational(exif[Tag.focalLength]))
        facts.iso = integer(exif[Tag.iso]).flatMap { $0 > 0 ? $0 : nil }
        facts.lens = string(exif[Tag.lensModel], limit: ExifText.nameLimit)
        if let date = string(exif[Tag.dateTimeOriginal], limit: ExifText.nameLimit) {
            facts.dateTaken = ExifDateTime(exif: date, offset: string(exif[Tag.offsetTimeOriginal], limit: ExifText.nameLimit))
        }
        if let note = exif[Tag.makerNote], note.type == 7 || note.type == 1 {
            facts.contentIdentifier = AppleMakerNote.contentIdentifier(bytes[note.offset..<note.offset + note.count])
        }
        return facts
    }

    // MARK: - IFDs and values

    /// The entries for `tags` of the IFD at `offset`, or nil when its entry table does not fit the buffer.
    func directory(at offset: Int, tags: Set<UInt16>) -> [UInt16: Entry]? {
        guard offset >= 8, offset <= bytes.count - 2 else { return nil }
        let count = Int(read16(offset))
        guard count <= (bytes.count - offset - 2) / 12 else { return nil }
        var entries: [UInt16: Entry] = [:]
        var seen: Set<UInt16> = []
        for index in 0..<count {
            let at = offset + 2 + index * 12
            let tag = read16(at)
            guard tags.contains(tag), seen.insert(tag).inserted else { continue }
            if let entry = entry(at: at) { entries[tag] = entry }
        }
        return entries
    }

    /// The entry at `at` when its type is known and its whole value (count × size) lies in the buffer.
    private func entry(at: Int) -> Entry? {
        let type = read16(at + 2)
        let count = UInt64(read32(at + 4))
        guard count > 0, let size = Self.typeSize(type) else { return nil }
        let length = count * UInt64(size) // at most 2^32 × 8: no overflow
        if length <= 4 { return Entry(type: type, count: Int(count), offset: at + 8) }
        let offset = UInt64(read32(at + 8))
        guard offset + length <= UInt64(bytes.count) else { return nil }
        return Entry(type: type, count: Int(count), offset: Int(offset))
    }

    /// Bytes per value of each TIFF type; nil for types TIFF 6 and EXIF do not define.
    static func typeSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1     // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: 2           // SHORT, SSHORT
        case 4, 9, 11, 13: 4   // LONG, SLONG, FLOAT, IFD
        case 5, 10, 12: 8      // RATIONAL, SRATIONAL, DOUBLE
        default: nil
        }
    }

    private func string(_ entry: Entry?, limit: Int) -> String? {
        guard let entry, entry.type == 2 else { return nil }
        let length = min(entry.count, limit)
        return ExifText.decode(bytes[entry.offset..<entry.offset + length], truncated: entry.count > limit)
    }

    /// The first value of a RATIONAL, nil when its denominator is 0.
    private func rational(_ entry: Entry?) -> (numerator: UInt32, denominator: UInt32)? {
        guard let entry, entry.type == 5 else { return nil }
        let value = (numerator: read32(entry.offset), denominator: read32(entry.offset + 4))
        return value.denominator == 0 ? nil : value
    }

    private func positive(_ value: (numerator: UInt32, denominator: UInt32)?) -> Double? {
        guard let value, value.numerator > 0 else { return nil }
        return Double(value.numerator) / Double(value.denominator)
    }

    /// The first value of a SHORT or LONG.
    private func integer(_ entry: Entry?) -> Int? {
        guard let entry else { return nil }
        switch entry.type {
        case 3: return Int(read16(entry.offset))
        case 4: return Int(read32(entry.offset))
        default: return nil
        }
    }

    /// An IFD pointer: one LONG or IFD.
    private func pointer(_ entry: Entry?) -> Int? {
        guard let entry, entry.count == 1, entry.type == 4 || entry.type == 13 else { return nil }
        return Int(read32(entry.offset))
    }

    // Callers have checked the range.
    private func read16(_ at: Int) -> UInt16 {
        let (a, b) = (UInt16(bytes[at]), UInt16(bytes[at + 1]))
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    private func read32(_ at: Int) -> UInt32 {
        let (a, b) = (UInt32(read16(at)), UInt32(read16(at + 2)))
        return littleEndian ? a | b << 16 : a << 16 | b
    }
}
