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
        #expect(first["pages"] as? Int == 10 && first["pagesRendered"] as? Int == 10)
        // Nothing changed: no page is rendered.
        let again = try report(build + ["-o", output.path])
        #expect(again["pagesRendered"] as? Int == 0)

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
        ]
        for (change, edit) in edits {
            try edit()
            let incremental = try report(build + ["-o", output.path])
            let fresh = try TemporaryFolder()
            _ = try report(build + ["-o", fresh.path])
            let (a, b) = (try contents(output.path), try contents(fresh.path))
            #expect(a.keys.sorted() == b.keys.sorted(), "after \(change)")
            for (path, bytes) in b where a[path] != bytes { Issue.record("after \(change): \(path) differs from a fresh build") }
            #expect((incremental["pagesRendered"] as? Int ?? 0) > 0, "after \(change)")
        }
        // And once more with nothing changed: every page is kept.
        let last = try report(build + ["-o", output.path])
        #expect(last["pagesRendered"] as? Int == 0)
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
