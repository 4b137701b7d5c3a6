import Foundation
import Testing
@testable import WaterfallKit

/// A rebuild keeps the pages whose inputs have not changed without rendering them (their digest is in the
/// output's records), and after any change gives exactly the site a build from scratch gives.
@Suite(.serialized)
struct IncrementalBuildTests {
    func report(_ arguments: [String]) throws -> [String: Any] {
        let run = try WaterfallProcess.run(arguments + ["--quiet", "--report", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// Every file of the site, relative path to bytes.
    func contents(_ site: String) throws -> [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: try Fixtures.siteFiles(in: site).map { ($0, try Fixtures.bytes(site + "/" + $0)) })
    }

    @Test func unchangedPhotoPagesAreKeptAndEveryChangeMatchesAFreshBuild() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder(), theme = try TemporaryFolder(), cache = try TemporaryFolder()
        for index in 1...5 { try input.copy(Fixtures.conformance("exif-orientation/Landscape_\(index).jpg"), as: "IMG_\(index).jpg") }
        for index in 6...8 { try input.copy(Fixtures.conformance("exif-orientation/Portrait_\(index).jpg"), as: "Trip/IMG_\(index).jpg") }
        let templates = FileManager.default.currentDirectoryPath + "/Templates"
        for name in try FileManager.default.contentsOfDirectory(atPath: templates) where name.hasSuffix(".mustache") {
            try theme.copy(templates + "/" + name, as: name)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: templates + "/assets") {
            try theme.copy(templates + "/assets/" + name, as: "assets/" + name)
        }
        let build = ["build", input.path, "--templates", theme.path, "--cache-dir", cache.path]

        let first = try report(build + ["-o", output.path])
        #expect(first["pages"] as? Int == 10 && first["pagesRendered"] as? Int == 10 && first["unchanged"] as? Bool == false)
        // Nothing changed: no page is rendered, and the site is found as it was, not planned again.
        let again = try report(build + ["-o", output.path])
        #expect(again["pagesRendered"] as? Int == 0 && again["unchanged"] as? Bool == true)
        #expect(again["pages"] as? Int == 10 && again["albums"] as? Int == 2 && again["photos"] as? Int == 8)

        let edits: [(String, () throws -> Void)] = [
            ("a caption", { try input.write("IMG_2.jpg.txt", Array("Harbour\nAt dawn".utf8)) }),
            ("a caption's description", { try input.write("IMG_2.jpg.txt", Array("Harbour\nAt dusk".utf8)) }),
            ("a neighbour's name", { try FileManager.default.moveItem(atPath: input.path + "/IMG_4.jpg", toPath: input.path + "/IMG_4b.jpg") }),
            ("a template", {
                let page = theme.path + "/photo.mustache"
                try Data((try String(contentsOfFile: page, encoding: .utf8)).replacingOccurrences(of: "</body>", with: "<!-- edited --></body>").utf8)
                    .write(to: URL(fileURLWithPath: page))
            }),
            // Every later tile moves up one place: their pages' links back to the tile change, and nothing else.
            ("the album's first photo removed", { try FileManager.default.removeItem(atPath: input.path + "/IMG_1.jpg") }),
            ("a photo's shape", { _ = try input.copy(Fixtures.conformance("exif-orientation/Portrait_2.jpg"), as: "IMG_3.jpg") }),
            ("the layout's columns", { try input.write("waterfall.json", Array(#"{"bands": [{"minWidth": 0, "columns": 3}]}"#.utf8)) }),
            ("the footer", { try input.write("waterfall.json", Array(#"{"footerText": "Mine"}"#.utf8)) }),
            ("pages per gallery page", { try input.write("waterfall.json", Array(#"{"footerText": "Mine", "perPage": 2}"#.utf8)) }),
            ("originals and a base URL", {
                try input.write("waterfall.json", Array(#"{"perPage": 2, "originals": "copy", "baseURL": "https://example.org/p/"}"#.utf8))
            }),
            ("a removed photo", { try FileManager.default.removeItem(atPath: input.path + "/Trip/IMG_7.jpg") }),
            ("a theme asset", {
                let css = theme.path + "/assets/waterfall.css"
                try Data((try String(contentsOfFile: css, encoding: .utf8) + "\n/* edited */\n").utf8).write(to: URL(fileURLWithPath: css))
            }),
        ]
        for (change, edit) in edits {
            try edit()
            let incremental = try report(build + ["-o", output.path])
            let fresh = try TemporaryFolder()
            _ = try report(build + ["-o", fresh.path])
            let (a, b) = (try contents(output.path), try contents(fresh.path))
            #expect(a.keys.sorted() == b.keys.sorted(), "after \(change)")
            for (path, bytes) in b where a[path] != bytes { Issue.record("after \(change): \(path) differs from a fresh build") }
            #expect(incremental["unchanged"] as? Bool == false, "after \(change)")
            if change != "a theme asset" { #expect((incremental["pagesRendered"] as? Int ?? 0) > 0, "after \(change)") }
        }
        // And once more with nothing changed: every page is kept.
        let last = try report(build + ["-o", output.path])
        #expect(last["pagesRendered"] as? Int == 0 && last["unchanged"] as? Bool == true)
    }

    /// A site found as the last build left it is not planned again; any change to it, or to what records
    /// it, is seen, and the build then gives the site a fresh build gives.
    @Test func anUntouchedSiteIsNotPlannedAgainAndAnyChangeToItIsSeen() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for index in 1...4 { try input.copy(Fixtures.conformance("exif-orientation/Landscape_\(index).jpg"), as: "IMG_\(index).jpg") }
        let build = ["build", input.path, "-o", output.path]
        _ = try report(build)
        #expect(try report(build)["unchanged"] as? Bool == true)
        let fresh = try TemporaryFolder()
        _ = try report(["build", input.path, "-o", fresh.path])
        let expected = try contents(fresh.path)
        let changes: [(String, () throws -> Void)] = [
            ("an image deleted", { try FileManager.default.removeItem(atPath: output.path + "/images/217/IMG_2.jpg") }),
            ("a page rewritten with its own bytes", {
                let page = output.path + "/photos/IMG_3.jpg.html"
                try Data(try Fixtures.bytes(page)).write(to: URL(fileURLWithPath: page))
            }),
            ("the memo damaged", { try Data("waterfall-plan-1\nnonsense\n".utf8).write(to: URL(fileURLWithPath: output.path + "/.waterfall/plan")) }),
            ("the manifest rewritten", {
                let manifest = output.path + "/.waterfall/manifest.json"
                let bytes = try Fixtures.bytes(manifest)
                try FileManager.default.removeItem(atPath: manifest)
                try Data(bytes).write(to: URL(fileURLWithPath: manifest))
            }),
        ]
        for (change, edit) in changes {
            try edit()
            let rebuilt = try report(build)
            #expect(rebuilt["unchanged"] as? Bool == false, "after \(change)")
            let site = try contents(output.path)
            #expect(site.keys.sorted() == expected.keys.sorted(), "after \(change)")
            for (path, bytes) in expected where site[path] != bytes { Issue.record("after \(change): \(path) differs from a fresh build") }
            #expect(try report(build)["unchanged"] as? Bool == true, "after \(change), built again")
        }
        // A page edited by hand is no longer Waterfall's: the build stops, as ever, rather than call it unchanged.
        let page = output.path + "/index.html"
        try Data((try String(contentsOfFile: page, encoding: .utf8)).replacingOccurrences(of: "</body>", with: "<!-- mine --></body>").utf8)
            .write(to: URL(fileURLWithPath: page))
        let edited = try WaterfallProcess.run(build + ["--quiet"])
        #expect(edited.status == 1 && edited.stderr.contains("was not written by Waterfall"), "\(edited.stderr)")
        try FileManager.default.removeItem(atPath: page)
        #expect(try report(build)["unchanged"] as? Bool == false)
        #expect(try contents(output.path) == expected)
        // A folder of the site replaced by a link: refused, as ever (the memo does not look through it).
        try FileManager.default.moveItem(atPath: output.path + "/photos", toPath: output.path + "/elsewhere")
        #expect(symlink(output.path + "/elsewhere", output.path + "/photos") == 0)
        let refused = try WaterfallProcess.run(build + ["--quiet"])
        #expect(refused.status == 1 && refused.stderr.contains("symbolic link"), "\(refused.stderr)")
    }

    /// Pages made by another build of Waterfall are rendered again, even under the same version number: the
    /// layout engine or the CSS it writes may have changed. (A copy of the binary with a byte appended is
    /// another executable that renders the same pages.)
    @Test func anotherBuildOfWaterfallRendersEveryPageAgain() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder(), tools = try TemporaryFolder()
        for index in 1...3 { try input.copy(Fixtures.conformance("exif-orientation/Landscape_\(index).jpg"), as: "IMG_\(index).jpg") }
        let other = try tools.write("waterfall", try Fixtures.bytes(WaterfallProcess.executable.path) + [0])
        #expect(chmod(other, 0o755) == 0)
        let templates = FileManager.default.currentDirectoryPath + "/Templates"
        let build = ["build", input.path, "-o", output.path, "--templates", templates]
        _ = try report(build)
        #expect(try report(build)["pagesRendered"] as? Int == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: other)
        process.arguments = build + ["--quiet", "--report", "json"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        #expect(process.terminationStatus == 0 && json["pagesRendered"] as? Int == 4, "\(json)")
    }

    /// A page edited by hand is not the page its record describes: it is rendered again (or left in place,
    /// changed, as any file Waterfall did not write), never silently kept as if it were Waterfall's.
    @Test func aPageEditedByHandIsNotKeptAsUnchanged() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for index in 1...3 { try input.copy(Fixtures.conformance("exif-orientation/Landscape_\(index).jpg"), as: "IMG_\(index).jpg") }
        _ = try report(["build", input.path, "-o", output.path])
        let page = output.path + "/photos/IMG_2.jpg.html"
        let original = try Fixtures.bytes(page)
        // The same bytes written again (a new time stamp, the same content): proven by its hash, rendered again.
        try Data(original).write(to: URL(fileURLWithPath: page))
        let rebuilt = try report(["build", input.path, "-o", output.path])
        #expect(rebuilt["pagesRendered"] as? Int == 1)
        #expect(try Fixtures.bytes(page) == original)
        let kept = try report(["build", input.path, "-o", output.path])
        #expect(kept["pagesRendered"] as? Int == 0)
    }
}

/// The manifest's lines, with and without a page's inputs digest, read back as they were written (the fast
/// path), and a line in another shape or with a damaged digest is still read or refused as a whole.
struct OutputRecordLineTests {
    @Test func recordsRoundTripWithAndWithoutInputs() {
        let digest = ContentDigest((0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210))
        var record = OwnedFile(path: "Trips/photos/a b.jpg.html", size: 1234, hash: digest,
                               identity: FileIdentity(device: 64769, inode: 1311), modified: 1_796_068_088_532_219_473)
        for inputs in [nil, ContentDigest((1, 2))] {
            record.inputs = inputs
            let line = OutputRecordLine.render(record)
            #expect(OutputRecordLine.parse(ArraySlice(line.utf8.dropLast())) == record)
        }
        let reordered = #"{"inputs": "00000000000000010000000000000002", "path": "a.html", "size": 1, "hash": "", "device": "1", "inode": "2", "modified": 3}"#
        #expect(OutputRecordLine.parse(ArraySlice(reordered.utf8))?.inputs == ContentDigest((1, 2)))
        let damaged = #"{"path": "a.html", "size": 1, "hash": "", "device": "1", "inode": "2", "modified": 3, "inputs": "zz"}"#
        #expect(OutputRecordLine.parse(ArraySlice(damaged.utf8))?.inputs == nil)
    }
}
