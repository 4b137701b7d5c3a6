import Foundation
import Testing

/// Issue 10, section 4: every name the input can hold gives a whole site (or a clear refusal before
/// anything is written): long names, album folders named like generated files, derived-name collisions,
/// Unicode twins, names that are not UTF-8, CRLF captions, earlier outputs inside the input.
struct TrustNamingTests {
    @Test func namesOf251To255BytesBuildAndStayStable() throws {
        let input = try TemporaryFolder()
        var names: [String] = []
        for length in 251...255 { names.append(String(repeating: "x", count: length - 4) + ".jpg") }
        names.append(String(repeating: "\u{E9}", count: 125) + ".jpg")          // 254 bytes, two-byte characters
        names.append(String(repeating: "d", count: 255) + "/" + String(repeating: "y", count: 251) + ".jpg")
        names.append(String(repeating: "\u{65E5}", count: 83) + ".jpg")         // 253 bytes, three-byte characters
        for (index, name) in names.enumerated() {
            let photo = index % 2 == 0 ? "coffee-cup.jpg" : "hubble-tall.jpg"
            try Trust.copy(Trust.photo(photo), to: input.path + "/" + name)
        }
        let first = try TemporaryFolder(), second = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", first.path])
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix("\(names.count) photos, 0 skipped,") == true, "\(run.stderr)")
        Trust.expectSoundSite(first.path)
        let files = try Fixtures.siteFiles(in: first.path)
        for file in files {
            #expect(file.split(separator: "/").allSatisfy { $0.utf8.count <= 255 }, "\(file)")
        }
        let tiles = Trust.tiles(try Trust.read(first.path + "/index.html")).filter { $0.href.hasPrefix("photos/") }
        #expect(tiles.count == names.count - 1 && Set(tiles.map(\.href)).count == tiles.count)
        // The same input gives the same names, and a rebuild changes nothing.
        #expect(try WaterfallProcess.run(["build", input.path, "-o", second.path, "--quiet"]).status == 0)
        #expect(try Fixtures.siteFiles(in: second.path) == files)
        let again = try WaterfallProcess.run(["build", input.path, "-o", first.path, "--report", "json", "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains(#""removed": []"#) && again.stdout.contains(#""made": 0"#), "\(again.stdout)")
        #expect(try Fixtures.siteFiles(in: first.path) == files)
    }

    @Test func albumFoldersNamedLikeGeneratedFilesGiveAWholeSite() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input.path + "/a.jpg")
        try Trust.copy(Trust.photo("coffee-spoon.jpg"), to: input.path + "/b.jpg")
        let folders = ["index.html", "Index.HTML", "page-2.html", "photos", "images", "originals", "assets", "photos/a.jpg.html",
                       "images/217/a.jpg", "images/view/a.jpg", "page-2.html/page-2.html", "x/photos/b.jpg.html"]
        for folder in folders { try Trust.copy(Trust.photo("hubble-tall.jpg"), to: input.path + "/" + folder + "/p.jpg") }
        try Trust.write(input.path + "/waterfall.json", #"{"perPage": 1}"#)   // so the top has a page-2.html
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--originals", "copy"])
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix("\(folders.count + 2) photos, 0 skipped,") == true, "\(run.stderr)")
        Trust.expectSoundSite(output.path)
        for page in ["index.html", "page-2.html", "photos/a.jpg.html", "photos/b.jpg.html", "images/217/a.jpg", "images/view/a.jpg"] {
            #expect(Trust.describe(Array((output.path + "/" + page).utf8))?.hasPrefix("file ") == true, "\(page) is not a file")
        }
        #expect(try Fixtures.bytes(output.path + "/assets/waterfall.css") == Fixtures.bytes(Trust.templates + "/assets/waterfall.css"))
        #expect(try Fixtures.bytes(output.path + "/originals/a.jpg") == Fixtures.bytes(input.path + "/a.jpg"))
        // Every album has its page, and each album's photo page shows that album's photo.
        let pages = try Fixtures.siteFiles(in: output.path).filter { $0.hasSuffix("/photos/p.jpg.html") }
        #expect(pages.count == folders.count, "\(pages)")
        #expect(Set(try Trust.manifestPaths(output.path)) == Set(try Fixtures.siteFiles(in: output.path)))
        // The same input names its albums the same way every time.
        let second = try TemporaryFolder()
        #expect(try WaterfallProcess.run(["build", input.path, "-o", second.path, "--originals", "copy", "--quiet"]).status == 0)
        #expect(try Fixtures.siteFiles(in: second.path) == Fixtures.siteFiles(in: output.path))
    }

    @Test func aFolderInTheWayStopsTheBuildBeforeAnythingIsWritten() throws {
        let input = try Trust.input(["coffee-cup.jpg", "hubble-tall.jpg"])
        let output = try TemporaryFolder()
        try Trust.write(output.path + "/photos/hubble-tall.jpg.html/keep.txt", "mine\n")
        try Trust.write(output.path + "/README.md", "mine too\n")
        let before = Trust.site(output.path)
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr.hasSuffix("waterfall: \(output.path)/photos/hubble-tall.jpg.html: is a folder where the site needs a file; "
            + "move it away or choose another output folder\n"), "\(run.stderr)")
        #expect(Trust.site(output.path) == before, "a build that could not plan its paths wrote something")
        Trust.expectNothingHalfWritten(output.path)
    }

    @Test func derivedImageNamesNeverCollide() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        // An opaque PNG is published as NAME.png.jpg, a JPEG that is really a PNG with alpha as NAME.jpg.png.
        let photos: [(name: String, source: String, width: Int, height: Int)] = [
            ("a.png", Trust.photo("cameraman-skyline.png"), 212, 140),
            ("a.png.jpg", Trust.photo("hubble-tall.jpg"), 290, 870),
            ("b.jpg", Trust.conformance + "/pngsuite/basn6a08.png", 32, 32),
            ("b.jpg.png", Trust.thumbnails + "/text-exif-icc-alpha.png", 160, 106),
        ]
        for photo in photos { try Trust.copy(photo.source, to: input.path + "/" + photo.name) }
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        Trust.expectSoundSite(output.path)
        let tiles = Trust.tiles(try Trust.read(output.path + "/index.html"))
        #expect(tiles.count == 4)
        #expect(Set(tiles.map(\.src)).count == 4, "two tiles show one image: \(tiles.map(\.src))")
        let sizes = try Trust.pixelSizes(tiles.map { output.path + "/" + ($0.src.removingPercentEncoding ?? $0.src) })
        for photo in photos {
            let tile = try #require(tiles.first { $0.href == "photos/\(photo.name).html" }, "no tile for \(photo.name)")
            #expect(tile.width == photo.width && tile.height == photo.height, "\(photo.name): \(tile)")
            let image = try #require(sizes[output.path + "/" + (tile.src.removingPercentEncoding ?? tile.src)])
            // The image is this photo's: its own shape.
            #expect(abs(Double(image.width) / Double(image.height) - Double(photo.width) / Double(photo.height)) < 0.02,
                    "\(photo.name) shows \(tile.src), \(image.width)×\(image.height)")
            let viewPage = try Trust.read(output.path + "/" + tile.href)
            let view = try #require(Trust.attribute("src", in: viewPage.components(separatedBy: "<img").dropFirst().first ?? ""))
            let viewPath = output.path + "/photos/" + (view.removingPercentEncoding ?? view)
            let viewSize = try #require(try Trust.pixelSizes([viewPath]).values.first)
            #expect(viewSize.width == photo.width && viewSize.height == photo.height, "\(photo.name)'s page shows \(view)")
        }
        let views = try FileManager.default.contentsOfDirectory(atPath: output.path + "/images/view")
        let viewBytes = try views.map { try Fixtures.bytes(output.path + "/images/view/" + $0) }
        #expect(views.count == 4 && Set(viewBytes).count == 4)
    }

    @Test func nfcAndNFDSpellingsOfOneAlbumNameAreTwoAlbums() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let nfc = "Caf\u{E9}", nfd = "Cafe\u{301}"
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: Array((input.path + "/" + nfc + "/a.jpg").utf8))
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: Array((input.path + "/" + nfd + "/a.jpg").utf8))
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix("2 photos, 0 skipped,") == true, "\(run.stderr)")
        Trust.expectSoundSite(output.path)
        let albums = Trust.tiles(try Trust.read(output.path + "/index.html"))
        #expect(albums.count == 2 && Set(albums.map(\.href)).count == 2, "\(albums)")
        var shapes: Set<String> = []
        for album in albums {
            let page = output.path + "/" + (album.href.removingPercentEncoding ?? album.href)
            let tiles = Trust.tiles(try Trust.read(page))
            #expect(tiles.count == 1, "\(album.href)")
            shapes.formUnion(tiles.map { "\($0.width)×\($0.height)" })
        }
        #expect(shapes == ["600×400", "290×870"], "the two albums do not show their own photos")
    }

    @Test func namesThatAreNotUTF8AreReportedAndFailAStrictBuild() throws {
        let input = try Trust.input(["coffee-cup.jpg"])
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: Array((input.path + "/bad").utf8) + [0xFF] + Array("/x.jpg".utf8))
        try Trust.copy(Trust.photo("coffee-spoon.jpg"), to: Array((input.path + "/f").utf8) + [0xFE] + Array(".jpg".utf8))
        try Trust.write(bytes: Array((input.path + "/g").utf8) + [0xC3, 0x28] + Array(".jpg.txt".utf8), Array("caption".utf8))
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        let reason = "skipped: the name is not valid UTF-8 (rename it to publish it)"
        let skipped = run.stderr.split(separator: "\n").filter { $0.contains("not valid UTF-8") }.sorted()
        #expect(skipped == ["waterfall: \(input.path)/bad\\xFF: \(reason)", "waterfall: \(input.path)/f\\xFE.jpg: \(reason)",
                            "waterfall: \(input.path)/g\\xC3(.jpg.txt: \(reason)"])
        #expect(!run.stderr.contains("No such file"))
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix("1 photo, 3 skipped,") == true, "\(run.stderr)")

        let strict = try WaterfallProcess.run(["build", input.path, "-o", output.path + "/strict", "--strict"])
        #expect(strict.status == 1 && !strict.signalled)
        #expect(strict.stderr.hasSuffix("waterfall: 3 files or folders of the input could not be read (--strict); nothing was written\n"), "\(strict.stderr)")
        #expect(Trust.describe(Array((output.path + "/strict").utf8)) == nil)
    }

    @Test func crlfAndCRSidecarsGiveATitleAndADescription() throws {
        let input = try Trust.input(["coffee-cup.jpg", "hubble-tall.jpg"])
        try Trust.write(input.path + "/coffee-cup.txt", "Title line\r\nFirst line\r\nSecond line\r\n")
        try Trust.write(input.path + "/hubble-tall.jpg.txt", "\u{FEFF}Old Mac\rdescribed\r")
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let pages = Trust.files(in: output.path, containing: [0x0D]).filter { $0.hasSuffix(".html") }
        #expect(pages.isEmpty, "pages holding a carriage return: \(pages)")
        let cup = try Trust.read(output.path + "/photos/coffee-cup.jpg.html")
        #expect(cup.contains("<h1>Title line</h1>") && cup.contains("<p class=\"wf-description\">First line\nSecond line</p>"), "\(cup)")
        let tall = try Trust.read(output.path + "/photos/hubble-tall.jpg.html")
        #expect(tall.contains("<h1>Old Mac</h1>") && tall.contains("<p class=\"wf-description\">described</p>"), "\(tall)")
        #expect(try Trust.read(output.path + "/index.html").contains("alt=\"Title line\""))
    }

    @Test func earlierOutputsAndCachesInsideTheInputAreNotPublished() throws {
        let work = try TemporaryFolder()
        let input = work.path + "/in"
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input + "/a.jpg")
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: input + "/Trip/b.jpg")
        #expect(try WaterfallProcess.run(["build", ".", "-o", "_site", "--quiet"], in: input).status == 0)
        #expect(try WaterfallProcess.run(["build", "in", "-o", "elsewhere", "--cache-dir", "oldcache", "--quiet"], in: work.path).status == 0)
        #expect(rename(work.path + "/oldcache", input + "/oldcache") == 0)
        #expect(rename(work.path + "/elsewhere", input + "/Trip/restored") == 0)
        let run = try WaterfallProcess.run(["build", ".", "-o", "public"], in: input)
        #expect(run.status == 0, "\(run.stderr)")
        let notes = run.stderr.split(separator: "\n").filter { $0.hasPrefix("waterfall: note:") }.sorted()
        #expect(notes == [
            "waterfall: note: ./Trip/restored: holds a Waterfall site (an earlier output), so it is not scanned",
            "waterfall: note: ./_site: holds a Waterfall site (an earlier output), so it is not scanned",
            "waterfall: note: ./oldcache: holds a cache (it has a CACHEDIR.TAG), so it is not scanned",
        ])
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix("2 photos, 0 skipped,") == true, "\(run.stderr)")
        let files = try Fixtures.siteFiles(in: input + "/public")
        #expect(!files.contains { $0.contains("_site") || $0.contains("oldcache") || $0.contains("restored") }, "\(files)")
        Trust.expectSoundSite(input + "/public")
    }

    @Test func anOutputFolderThatIsAnAlbumSaysItsPhotosAreNotInTheGallery() throws {
        let work = try TemporaryFolder()
        for (name, photo) in [("a.jpg", "coffee-cup.jpg"), ("Trip/b.jpg", "hubble-tall.jpg"), ("Trip/c.jpg", "coffee-spoon.jpg")] {
            try Trust.copy(Trust.photo(photo), to: work.path + "/" + name)
        }
        let photos = Trust.snapshot(work.path + "/Trip")
        for _ in 0..<2 {
            let run = try WaterfallProcess.run(["build", ".", "-o", "Trip"], in: work.path)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(Trust.lines(run, naming: "warning:") == [
                "waterfall: warning: Trip is the output folder, so it is not scanned: its 2 photos (Trip/b.jpg, …) are not in the gallery",
            ])
            #expect(run.stderr.split(separator: "\n").last?.hasPrefix("1 photo, 0 skipped,") == true, "\(run.stderr)")
        }
        for (path, description) in photos {
            #expect(Trust.describe(Array((work.path + "/Trip/").utf8) + path) == description)
        }
        Trust.expectSoundSite(work.path + "/Trip")
    }
}
