import Testing
@testable import WaterfallKit

/// The pieces of the EXIF-facts reader on their own: text cleaning, dates, exposure times, camera names,
/// and the TIFF parser on hand-made structures.
struct ExifUnitTests {
    // MARK: - Text

    @Test("text: NUL ends the value; controls go; line breaks and tabs become single spaces", arguments: [
        ("Canon\0\0\0", "Canon"),
        ("  OLYMPUS IMAGING CORP.   ", "OLYMPUS IMAGING CORP."),
        ("a\0b", "a"),
        ("one\r\ntwo\tthree\u{0B}four\u{0C}five", "one two three four five"),
        ("bell\u{07}\u{1B}[0m", "bell[0m"),
        ("del\u{7F}eted", "deleted"),
        ("\u{202E}evil\u{202C} \u{2066}x\u{2069}", "evil x"),
        ("\u{FEFF}bom", "bom"),
        ("line\u{2028}sep\u{85}nel", "line sep nel"),
        ("<b>&amp;</b> \"q\"", "<b>&amp;</b> \"q\""),
        ("東京 🌊 👩‍👩‍👧", "東京 🌊 👩‍👩‍👧"),
        // (the paths that leave a clean value as it is: plain spaces at the ends go, inner runs do not stay)
        ("morning. morning. ", "morning. morning."),
        ("  café au lait ", "café au lait"),
        ("two  spaces", "two spaces"),
        ("café\u{A0}noir", "café\u{A0}noir"),
        ("tab\there ", "tab here"),
        ("東京  タワー ", "東京 タワー"),
    ])
    func cleaning(input: String, expected: String) {
        #expect(ExifText.decode(Array(input.utf8)[...]) == expected)
    }

    @Test("text: nothing printable is nil", arguments: ["", "\0", "   \0  ", "\u{07}\u{7F}", "\t\r\n"])
    func empty(input: String) {
        #expect(ExifText.decode(Array(input.utf8)[...]) == nil)
    }

    @Test("text: invalid UTF-8 is read as Windows-1252, whose unassigned bytes go")
    func legacyEncoding() {
        #expect(ExifText.decode([0x43, 0x61, 0x66, 0xE9][...]) == "Café")
        #expect(ExifText.decode([0x93, 0x71, 0x94, 0x20, 0x80, 0x20, 0x99][...]) == "“q” € ™")
        #expect(ExifText.decode([0x61, 0x81, 0x8D, 0x8F, 0x90, 0x9D, 0x62][...]) == "ab")
        #expect(ExifText.decode([0xFF, 0xFE][...]) == "ÿþ")
    }

    @Test("text: a UTF-8 sequence cut by a cap is dropped, not misread as Windows-1252")
    func truncatedUTF8() {
        let bytes = Array("añ東🌊".utf8)
        for cut in 1..<bytes.count {
            let text = ExifText.decode(bytes[..<cut], truncated: true)
            #expect(text.map { "añ東🌊".hasPrefix($0) } ?? (cut == 0), "cut at \(cut): \(text ?? "nil")")
        }
        // Without the truncation flag, the same bytes are simply not UTF-8.
        #expect(ExifText.decode(Array("é".utf8)[..<1]) == "Ã")
    }

    // MARK: - Dates

    @Test("dates: EXIF's exact form with a real date and time", arguments: [
        ("2024:05:17 08:30:12", ExifDateTime(year: 2024, month: 5, day: 17, hour: 8, minute: 30, second: 12)),
        ("2000:02:29 00:00:00", ExifDateTime(year: 2000, month: 2, day: 29, hour: 0, minute: 0, second: 0)),
        ("0001:01:01 23:59:59", ExifDateTime(year: 1, month: 1, day: 1, hour: 23, minute: 59, second: 59)),
    ])
    func validDates(text: String, expected: ExifDateTime) {
        #expect(ExifDateTime(exif: text) == expected)
    }

