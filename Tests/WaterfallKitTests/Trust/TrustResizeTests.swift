import Foundation
import Testing

/// Issue 10, section 1: `waterfall resize` never writes over an input photo or a file it did not write.
struct TrustResizeTests {
    static func photos() throws -> TemporaryFolder {
        let input = try TemporaryFolder()
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input.path + "/x.jpg")
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: input.path + "/sub/x.jpg")
        try Trust.copy(Trust.photo("cameraman-skyline.png"), to: input.path + "/sub/skyline.png")
        return input
    }

    @Test(arguments: ["", "/sub", "/sub/deeper"])
    func resizeIntoTheFolderBeingResizedIsRefused(below: String) throws {
        let input = try Self.photos()
        let before = Trust.snapshot(input.path)
        let output = input.path + below
        let run = try WaterfallProcess.run(["resize", input.path, "-o", output, "--width", "100"])
        #expect(run.status == 64 && !run.signalled)
        let first = run.stderr.split(separator: "\n").first.map(String.init)
        #expect(first == "waterfall: the output folder \(output) is \(below.isEmpty ? "" : "inside ")the input folder \(input.path); "
            + "choose one outside it")
        #expect(Trust.snapshot(input.path) == before, "the photos' folder changed")
    }

    @Test func resizeNeverWritesOverThePhotoItResizes() throws {
        let input = try Self.photos()
        let before = Trust.snapshot(input.path)
        let run = try WaterfallProcess.run(["resize", input.path + "/x.jpg", "-o", input.path, "--width", "100"])
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr == "waterfall: \(input.path)/x.jpg: exists and was not written by Waterfall; move it away or choose "
            + "another output folder; nothing was written\n")
        // Its bookkeeping folder aside, the photos' folder is as it was.
        #expect(Trust.snapshot(input.path, skipping: { $0.starts(with: Array(".waterfall".utf8)) }) == before)
    }

    @Test(arguments: [("a/x.jpg", "b/x.jpg", "x.jpg"), ("a/Photo.jpg", "b/photo.jpg", "photo.jpg")])
    func twoPhotosThatWouldMakeOneFileAreRefusedNamingBoth(first: String, second: String, made: String) throws {
        let work = try TemporaryFolder()
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: work.path + "/" + first)
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: work.path + "/" + second)
        try Trust.copy(Trust.photo("coffee-spoon.jpg"), to: work.path + "/a/other.jpg")
        let output = work.path + "/out"
        let run = try WaterfallProcess.run(["resize", work.path + "/" + first, work.path + "/" + second, work.path + "/a/other.jpg",
                                            "-o", output, "--width", "100"])
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr == "waterfall: \(work.path)/\(second): and \(work.path)/\(first) would both be resized to \(output)/\(made); "
            + "nothing was written\n")
        #expect(Trust.site(output).isEmpty, "something was written: \(Trust.site(output).keys.map { String(decoding: $0, as: UTF8.self) })")
    }

    @Test func aFileResizeDidNotWriteIsNeverReplaced() throws {
        let input = try Self.photos()
        let output = try TemporaryFolder()
        try Trust.write(output.path + "/x.jpg", "my own x.jpg\n")
        let run = try WaterfallProcess.run(["resize", input.path, "-o", output.path, "--width", "100"])
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr == "waterfall: \(output.path)/x.jpg: exists and was not written by Waterfall; move it away or choose "
            + "another output folder; nothing was written\n")
        #expect(try Trust.read(output.path + "/x.jpg") == "my own x.jpg\n")
        #expect(Trust.site(output.path).keys.map { String(decoding: $0, as: UTF8.self) } == ["x.jpg"])
    }

    @Test func resizeKeepsSubFolderPathsAndReplacesOnlyWhatItWrote() throws {
        let input = try Self.photos()
        let output = try TemporaryFolder()
        try Trust.write(output.path + "/notes.txt", "mine\n")
        for width in [100, 120] {
            let run = try WaterfallProcess.run(["resize", input.path, "-o", output.path, "--width", "\(width)"])
            #expect(run.status == 0, "\(run.stderr)")
            let made = ["x.jpg", "sub/x.jpg", "sub/skyline.png.jpg"].map { output.path + "/" + $0 }
            let sizes = try Trust.pixelSizes(made)
            // Each output is its own photo, fitted to the width: 600×400, 290×870 and 212×140 sources.
            #expect(sizes[made[0]]?.width == width && sizes[made[0]]?.height == Int((Double(width) * 400 / 600).rounded()))
            #expect(sizes[made[1]]?.width == width && sizes[made[1]]?.height == width * 3)
            #expect(sizes[made[2]]?.width == width)
        }
        #expect(try Trust.read(output.path + "/notes.txt") == "mine\n")
        let files = Trust.site(output.path).filter { $0.value.hasPrefix("file") }.keys.map { String(decoding: $0, as: UTF8.self) }.sorted()
        #expect(files == ["notes.txt", "sub/skyline.png.jpg", "sub/x.jpg", "x.jpg"])
    }
}
