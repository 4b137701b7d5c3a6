import Foundation
import Testing
@testable import WaterfallKit

/// The EXIF-facts fixtures (made by Tests/Tools/make_exif_fixtures.py) with the facts the reader must give,
/// and the SampleGallery photos.
struct ExifFixtureTests {
    static func path(_ name: String) -> String { Fixtures.root.appendingPathComponent("exif/\(name)").path }

    static let canon = ExifFacts(
        make: "Canon", model: "Canon EOS R5", lens: "RF24-105mm F4 L IS USM", focalLength: 50, fNumber: 4,
        exposureTime: ExposureTime(numerator: 1, denominator: 250), iso: 400,
        dateTaken: ExifDateTime(year: 2024, month: 5, day: 17, hour: 8, minute: 30, second: 12, utcOffsetMinutes: 120),
        imageDescription: "A heron at dawn")

    static let cases: [(String, ExifFacts)] = [
        ("E01-all-facts-II.jpg", canon),
        ("E01-all-facts-MM.jpg", canon),
        ("E02-nikon-iso-long-2s.jpg", ExifFacts(
            make: "NIKON CORPORATION", model: "NIKON Z 6", focalLength: 4.2, fNumber: 2.8,
            exposureTime: ExposureTime(numerator: 2, denominator: 1), iso: 12800,
            dateTaken: ExifDateTime(year: 2020, month: 2, day: 29, hour: 23, minute: 59, second: 59))),
        ("E03-gps.jpg", canon),
        ("E03-exif-pointer-is-gps.jpg", ExifFacts(make: "Canon")),
        ("E04-html-description.jpg", ExifFacts(
            make: "Canon", model: "EOS R5", imageDescription: #"<script>alert(1)</script> & "quotes"[31m red line"#)),
        ("E05-exif-ifd-is-ifd0.jpg", ExifFacts(make: "Canon", model: "Canon EOS R5")),
        ("E06-out-of-range-offsets.jpg", ExifFacts(model: "Canon EOS R5", iso: 100)),
        ("E06-exif-pointer-past-end.jpg", ExifFacts(make: "Canon")),
        ("E07-huge-counts.jpg", ExifFacts(make: "Canon", focalLength: 35)),
        ("E07-exif-ifd-entry-count-65535.jpg", ExifFacts(make: "Canon")),
        ("E08-zero-denominators.jpg", ExifFacts(iso: 200)),
        ("E09-bad-date.jpg", ExifFacts(make: "Canon")),
        ("E10-long-strings.jpg", ExifFacts(
            make: String(repeating: "M", count: 256), model: "x" + String(repeating: "é", count: 127),
            imageDescription: Array(repeating: "word", count: 819).joined(separator: " ") + " w")),
        ("E11-latin1-and-utf8.jpg", ExifFacts(
            make: "Ünïcödé Optik", model: "Kamera 東京", imageDescription: "Café “crème” € 5")),
        ("E12-xmp-then-exif-after-sof.jpg", canon),
        ("E13-exif-ifd-at-end-of-64k-app1.jpg", ExifFacts(make: "Canon", focalLength: 600, iso: 3200)),
        ("E14-make-only-in-ifd1.jpg", ExifFacts()),
        ("E15-truncated-after-exif.jpg", canon),
        ("P01-exif-and-text.png", {
            var facts = canon
            facts.pngDescription = "A heron at dawn, Lake Geneva"
            facts.pngTitle = "Heron"
            return facts
        }()),
        ("P02-itxt-utf8.png", ExifFacts(
            pngDescription: "Ça va ? Lac Léman au lever du soleil — 東京 🌊", pngTitle: "Überschrift")),
        ("P03-ztxt-latin1.png", ExifFacts(pngDescription: "Crème brûlée")),
        ("P04-ztxt-bomb-60MB.png", ExifFacts(pngTitle: "After the bomb")),
        ("P05-many-ztxt-bombs.png", ExifFacts(pngDescription: "First")),
        ("P06-big-xmp-then-description.png", ExifFacts(pngDescription: "Kept")),
        // Text after IDAT is not read: reaching it means reading the whole image.
        ("P07-description-after-idat.png", ExifFacts()),
        ("P08-text-claims-2GiB.png", ExifFacts(pngDescription: "Before")),
        ("P09-exif-gps.png", canon),
    ]

    @Test("every fixture is covered by the table")
    func tableCoversEveryFixture() throws {
        #expect(Set(try Fixtures.files(in: "exif")) == Set(Self.cases.map(\.0)))
    }

    @Test(arguments: cases)
    func reads(file: String, expected: ExifFacts) {
        #expect(ExifReader().read(path: Self.path(file)) == expected)
    }

    @Test("the memory reader agrees with the file reader on every fixture")
    func memoryReaderAgrees() throws {
        for (file, _) in Self.cases {
            let path = Self.path(file)
            #expect(ExifReader().raw(bytes: try Fixtures.bytes(path)) == ExifReader().raw(path: path), "\(file)")
        }
    }

    @Test("no value from the GPS IFD appears anywhere in the facts", arguments: [
        "E03-gps.jpg", "E03-exif-pointer-is-gps.jpg", "P09-exif-gps.png",
    ])
    func gpsNeverLeaks(file: String) throws {
        let facts = ExifReader().read(path: Self.path(file))
        let leaves = Self.leaves(of: facts)
        #expect(!leaves.isEmpty)
        // The GPS IFD's numbers (47° 37' 12.34" N, 122° 20' 56.78" W, 133.7 m), its strings, and the
        // Exif-looking tags planted in it (DateTimeOriginal 1999, Model).
        let gpsNumbers: Set<Double> = [47, 37, 12.34, 122, 20, 56.78, 133.7, 1337, 1234, 5678, 1999]
        for leaf in leaves {
            if let number = leaf as? Double { #expect(!gpsNumbers.contains(number), "\(file): \(number)") }
            if let number = leaf as? Int { #expect(!gpsNumbers.contains(Double(number)), "\(file): \(number)") }
            if let number = leaf as? UInt32 { #expect(!gpsNumbers.contains(Double(number)), "\(file): \(number)") }
            if let text = leaf as? String {
                for secret in ["SECRET", "GPS", "WGS", "1999"] { #expect(!text.contains(secret), "\(file): \(text)") }
            }
        }
        // And the whole answer is what the same photo without GPS gives.
        if file != "E03-exif-pointer-is-gps.jpg" { #expect(facts == Self.canon) }
    }

    @Test("the raw Exif payload is whole, and bombs are refused before any text is kept")
    func rawBytes() {
        let far = ExifReader().raw(path: Self.path("E13-exif-ifd-at-end-of-64k-app1.jpg"))
        #expect(far.exif.count == 65527)
        let bomb = ExifReader().raw(path: Self.path("P04-ztxt-bomb-60MB.png"))
        #expect(bomb.description.isEmpty && !bomb.descriptionTruncated)
        let long = ExifReader().raw(path: Self.path("E10-long-strings.jpg"))
        #expect(long.exif.count > 6000)
    }

    @Test("unreadable files give empty facts", arguments: ["missing.jpg", ""])
    func unreadable(name: String) {
        #expect(ExifReader().read(path: Self.path(name)).isEmpty)
        #expect(ExifReader().read(bytes: Array("not an image".utf8)).isEmpty)
        #expect(ExifReader().read(bytes: []).isEmpty)
    }

    @Test("the summary of the fixtures")
    func summaries() {
        #expect(Self.canon.summary == "Canon EOS R5 · RF24-105mm F4 L IS USM · 50 mm · ƒ/4 · 1/250 s · ISO 400")
        let nikon = ExifReader().read(path: Self.path("E02-nikon-iso-long-2s.jpg"))
        #expect(nikon.summary == "NIKON Z 6 · 4.2 mm · ƒ/2.8 · 2 s · ISO 12800")
        #expect(nikon.dateTaken?.description == "2020-02-29 23:59:59")
        #expect(Self.canon.dateTaken?.iso8601 == "2024-05-17T08:30:12+02:00")
        let html = ExifReader().read(path: Self.path("E04-html-description.jpg"))
        #expect(html.cameraName == "Canon EOS R5")
        #expect(html.caption == #"<script>alert(1)</script> & "quotes"[31m red line"#)
        let png = ExifReader().read(path: Self.path("P01-exif-and-text.png"))
        #expect(png.caption == "A heron at dawn, Lake Geneva")
    }

    // MARK: - SampleGallery

    static let sampleGallery = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleGallery")

    /// The photos Tests/Tools/make_sample_gallery.py gave test EXIF, with the DateTimeOriginal it wrote.
    static let galleryDates: [String: String] = [
        "hubble-deep-field.jpg": "2012:09:25 10:00:00", "retina-optic-disc.jpg": "2014:03:02 09:15:00",
        "rocket-launch.jpg": "2015:02:10 18:05:00", "astronaut.jpg": "1992:07:01 11:00:00",
        "astronaut-portrait.jpg": "1992:07:01 11:05:00", "coffee-cup.jpg": "2013:05:17 08:30:00",
        "chelsea-the-cat.jpg": "2011:10:09 16:45:00", "cameraman.jpg": "2016:02:20 14:00:00",
    ]

    @Test("the SampleGallery photos read, and those with test EXIF give its facts")
    func sampleGallery() throws {
        // Albums are sub-folders: every photo, by its path, keyed here by its file name.
        let paths = try FileManager.default.subpathsOfDirectory(atPath: Self.sampleGallery.path)
            .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted()
        let files = paths.map { String($0.split(separator: "/").last!) }
        #expect(files.count >= 30)
        #expect(Set(Self.galleryDates.keys).isSubset(of: Set(files)))
        for (path, file) in zip(paths, files) {
            let facts = ExifReader().read(path: Self.sampleGallery.appendingPathComponent(path).path)
            guard let date = Self.galleryDates[file] else {
                #expect(facts.isEmpty, "\(file): \(facts)")
                continue
            }
            #expect(facts.make == "Waterfall", "\(file)")
            #expect(facts.model == "SampleGallery generator", "\(file)")
            #expect(facts.cameraName == "Waterfall SampleGallery generator", "\(file)")
            #expect(facts.dateTaken == ExifDateTime(exif: date), "\(file)")
            #expect(facts.imageDescription?.contains("(scikit-image sample data; ") == true, "\(file)")
            #expect(facts.caption == facts.imageDescription, "\(file)")
            #expect(facts.exposureTime == nil && facts.iso == nil && facts.lens == nil, "\(file)")
        }
        let astronaut = ExifReader().read(path: Self.sampleGallery.appendingPathComponent("Space/astronaut.jpg").path)
        #expect(astronaut.imageDescription == "Astronaut Eileen Collins in her orange launch suit, with a flag "
            + "and a space shuttle model (scikit-image sample data; NASA)")
    }

    // MARK: -

    /// Every stored value in `value`, however deeply nested (optionals, structs), by reflection: so a field
    /// added later is searched too.
    static func leaves(of value: Any) -> [Any] {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            return mirror.children.first.map { leaves(of: $0.value) } ?? []
        }
        if mirror.children.isEmpty { return [value] }
        return mirror.children.flatMap { leaves(of: $0.value) }
    }
}