    @Test("dates: anything else is nil", arguments: [
        "", "    :  :     :  :  ", "0000:00:00 00:00:00", "2023:02:29 12:00:00", "1900:02:29 12:00:00",
        "2024:04:31 12:00:00", "2024:13:01 12:00:00", "2024:00:10 12:00:00", "2024:05:00 12:00:00",
        "2024:05:17 24:00:00", "2024:05:17 23:60:00", "2024:05:17 23:59:60", "2024-05-17 08:30:12",
        "2024:05:17T08:30:12", "2024:05:17 08:30:12Z", "2024:05:17 08:30", "+024:05:17 08:30:1",
        "2024:05:17 08:30:1 ", "2024:05:17 ８:30:12", "２０２４:05:17 08:30:12", "0000:01:01 00:00:00",
    ])
    func invalidDates(text: String) {
        #expect(ExifDateTime(exif: text) == nil)
    }

    @Test("dates: offsets, ISO 8601 text and order")
    func offsetsAndOrder() throws {
        #expect(ExifDateTime.offsetMinutes("+02:00") == 120)
        #expect(ExifDateTime.offsetMinutes("-09:30") == -570)
        #expect(ExifDateTime.offsetMinutes("+05:45") == 345)
        for bad in ["", "02:00", "+2:00", "+02:60", "+19:00", "+0200", " +02:00", "+02:00:00", "±02:00"] {
            #expect(ExifDateTime.offsetMinutes(bad) == nil, "\(bad)")
        }
        let date = try #require(ExifDateTime(exif: "2024:05:17 08:30:12", offset: "-09:30"))
        #expect(date.iso8601 == "2024-05-17T08:30:12-09:30")
        #expect(ExifDateTime(exif: "0987:01:02 03:04:05")?.iso8601 == "0987-01-02T03:04:05")
        #expect(try #require(ExifDateTime(exif: "2024:05:17 08:30:12", offset: "bad")).utcOffsetMinutes == nil)
        let a = try #require(ExifDateTime(exif: "2024:05:17 08:30:12"))
        let b = try #require(ExifDateTime(exif: "2024:05:17 08:30:13"))
        #expect(a < b && !(b < a))
        #expect(a < date && !(date < a) && a != date)
    }

    // MARK: - Exposure, summary, camera names

    @Test("exposure times as cameras show them", arguments: [
        (1, 250, "1/250 s"), (10, 2500, "1/250 s"), (4, 1001, "1/250 s"), (1, 2, "1/2 s"), (1, 3, "1/3 s"),
        (3, 10, "0.3 s"), (1, 1, "1 s"), (2, 1, "2 s"), (5, 2, "2.5 s"), (30, 1, "30 s"), (1, 8000, "1/8000 s"),
        (1, 4_294_967_295, "1/4294967295 s"), (4_294_967_295, 1, "4294967295 s"),
    ] as [(UInt32, UInt32, String)])
    func exposure(numerator: UInt32, denominator: UInt32, expected: String) throws {
        let time = try #require(ExposureTime(numerator: numerator, denominator: denominator))
        #expect(time.description == expected)
    }

    @Test("no exposure time from 0/x or x/0")
    func zeroExposure() {
        #expect(ExposureTime(numerator: 0, denominator: 250) == nil)
        #expect(ExposureTime(numerator: 1, denominator: 0) == nil)
    }

    @Test("camera names: Model alone when it names the maker", arguments: [
        ("Canon", "Canon EOS R5", "Canon EOS R5"),
        ("NIKON CORPORATION", "NIKON Z 6", "NIKON Z 6"),
        ("Apple", "iPhone 15 Pro", "Apple iPhone 15 Pro"),
        ("OLYMPUS IMAGING CORP.", "E-M5", "OLYMPUS E-M5"),
        ("RICOH IMAGING COMPANY, LTD.", "PENTAX K-1", "RICOH PENTAX K-1"),
        ("Leica Camera AG", "LEICA Q2", "LEICA Q2"),
        ("EASTMAN KODAK COMPANY", "KODAK EASYSHARE C713", "KODAK EASYSHARE C713"),
        ("SONY", "ILCE-7M3", "SONY ILCE-7M3"),
        ("samsung", "SM-G991B", "samsung SM-G991B"),
    ])
    func cameraNames(make: String, model: String, expected: String) {
        #expect(ExifFacts(make: make, model: model).cameraName == expected)
    }

