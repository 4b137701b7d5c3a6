import Foundation
import Testing
@testable import WaterfallKit

/// A video whose stream FFmpeg has no decoder for is skipped with one line naming it, never published nor left
/// out silently, and the rest of the gallery is built (issue 30: "never silent").
struct UndecodableVideoTests {
    @Test func aStreamFFmpegCannotDecodeIsSkippedWithOneLine() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let clip = try VideoFixtures.pattern(input.path + "/fine.mkv", size: "64x48", seconds: 1)
        // The same Matroska file with its codec ID made one no FFmpeg knows: ffprobe sees a video stream it
        // can neither name nor size, and ffmpeg has nothing to decode it with.
        var bytes = try Fixtures.bytes(clip)
        let id = Array("V_MPEG4/ISO/AVC".utf8)
        let at = try #require((0...(bytes.count - id.count)).first { Array(bytes[$0..<($0 + id.count)]) == id })
        bytes.replaceSubrange(at..<(at + id.count), with: Array("V_QQQQQ/ISO/AVC".utf8))
        try input.write("undecodable.mkv", bytes)
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        let skipped = lines.filter { $0.contains(": skipped: ") }
        #expect(skipped == ["waterfall: \(input.path)/undecodable.mkv: skipped: a video stream ffprobe cannot name or size"],
                "\(run.stderr)")
        #expect(lines.last?.hasPrefix("1 photo, 1 skipped") == true, "\(run.stderr)")
        let files = try Fixtures.siteFiles(in: output.path)
        #expect(files.contains { $0.hasPrefix("images/video/fine.mkv") } && !files.contains { $0.contains("undecodable") }, "\(files)")
    }
}
