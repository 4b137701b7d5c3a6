import Testing
@testable import WaterfallKit

/// The byte-wise fast paths for all-ASCII names give exactly what the character-wise code gives, on ASCII
/// and on the names where characters and bytes part (combining marks after "/" or ".", CR LF, emoji).
struct PathFastPathTests {
    static let names = [
        "", "/", "a", "a/b", "a/b/c.jpg", "/a/b/", "x.", ".x", "a.b.c", "..", "a/.hidden", "IMG_0001.JPG",
        "a/\u{301}b.jpg", "a.\u{301}jpg", "e\u{301}/f.jpg", "\r\n/x", "😀/😀.png", "album/é.jpg", "a//b",
        "coffee-cup_2.jpg", "__x__.jpg", "-.jpg", " . ", "a b.c-d_e.f", "\u{301}", "x/\u{301}",
    ]

    @Test(arguments: names)
    func lastIndexMatchesTheCharacterWalk(name: String) {
        for character: Character in ["/", "."] {
            #expect(name.lastIndex(ofASCII: character) == name.lastIndex(of: character))
            let sub = name.dropFirst()
            #expect(sub.lastIndex(ofASCII: character) == sub.lastIndex(of: character))
        }
    }

    @Test(arguments: names)
    func readableNameMatchesTheSplitAndJoin(name: String) {
        var stem = Substring(name)
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
        let words = stem.split { $0 == "-" || $0 == "_" || $0 == " " || $0 == "." }
        #expect(Photo.readableName(name) == (words.isEmpty ? name : words.joined(separator: " ")))
    }
}