    @Test("summaries and captions from whatever facts there are")
    func summaries() {
        #expect(ExifFacts().summary == nil)
        #expect(ExifFacts().cameraName == nil)
        #expect(ExifFacts(make: "NIKON CORPORATION").cameraName == "NIKON")
        #expect(ExifFacts(model: "X100V").summary == "X100V")
        #expect(ExifFacts(fNumber: 1.4, iso: 100).summary == "ƒ/1.4 · ISO 100")
        #expect(ExifFacts(lens: "iPhone 15 Pro", focalLength: 6.765).summary == "iPhone 15 Pro · 6.8 mm")
        // A lens named like the camera is said once.
        #expect(ExifFacts(make: "Apple", model: "iPhone 15 Pro", lens: "iPhone 15 Pro").summaryParts
            == ["Apple iPhone 15 Pro"])
        #expect(ExifFacts(imageDescription: "OLYMPUS DIGITAL CAMERA").caption == nil)
        #expect(ExifFacts(make: "SONY", imageDescription: "Sony dsc").caption == nil)
        #expect(ExifFacts(make: "Canon", imageDescription: "CANON").caption == nil)
        #expect(ExifFacts(imageDescription: "A heron").caption == "A heron")
        #expect(ExifFacts(imageDescription: "A heron", pngDescription: "A stork").caption == "A stork")
    }

    // MARK: - The TIFF parser on hand-made structures

    /// A TIFF structure: IFD0 at 8, then the Exif IFD right after it when given, then `data` (values over
    /// 4 bytes, at offsets the caller computes with `dataOffset`).
    struct TIFF {
        var littleEndian = true
        var ifd0: [(UInt16, UInt16, UInt32, UInt32)] = []
        var exif: [(UInt16, UInt16, UInt32, UInt32)]? = nil
        var data: [UInt8] = []

        var exifOffset: UInt32 { UInt32(8 + 2 + 12 * ifd0.count + 4) }
        var dataOffset: UInt32 { exifOffset + UInt32(exif.map { 2 + 12 * $0.count + 4 } ?? 0) }

        var bytes: [UInt8] {
            var out: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
            out += u16(42) + u32(8)
            for ifd in [ifd0] + (exif.map { [$0] } ?? []) {
                out += u16(UInt16(ifd.count))
                for (tag, type, count, value) in ifd {
                    out += u16(tag) + u16(type) + u32(count)
                    // SHORT values sit in the first two bytes of the field.
                    out += type == 3 && count == 1 ? u16(UInt16(value)) + [0, 0] : u32(value)
                }
                out += u32(0)
            }
            return out + data
        }

        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] {
            littleEndian ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF))
        }
    }

    @Test("parser: headers it refuses")
    func refusedHeaders() {
        for bytes: [UInt8] in [
            [], [0x49, 0x49, 42, 0], [0x49, 0x4D, 42, 0, 8, 0, 0, 0, 0, 0], [0x49, 0x49, 43, 0, 8, 0, 0, 0, 0, 0],
            [0x49, 0x49, 42, 0, 7, 0, 0, 0, 0, 0], [0x49, 0x49, 42, 0, 9, 0, 0, 0, 0, 0],
            [0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0],
        ] {
            #expect(ExifParser.facts(tiff: bytes).isEmpty, "\(bytes)")
        }
    }

    @Test("parser: ISO as SHORT or LONG in both byte orders; short ASCII values inline", arguments: [true, false])
    func inlineValues(littleEndian: Bool) {
        var tiff = TIFF(littleEndian: littleEndian)
        tiff.ifd0 = [(0x010F, 2, 4, 0), (0x8769, 4, 1, 0)]
        tiff.ifd0[1].3 = tiff.exifOffset
        tiff.exif = [(0x8827, 3, 1, 800)]
        var bytes = tiff.bytes
        bytes.replaceSubrange(8 + 2 + 8..<8 + 2 + 12, with: Array("Sny\0".utf8))
        #expect(ExifParser.facts(tiff: bytes) == ExifFacts(make: "Sny", iso: 800))
        tiff.exif = [(0x8827, 4, 1, 102_400)]
        #expect(ExifParser.facts(tiff: tiff.bytes).iso == 102_400)
    }

    @Test("parser: the first entry for a tag decides, valid or not")
    func firstEntryDecides() {
        var tiff = TIFF()
        tiff.ifd0 = [(0x8769, 4, 1, 0)]
        tiff.ifd0[0].3 = tiff.exifOffset
        tiff.exif = [(0x8827, 3, 1, 100), (0x8827, 3, 1, 200)]
        #expect(ExifParser.facts(tiff: tiff.bytes).iso == 100)
        tiff.exif = [(0x8827, 9, 1, 100), (0x8827, 3, 1, 200)]  // SLONG: not an ISO type
        #expect(ExifParser.facts(tiff: tiff.bytes).iso == nil)
        tiff.exif = [(0x8827, 3, 1, 0)]
        #expect(ExifParser.facts(tiff: tiff.bytes).iso == nil)
    }

    @Test("parser: an Exif pointer must be one LONG or IFD, and not IFD0 or the GPS IFD")
    func exifPointer() {
        func iso(pointerType: UInt16, count: UInt32, target: (TIFF) -> UInt32, gps: Bool = false) -> Int? {
            var tiff = TIFF()
            tiff.ifd0 = [(0x8769, pointerType, count, 0)] + (gps ? [(0x8825, 4, 1, 0)] : [])
            tiff.exif = [(0x8827, 3, 1, 640)]
            tiff.ifd0[0].3 = target(tiff)
            if gps { tiff.ifd0[1].3 = tiff.exifOffset }
            return ExifParser.facts(tiff: tiff.bytes).iso
        }
        #expect(iso(pointerType: 4, count: 1, target: \.exifOffset) == 640)
        #expect(iso(pointerType: 13, count: 1, target: \.exifOffset) == 640)
        #expect(iso(pointerType: 3, count: 1, target: \.exifOffset) == nil)
        #expect(iso(pointerType: 4, count: 2, target: \.exifOffset) == nil)
        #expect(iso(pointerType: 4, count: 1, target: { _ in 8 }) == nil)
        #expect(iso(pointerType: 4, count: 1, target: \.exifOffset, gps: true) == nil)
    }

    @Test("parser: rationals out of line, a zero denominator ignored")
    func rationals() {
        var tiff = TIFF(littleEndian: false)
        tiff.ifd0 = [(0x8769, 4, 1, 0)]
        tiff.ifd0[0].3 = tiff.exifOffset
        tiff.exif = [(0x829D, 5, 1, 0), (0x920A, 5, 1, 0), (0x829A, 5, 1, 0)]
        let at = tiff.dataOffset
        tiff.exif![0].3 = at
        tiff.exif![1].3 = at + 8
        tiff.exif![2].3 = at + 16
        tiff.data = tiff.u32(56) + tiff.u32(10) + tiff.u32(35) + tiff.u32(0) + tiff.u32(1) + tiff.u32(60)
        #expect(ExifParser.facts(tiff: tiff.bytes) == ExifFacts(
            fNumber: 5.6, exposureTime: ExposureTime(numerator: 1, denominator: 60)))
        // One byte short of the last rational: that value alone is ignored.
        #expect(ExifParser.facts(tiff: Array(tiff.bytes.dropLast())).exposureTime == nil)
        #expect(ExifParser.facts(tiff: Array(tiff.bytes.dropLast())).fNumber == 5.6)
    }

    @Test("parser: an entry table past the end refuses the whole IFD")
    func tablePastTheEnd() {
        var tiff = TIFF()
        tiff.ifd0 = [(0x010F, 2, 2, 0x41)]
        let bytes = tiff.bytes
        #expect(ExifParser.facts(tiff: bytes).make == "A")
        #expect(ExifParser.facts(tiff: Array(bytes.prefix(8 + 2 + 11))).isEmpty)
    }
}
