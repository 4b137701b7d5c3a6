import Foundation
import Testing
@testable import WaterfallKit

/// AVIF image sequences (`.avifs`, brand `avis`, Fixtures/formats/avif-sequences made by
/// Tests/Tools/make_sequence_fixtures.py) are read by libavif's track reader: published as animations, as
/// browsers play them (the tile a still of the first frame, the view an animated WebP of every frame), whether
/// or not the file also holds a still image; a damaged one is skipped with one line naming why.
struct SequenceTests {
    static let folder = Fixtures.root.appendingPathComponent("formats/avif-sequences").path

    @Test func inspectCountsTheFrames() throws {
        let run = try WaterfallProcess.run(["inspect", "--json", Self.folder + "/nostill.avifs", Self.folder + "/alpha-10bit.avifs"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(rows.map { $0["frames"] as? Int } == [3, 4])
        #expect(rows.map { $0["width"] as? Int } == [32, 24] && rows.map { $0["height"] as? Int } == [24, 16])
    }

    @Test func aSequenceIsPublishedAsAnAnimation() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let names = ["still.avifs", "nostill.avifs", "alpha-10bit.avifs"]
        for name in names { try input.copy(Self.folder + "/" + name, as: name) }
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--strict", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let expected = ["still.avifs": [100, 100, 100], "nostill.avifs": [100, 100, 100], "alpha-10bit.avifs": [250, 250, 250, 250]]
        for (name, durations) in expected {
            #expect(FileManager.default.fileExists(atPath: output.path + "/photos/\(name).html"), "\(name)")
            let view = try Fixtures.bytes(output.path + "/images/view/\(name).webp")
            #expect(webpAnimation(view).durations == durations, "\(name)")
            #expect(webpAnimation(view).loop == 0, "\(name)")
        }
        // Tiles are stills of the first frame.
        for file in try Fixtures.siteFiles(in: output.path) where file.hasSuffix(".webp") && !file.hasPrefix("images/view/") {
            #expect(webpChunks(try Fixtures.bytes(output.path + "/" + file)).allSatisfy { $0.tag != "ANMF" }, "\(file)")
        }
    }

    @Test func aDamagedSequenceIsOneLine() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for name in ["still.avifs", "truncated.avifs", "lying-frame-count.avifs", "bad-frame.avifs"] {
            try input.copy(Self.folder + "/" + name, as: name)
        }
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--report", "json", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(report["photos"] as? Int == 1)
        var skipped: [String: String] = [:]
        for entry in report["skipped"] as? [[String: String]] ?? [] {
            skipped[URL(fileURLWithPath: entry["path"] ?? "").lastPathComponent] = entry["reason"]
        }
        #expect(skipped["truncated.avifs"] == "truncated AVIF: the sequence ends early")
        #expect(skipped["lying-frame-count.avifs"] == "truncated AVIF: the sequence ends early")
        #expect(skipped["bad-frame.avifs"] == "frame 1 of the AVIF sequence: decoding of color planes failed")
        #expect(run.stderr.split(separator: "\n").filter { $0.contains("skipped") }.count == 3, "\(run.stderr)")
    }
}
