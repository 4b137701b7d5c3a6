import Foundation
import Testing
@testable import WaterfallKit

/// `waterfall init` writes a starter that changes nothing (every key at its default), a theme that builds,
/// and never replaces anything.
struct InitCommandTests {
    @Test func theStarterIsTheDefaultsWrittenOut() throws {
        let work = try TemporaryFolder()
        let input = work.path + "/My Trip"
        let run = try WaterfallProcess.run(["init", input])
        #expect(run.status == 0 && run.stdout.contains("wrote \(input)/waterfall.json"), "\(run.stderr)")
        let starter = try String(contentsOfFile: input + "/waterfall.json", encoding: .utf8)
        #expect(starter.contains(#""title": "My Trip""#) && starter.contains(#""perPage": 100"#))
        try work.copy(Fixtures.root.appendingPathComponent("exif/E01-all-facts-II.jpg").path, as: "My Trip/a.jpg")
        // The same site with the starter as without it.
        let with = work.path + "/with", without = work.path + "/without"
        #expect(try WaterfallProcess.run(["build", input, "-o", with, "--quiet"]).status == 0)
        try FileManager.default.moveItem(atPath: input + "/waterfall.json", toPath: work.path + "/kept.json")
        #expect(try WaterfallProcess.run(["build", input, "-o", without, "--quiet"]).status == 0)
        let files = try Fixtures.siteFiles(in: with)
        #expect(files == (try Fixtures.siteFiles(in: without)) && !files.isEmpty)
        for file in files { #expect(try Fixtures.bytes(with + "/" + file) == (try Fixtures.bytes(without + "/" + file)), "\(file)") }
        #expect(InitCommand.keys.allSatisfy { Setting.named($0) != nil })
    }

    @Test func theThemeIsCopiedAndBuildsAndIsNoAlbum() throws {
        let work = try TemporaryFolder()
        let run = try WaterfallProcess.run(["init", work.path, "--theme"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.path + "/theme/page.mustache"))
        #expect(FileManager.default.fileExists(atPath: work.path + "/theme/assets/waterfall.css"))
        try work.write("theme/assets/logo.png", try Fixtures.bytes(Fixtures.conformance("pngsuite/basn2c08.png")))
        try work.copy(Fixtures.root.appendingPathComponent("exif/E01-all-facts-II.jpg").path, as: "a.jpg")
        let build = try WaterfallProcess.run(["build", work.path, "-o", work.path + "/_site", "--templates", work.path + "/theme",
                                              "--report", "json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.contains(#""photos": 1, "albums": 1,"#), "\(build.stdout)")
    }

    @Test func nothingIsEverReplaced() throws {
        let work = try TemporaryFolder()
        try work.write("waterfall.json", Array(#"{"title": "Mine"}"#.utf8))
        let run = try WaterfallProcess.run(["init", work.path, "--theme"])
        #expect(run.status == 1 && run.stderr.contains("waterfall.json is there already; init never replaces anything"))
        #expect(try Fixtures.bytes(work.path + "/waterfall.json") == Array(#"{"title": "Mine"}"#.utf8))
        #expect(!FileManager.default.fileExists(atPath: work.path + "/theme"))

        let other = try TemporaryFolder()
        try other.write("theme/page.mustache", Array("mine".utf8))
        #expect(try WaterfallProcess.run(["init", other.path, "--theme"]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: other.path + "/waterfall.json"))
        #expect(try Fixtures.bytes(other.path + "/theme/page.mustache") == Array("mine".utf8))

        // A link where the file would go is not written through.
        let linked = try TemporaryFolder(), target = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: linked.path + "/waterfall.json", withDestinationPath: target.path + "/victim.json")
        #expect(try WaterfallProcess.run(["init", linked.path]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: target.path + "/victim.json"))
    }
}
