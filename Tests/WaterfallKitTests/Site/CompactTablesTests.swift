import Testing
@testable import WaterfallKit

/// The compact stand-ins for dictionaries and sets a rebuild holds hundreds of thousands of answer as those did.
struct CompactTablesTests {
    static func derived(_ file: String) -> BuildCache.Derived {
        BuildCache.Derived(key: "k", file: file, bytes: 1, hash: nil, width: 1, height: 1, format: .jpeg)
    }

    @Test func derivedImagesBehaveAsADictionaryInLabelOrder() {
        var images: DerivedImages = ["view": Self.derived("v"), "500": Self.derived("a")]
        images["1000"] = Self.derived("b")
        images["500"] = Self.derived("c")
        #expect(images.labels == ["1000", "500", "view"])  // String order, as the entries' JSON sorts its keys
        #expect(images["500"]?.file == "c" && images["nothing"] == nil && images.count == 3)
        images["1000"] = nil
        images["nothing"] = nil
        #expect(images.labels == ["500", "view"])
        #expect(images == DerivedImages(["view": Self.derived("v"), "500": Self.derived("c")]))
        #expect(images != DerivedImages(["view": Self.derived("v")]))
        #expect(images.map(\.label) == ["500", "view"])
    }

    @Test func provenFilesHoldExactlyTheFilesGiven() {
        func file(_ inode: UInt64, _ size: Int, _ modified: Int, _ low: UInt64) -> ProvenFile {
            ProvenFile(identity: FileIdentity(device: 9, inode: inode), status: FileStatus(size: size, modified: modified), hash: ContentDigest((1, low)))
        }
        let given = (0..<500).map { file(UInt64($0 % 37), $0 % 5, $0, UInt64($0 % 3)) }
        let proven = ProvenFiles(given.shuffled())
        for one in given { #expect(proven.contains(one)) }
        #expect(!proven.contains(file(1, 1, 1, 2)))  // every field counts
        #expect(!proven.contains(file(1_000, 0, 0, 0)))
        #expect(!ProvenFiles([]).contains(given[0]))
    }

    @Test func hexDigestsReadAsBefore() {
        let text = "0123456789abcdefFEDCBA9876543210"
        #expect(ContentDigest(hex: text)?.hex == text.lowercased())
        #expect(ContentDigest(hex: String(text.dropLast())) == nil)
        #expect(ContentDigest(hex: text + "0") == nil)
        #expect(ContentDigest(hex: "+" + text.dropFirst()) == nil)
        #expect(ContentDigest(hex: "g" + text.dropFirst()) == nil)
    }

    /// The colour's `#rrggbb` is written byte by byte now; it reads as the string-joined spelling did.
    @Test func averageColorHexSpellsAsBefore() {
        for value in 0...255 {
            let byte = UInt8(value), other = UInt8(255 - value)
            let colour = AverageColor(red: byte, green: other, blue: byte / 3)
            let before = "#" + [byte, other, byte / 3].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            #expect(colour.hex == before)
            #expect(AverageColor(hex: colour.hex) == colour)
        }
    }

    /// A derived image's hash is held as a digest: one written as 32 hex digits reads back as it was, in
    /// either case; any other text reads as no digest, which proves nothing (the image is made again).
    @Test func derivedImageHashesAreDigests() throws {
        func entry(hash: String) throws -> BuildCache.Entry? {
            let json = #"{"name": "a.jpg", "size": 1, "modified": 2, "content": "c", "format": "jpeg", "pixelWidth": 4, "pixelHeight": 3, "#
                + #""orientation": 1, "derived": {"500": {"key": "k", "file": "0123456789abcdef.jpg", "bytes": 9, "hash": "\#(hash)", "#
                + #""width": 4, "height": 3, "format": "jpeg"}}}"#
            return BuildCache.Entry(json: try JSONParser.parse(json))
        }
        let hex = "0123456789abcdef0123456789abcdef"
        #expect(try entry(hash: hex)?.derived["500"]?.hash == ContentDigest(hex: hex))
        #expect(try entry(hash: hex.uppercased())?.derived["500"]?.hash == ContentDigest(hex: hex))
        for other in ["", "zz", String(hex.dropLast()), hex + "0"] {
            let read = try entry(hash: other)
            #expect(read != nil && read?.derived["500"] != nil && read?.derived["500"]?.hash == nil)
        }
        let written = try #require(try entry(hash: hex))
        #expect(BuildCache.Entry(json: try JSONParser.parse(written.json.rendered())) == written)
    }

    @Test func recordNumbersReadInPlaceAsStringsWould() {
        func parse(_ size: String, _ device: String, _ modified: String) -> OwnedFile? {
            let line = #"{"path": "a.html", "size": \#(size), "hash": "", "device": "\#(device)", "inode": "1", "modified": \#(modified)}"#
            return OutputRecordLine.parse(Array(line.utf8)[...])
        }
        let record = OwnedFile(path: "a/b.jpg", size: 12, hash: ContentDigest((1, 2)), identity: FileIdentity(device: .max, inode: 0),
                               modified: Int.min, inputs: ContentDigest((3, 4)))
        #expect(OutputRecordLine.parse(Array(OutputRecordLine.render(record).utf8.dropLast())[...]) == record)
        #expect(parse("-0", "0", "9223372036854775807")?.modified == Int.max)
        #expect(parse("1", "18446744073709551615", "-9223372036854775808")?.identity.device == .max)
        #expect(parse("9223372036854775808", "1", "1") == nil)
        #expect(parse("1", "18446744073709551616", "1") == nil)
        #expect(parse("1", "1", "-9223372036854775809") == nil)
    }
}
