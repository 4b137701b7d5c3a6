/// An Apple MakerNote (the Exif tag 0x927C an iPhone writes): `Apple iOS\0`, a version (2 bytes), the byte
/// order (`MM` or `II`) at offset 12, and one IFD at offset 14 whose value offsets count from the note's
/// start (as exiftool's MakerNotes.pm reads it). Only tag 0x0011 is taken: the content identifier that a
/// Live Photo's still and clip share (exiftool calls it MediaGroupUUID, formerly ContentIdentifier).
///
/// Bounded: one IFD, no pointer followed, every value inside the note whole, at most 4,096 entries looked at.
enum AppleMakerNote {
    static let signature: [UInt8] = Array("Apple iOS\0".utf8)
    static let contentIdentifierTag: UInt16 = 0x0011

    static func contentIdentifier(_ note: ArraySlice<UInt8>) -> String? {
        let bytes = Array(note)
        guard bytes.count >= 16, bytes.starts(with: signature) else { return nil }
        let littleEndian: Bool
        switch (bytes[12], bytes[13]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read16(_ at: Int) -> Int {
            let (a, b) = (Int(bytes[at]), Int(bytes[at + 1]))
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func read32(_ at: Int) -> Int { littleEndian ? read16(at) | read16(at + 2) << 16 : read16(at) << 16 | read16(at + 2) }
        let count = read16(14)
        guard count <= min(4096, (bytes.count - 16) / 12) else { return nil }
        for index in 0..<count {
            let at = 16 + index * 12
            guard read16(at) == contentIdentifierTag else { continue }
            // ASCII only; a value of 4 bytes or less sits in the entry itself.
            let length = read32(at + 4)
            guard read16(at + 2) == 2, (1...ContentIdentifier.maxBytes + 1).contains(length) else { return nil }
            let offset = length <= 4 ? at + 8 : read32(at + 8)
            guard offset + length <= bytes.count else { return nil }
            return ContentIdentifier.clean(bytes[offset..<offset + length])
        }
        return nil
    }
}
