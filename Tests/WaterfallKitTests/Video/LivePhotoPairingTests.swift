import Testing
@testable import WaterfallKit

/// The Live Photo rule on names, identifiers and durations alone, and the Apple MakerNote's bounded reading.
struct LivePhotoPairingTests {
    typealias Item = LivePhotoPairing.Item

    static func pairs(_ items: [Item]) -> [String] {
        LivePhotoPairing.pairs(items).map { "\(items[$0.still].name)+\(items[$0.clip].name)" }
    }

    @Test func theRule() {
        let id = "1F3C-A", other = "1F3C-B"
        #expect(Self.pairs([Item(name: "a/IMG_1.HEIC", isVideo: false, identifier: id),
                            Item(name: "a/IMG_1.MOV", isVideo: true, identifier: id, milliseconds: 9_000)]) == ["a/IMG_1.HEIC+a/IMG_1.MOV"])
        // Identifiers that differ never pair, whatever the names and the duration.
        #expect(Self.pairs([Item(name: "IMG_1.JPG", isVideo: false, identifier: id),
                            Item(name: "IMG_1.MOV", isVideo: true, identifier: other, milliseconds: 2_500)]).isEmpty)
        // Without both identifiers: the same name (ASCII case aside) and at most 4.1 s.
        for (ms, paired) in [(2_500, true), (4_100, true), (4_101, false), (0, false), (9_000, false)] {
            let found = Self.pairs([Item(name: "img_1.jpg", isVideo: false, identifier: nil),
                                    Item(name: "IMG_1.MOV", isVideo: true, identifier: id, milliseconds: ms)])
            #expect(found.isEmpty != paired, "\(ms) ms")
        }
        // Names alone never pair across folders, nor names that differ.
        #expect(Self.pairs([Item(name: "a/IMG_1.JPG", isVideo: false), Item(name: "b/IMG_1.MOV", isVideo: true, milliseconds: 2_000),
                            Item(name: "b/IMG_2.JPG", isVideo: false)]).isEmpty)
        // An identifier across names, in one folder only.
        #expect(Self.pairs([Item(name: "Still.JPG", isVideo: false, identifier: id), Item(name: "x/Clip.MOV", isVideo: true, identifier: id),
                            Item(name: "Clip.MOV", isVideo: true, identifier: id, milliseconds: 20_000)]) == ["Still.JPG+Clip.MOV"])
    }

    /// A still pairs with one video and a video with one still: identifiers first, then names, in natural order.
    @Test func tiesResolveInNaturalOrder() {
        let id = "1F3C-A"
        #expect(Self.pairs([Item(name: "IMG_1.JPG", isVideo: false, identifier: id), Item(name: "IMG_1.HEIC", isVideo: false, identifier: id),
                            Item(name: "IMG_1.MOV", isVideo: true, identifier: id, milliseconds: 2_000)]) == ["IMG_1.HEIC+IMG_1.MOV"])
        #expect(Self.pairs([Item(name: "IMG_10.JPG", isVideo: false), Item(name: "IMG_10.mp4", isVideo: true, milliseconds: 2_000),
                            Item(name: "IMG_10.MOV", isVideo: true, milliseconds: 2_000)]) == ["IMG_10.JPG+IMG_10.MOV"])
        // The identifier's pair takes the still first; the same-name video is left alone.
        #expect(Self.pairs([Item(name: "IMG_2.JPG", isVideo: false, identifier: id), Item(name: "A.MOV", isVideo: true, identifier: id),
                            Item(name: "IMG_2.MOV", isVideo: true, milliseconds: 2_000)]) == ["IMG_2.JPG+A.MOV"])
    }

    @Test func candidatesAndShards() {
        let names = ["IMG_1.HEIC", "IMG_1.JPG", "IMG_1.MOV", "t/IMG_1.MOV", "IMG_2.mov", "img_2.JPEG"]
        #expect(LivePhotoPairing.candidates(names) == [2: [0, 1], 4: [5]])
        #expect(LivePhotoPairing.shardNames(names) == ["IMG_1.HEIC", "IMG_1.JPG", "IMG_1.HEIC", "t/IMG_1.MOV", "img_2.JPEG", "img_2.JPEG"])
    }

    /// `Apple iOS\0`, version, byte order, then one IFD with tag 0x0011 (ASCII) whose value follows.
    static func note(_ id: String, order: String = "MM", type: UInt16 = 2, count: Int? = nil, offset: Int? = nil) -> [UInt8] {
        let little = order == "II"
        func u16(_ v: Int) -> [UInt8] { little ? [UInt8(v & 255), UInt8(v >> 8 & 255)] : [UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func u32(_ v: Int) -> [UInt8] { little ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        let value = Array(id.utf8) + [0]
        return Array("Apple iOS\0".utf8) + [0, 1] + Array(order.utf8) + u16(1)
            + u16(0x11) + u16(Int(type)) + u32(count ?? value.count) + u32(offset ?? 32) + u32(0) + value
    }

    @Test func theMakerNotesIdentifier() {
        let uuid = "1f3c8b2a-0001-4c6e-9d1b-7a2e5f0c3d41"
        #expect(AppleMakerNote.contentIdentifier(Self.note(uuid)[...]) == uuid.uppercased())
        #expect(AppleMakerNote.contentIdentifier(Self.note(uuid, order: "II")[...]) == uuid.uppercased())
        // Refused: another maker's note, a value outside the note, too long, not ASCII, not plausible, cut short.
        var other = Self.note(uuid)
        other[0] = UInt8(ascii: "N")
        for bad in [other, Self.note(uuid, offset: 1 << 20), Self.note(uuid, count: 1 << 30), Self.note(uuid, type: 7),
                    Self.note(String(repeating: "A", count: 65)), Self.note("A B"), Array(Self.note(uuid).prefix(20)),
                    Array(Self.note(uuid).prefix(16))] {
            #expect(AppleMakerNote.contentIdentifier(bad[...]) == nil)
        }
        // Through ExifParser, from the fixtures' JPEG and HEIC (Pillow wrote the note; exiftool reads it back).
        let live = Fixtures.root.appendingPathComponent("live").path
        #expect(ExifReader().read(path: live + "/IMG_0002.JPG").contentIdentifier == "1F3C8B2A-0002-4C6E-9D1B-7A2E5F0C3D41")
        #expect(ExifReader().read(path: live + "/IMG_0001.HEIC").contentIdentifier == "1F3C8B2A-0001-4C6E-9D1B-7A2E5F0C3D41")
        #expect(ExifReader().read(path: live + "/IMG_0003.JPG").contentIdentifier == nil)
        #expect(ContentIdentifier.clean("abc-1\0") == "ABC-1" && ContentIdentifier.clean("") == nil && ContentIdentifier.clean("é") == nil)
    }
}
