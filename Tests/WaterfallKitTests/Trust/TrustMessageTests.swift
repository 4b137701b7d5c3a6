import Foundation
import Testing

/// Issue 10, section 5: settings and captions that are slightly off get a clear word, naming the file.
struct TrustMessageTests {
    @Test func aByteOrderMarkBeforeTheSettingsIsAccepted() throws {
        let input = try Trust.input(["coffee-cup.jpg", "Trip/hubble-tall.jpg"])
        try Trust.write(input.path + "/waterfall.json", [0xEF, 0xBB, 0xBF] + Array(#"{"title": "With a BOM"}"#.utf8))
        try Trust.write(input.path + "/Trip/waterfall.json", [0xEF, 0xBB, 0xBF] + Array(#"{"title": "Album BOM"}"#.utf8))
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(try Trust.read(output.path + "/index.html").contains("<title>With a BOM</title>"))
        #expect(try Trust.read(output.path + "/Trip/index.html").contains("<title>Album BOM"))
    }

    @Test(arguments: ["waterfall.json", "Trip/waterfall.json"])
    func aKeyWrittenTwiceIsAnError(file: String) throws {
        let input = try Trust.input(["coffee-cup.jpg", "Trip/hubble-tall.jpg"])
        try Trust.write(input.path + "/" + file, "{\"title\": \"first\",\n  \"title\": \"second\"}")
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path + "/site"])
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr.split(separator: "\n").last.map(String.init)
            == "waterfall: \(input.path)/\(file):2:3: duplicate key 'title' (first at line 1)", "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path + "/site/index.html"))
    }

    @Test func aCoverThatNamesNoPhotoOfItsAlbumWarns() throws {
        let input = try Trust.input(["coffee-cup.jpg", "Trip/hubble-tall.jpg", "Trip/coffee-spoon.jpg"])
        // coffee-cup.jpg is a photo of the gallery, but not of this album.
        try Trust.write(input.path + "/Trip/waterfall.json", #"{"cover": "coffee-cup.jpg"}"#)
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "waterfall: warning: \(input.path)/Trip/waterfall.json: 'cover' names coffee-cup.jpg, which is not a "
            + "photo of this album; its first photo is the cover\n")
        // Said again by a build that finds the site as the last one left it.
        let again = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(again.stderr == run.stderr, "\(again.stderr)")
        // The album's tile shows its first photo (natural order: coffee-spoon.jpg).
        let albumTile = try #require(Trust.tiles(try Trust.read(output.path + "/index.html")).first { $0.href == "Trip/index.html" })
        #expect(albumTile.src.hasSuffix("/coffee-spoon.jpg"), "\(albumTile)")
    }

    @Test func aCoverThatNamesAPhotoOfItsAlbumIsUsedSilently() throws {
        let input = try Trust.input(["coffee-cup.jpg", "Trip/hubble-tall.jpg", "Trip/coffee-spoon.jpg"])
        try Trust.write(input.path + "/Trip/waterfall.json", #"{"cover": "hubble-tall.jpg"}"#)
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let albumTile = try #require(Trust.tiles(try Trust.read(output.path + "/index.html")).first { $0.href == "Trip/index.html" })
        #expect(albumTile.src.hasSuffix("/hubble-tall.jpg"), "\(albumTile)")
    }

    @Test func aSidecarOverTheLimitWarnsAndOneAtTheLimitIsUsed() throws {
        let input = try Trust.input(["coffee-cup.jpg", "hubble-tall.jpg"])
        let limit = 64 * 1024
        try Trust.write(input.path + "/coffee-cup.txt", Array("Too long\n".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: limit))
        try Trust.write(input.path + "/hubble-tall.txt", Array("Just fits\n".utf8) + [UInt8](repeating: UInt8(ascii: "y"), count: limit - 10))
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "waterfall: warning: \(input.path)/coffee-cup.txt: larger than the 64 KiB limit; the caption is not used\n")
        let unused = try Trust.read(output.path + "/photos/coffee-cup.jpg.html")
        // Its own embedded description is its caption, as without a sidecar.
        #expect(unused.contains("<title>An espresso cup with a spoon on a saucer") && !unused.contains("Too long"))
        #expect(try Trust.read(output.path + "/photos/hubble-tall.jpg.html").contains("<h1>Just fits</h1>"))
    }

    @Test func maxPixelsOfOneSaysPixelsNotZeroMegapixels() throws {
        let input = try Trust.input(["coffee-cup.jpg", "Trip/hubble-tall.jpg"])
        try Trust.write(input.path + "/waterfall.json", #"{"maxPixels": 1}"#)
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").map(String.init) == [
            "waterfall: \(input.path)/coffee-cup.jpg: skipped: 600×400 is 240000 pixels, over the 1-pixel limit",
            "waterfall: \(input.path)/Trip/hubble-tall.jpg: skipped: 290×870 is 252300 pixels, over the 1-pixel limit",
            "waterfall: warning: no photos in \(input.path); the gallery is empty",
        ])
        let inspect = try WaterfallProcess.run(["inspect", "--max-pixels", "1", input.path + "/coffee-cup.jpg"])
        #expect(inspect.status == 1)
        #expect(inspect.stderr.contains("600×400 is 240000 pixels, over the 1-pixel limit"), "\(inspect.stderr)")
        #expect(!inspect.stdout.contains("0 megapixels") && !inspect.stderr.contains("0-megapixel"))

        try Trust.write(input.path + "/waterfall.json", #"{"maxPixels": 100000}"#)
        let tenth = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(tenth.stderr.contains("coffee-cup.jpg: skipped: 600×400 is 0.2 megapixels, over the 0.1-megapixel limit"), "\(tenth.stderr)")
    }
}
