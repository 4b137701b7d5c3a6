import Foundation
import Testing
@testable import WaterfallKit

/// AVIF image sequences (`.avifs`, brand `avis`): one that holds a still image is published as that image;
/// one that holds none is skipped with one line that says so, never passed over in silence.
struct SequenceTests {
    @Test func aSequenceIsItsStillImageOrOneLine() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for name in ["still.avifs", "nostill.avifs"] {
            try input.copy(Fixtures.root.appendingPathComponent("sequences/\(name)").path, as: name)
        }
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--report", "json", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(report["photos"] as? Int == 1)
        let skipped = report["skipped"] as? [[String: String]] ?? []
        #expect(skipped.count == 1 && skipped.first?["path"]?.hasSuffix("nostill.avifs") == true)
        #expect(skipped.first?["reason"] == "unsupported AVIF: an image sequence with no still image (only a sequence's still image is shown)")
        #expect(FileManager.default.fileExists(atPath: output.path + "/photos/still.avifs.html"))
    }
}
