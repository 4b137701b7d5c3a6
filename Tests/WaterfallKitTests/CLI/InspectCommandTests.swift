import Foundation
import Testing
@testable import WaterfallKit

/// `waterfall inspect`, run as users run it: the real binary, real files.
struct InspectCommandTests {
    func json(_ text: String) throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func jsonForGoodFilesInTheOrderGiven() throws {
        let files = ["J02-exif-II-orientation-6.jpg", "J46-png-named.jpg", "J01-baseline-jfif.jpg"].map(Fixtures.header)
        let run = try WaterfallProcess.run(["inspect", "--json"] + files)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let objects = try json(run.stdout)
        #expect(objects.map { $0["path"] as? String } == files)
        let first = objects[0]
        #expect(first["format"] as? String == "jpeg")
        #expect(first["pixelWidth"] as? Int == 64 && first["pixelHeight"] as? Int == 48)
        #expect(first["orientation"] as? Int == 6)
        #expect(first["width"] as? Int == 48 && first["height"] as? Int == 64)
        #expect(objects[1]["format"] as? String == "png")
        #expect(Set(first.keys) == ["path", "format", "pixelWidth", "pixelHeight", "orientation", "width", "height"])
    }

    @Test func unreadableFilesAreReportedAndTheRestStillRead() throws {
        let folder = try TemporaryFolder()
        try folder.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a.jpg")
        try folder.copy(Fixtures.header("J46-bmp-named.jpg"), as: "b.jpg")
        try folder.write("c.jpg", [])
        let missing = folder.url.appendingPathComponent("nope.jpg").path
        let run = try WaterfallProcess.run(["inspect", "--json", folder.path, missing])
        #expect(run.status == 1)
        let objects = try json(run.stdout)
        #expect(objects.count == 4)
        #expect(objects[0]["width"] as? Int == 64)
        #expect(objects[1]["error"] as? String == "not an image format Waterfall reads (starts with 42 4D 00 00)")
        #expect(objects[2]["error"] as? String == "empty file")
        #expect((objects[3]["error"] as? String)?.contains("No such file or directory") == true)
        #expect(Set(objects[1].keys) == ["path", "error"])
        // One line on stderr per unreadable file, naming it.
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == "waterfall: \(folder.path)/b.jpg: not an image format Waterfall reads (starts with 42 4D 00 00)")
    }

    @Test func foldersAreWalkedRecursivelyInNaturalOrderSkippingDotFiles() throws {
        let folder = try TemporaryFolder()
        let jpeg = try Fixtures.bytes(Fixtures.header("J01-baseline-jfif.jpg"))
        for name in ["IMG_10.jpg", "IMG_2.jpg", ".hidden.jpg", "sub/IMG_1.jpg", ".git/x.jpg", "a.jpg"] {
            try folder.write(name, jpeg)
        }
        // A symbolic link back up the tree must not loop.
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/sub/loop", withDestinationPath: folder.path)
        let run = try WaterfallProcess.run(["inspect", "--json", folder.path + "/"])
        #expect(run.status == 0, "\(run.stderr)")
        let paths = try json(run.stdout).compactMap { $0["path"] as? String }
        #expect(paths == ["a.jpg", "IMG_2.jpg", "IMG_10.jpg", "sub/IMG_1.jpg"].map { folder.path + "/" + $0 })
    }

    @Test func specialFilesGiveCleanErrors() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path + "/pipe.jpg"
        #expect(mkfifo(fifo, 0o644) == 0)
        let loop = folder.path + "/loop.jpg"
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let run = try WaterfallProcess.run(["inspect", "--json", fifo, loop])
        #expect(run.status == 1)
        let errors = try json(run.stdout).compactMap { $0["error"] as? String }
        #expect(errors == ["not a regular file (a FIFO)", "cannot open: Too many levels of symbolic links"])
    }

    @Test func tableOutput() throws {
        let run = try WaterfallProcess.run(["inspect", Fixtures.header("J23-exif-thumbnail-before-sof-no-jfif.jpg"),
                                            Fixtures.header("J46-webp-named.jpg")])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("FILE"))
        #expect(lines[1].contains("jpeg") && lines[1].contains("640×480") && lines[1].contains("480×640"))
        #expect(lines[2].hasSuffix("error: corrupt WebP: the VP8 chunk (0 bytes) is too short for its header"))
        #expect(lines[3] == "2 files, 1 unreadable")
    }

    @Test func anUnreadableFileWithTheLongestNameStillHasItsGap() throws {
        let folder = try TemporaryFolder()
        try folder.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a.jpg")
        try folder.write("a-much-longer-name-than-the-other.jpg", [])
        let run = try WaterfallProcess.run(["inspect", folder.path])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines[1].hasSuffix("a-much-longer-name-than-the-other.jpg  error: empty file"), "\(lines)")
        #expect(lines[2].hasPrefix(folder.path + "/a.jpg ") && lines[2].contains("  jpeg  "))
    }

    @Test func maxPixelsOption() throws {
        let file = Fixtures.header("J23-exif-thumbnail-before-sof-no-jfif.jpg")
        let refused = try WaterfallProcess.run(["inspect", "--json", "--max-pixels", "300000", file])
        #expect(refused.status == 1)
        // 307200 and 300000 both round to 0.3 megapixels: the message gives the exact counts.
        #expect(refused.stdout.contains("640×480 is 307200 pixels, over the 300000-pixel limit"))
        let allowed = try WaterfallProcess.run(["inspect", "--json", "--max-pixels=307200", file])
        #expect(allowed.status == 0)
        // The ends of the option's range: a limit of one pixel reads right, the largest Int is no limit.
        let one = try WaterfallProcess.run(["inspect", "--max-pixels", "1", file])
        #expect(one.status == 1 && one.stderr.contains("640×480 is 307200 pixels, over the 1-pixel limit"), "\(one.stderr)")
        let most = try WaterfallProcess.run(["inspect", "--max-pixels", "9223372036854775807", file])
        #expect(most.status == 0 && !most.signalled)
    }

    @Test(arguments: [
        (["inspect"], "inspect needs at least one file or folder"),
        (["inspect", "--max-pixels", "lots", "x"], "--max-pixels needs a whole number"),
        (["inspect", "--max-pixels", "0", "x"], "--max-pixels needs a whole number"),
        (["inspect", "--max-pixels"], "option --max-pixels needs a value"),
        (["inspect", "--jsn", "x"], "unknown option --jsn"),
        (["inspect", "--json=yes", "x"], "option does not take a value"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        ([], "Usage: waterfall COMMAND"),
    ])
    func usageErrorsExit64(arguments: [String], message: String) throws {
        let run = try WaterfallProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test(arguments: ["init", "build", "serve", "inspect", "layout", "resize"])
    func helpForEachCommandPrintsAndDoesNothingElse(command: String) throws {
        let folder = try TemporaryFolder()
        for arguments in [["help", command], [command, "--help"]] {
            let run = try WaterfallProcess.run(arguments, in: folder.path)
            #expect(run.status == 0)
            #expect(run.stdout.hasPrefix("Usage: waterfall \(command) "), "\(arguments)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)  // nothing was built
    }

    /// A Live Photo's content identifier, from the still's Apple MakerNote and the clip's QuickTime key.
    @Test func metadataShowsALivePhotosContentIdentifier() throws {
        let live = Fixtures.root.appendingPathComponent("live").path
        let id = "1F3C8B2A-0001-4C6E-9D1B-7A2E5F0C3D41"
        let run = try WaterfallProcess.run(["inspect", "--metadata", live + "/IMG_0001.HEIC", live + "/IMG_0001.MOV", live + "/IMG_0003.JPG"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("IMG_0001.HEIC:\n  content identifier \"\(id)\" from EXIF\n"), "\(run.stdout)")
        #expect(run.stdout.contains("  content identifier \"\(id)\" from video container\n"), "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "content identifier").count == 3, "IMG_0003.JPG has none: \(run.stdout)")
        let json = try json(try WaterfallProcess.run(["inspect", "--metadata", "--json", live + "/IMG_0001.HEIC", live + "/IMG_0001.MOV"]).stdout)
        let identifiers = json.map { ($0["metadata"] as? [String: Any])?["contentIdentifier"] as? [String: String] }
        #expect(identifiers == [["value": id, "source": "exif"], ["value": id, "source": "container"]])
    }

    @Test func helpAndVersion() throws {
        let help = try WaterfallProcess.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("inspect"))
        let inspectHelp = try WaterfallProcess.run(["inspect", "--help"])
        #expect(inspectHelp.status == 0 && inspectHelp.stdout.contains("--max-pixels N"))
        let version = try WaterfallProcess.run(["--version"])
        #expect(version.status == 0 && version.stdout == "waterfall \(WaterfallCLI.version)\n")
    }

    @Test("a dash-prefixed file name after -- is a path, not an option")
    func doubleDash() throws {
        let folder = try TemporaryFolder()
        try folder.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "-x.jpg")
        let run = try WaterfallProcess.run(["inspect", "--json", "--", "-x.jpg"], in: folder.path)
        #expect(run.status == 0)
        #expect(try json(run.stdout).first?["path"] as? String == "-x.jpg")
    }
}
