import Foundation
import Testing
@testable import WaterfallKit

/// sigal's `.nomedia` (issue 30): an empty one leaves its folder out, one with names leaves those out.
struct NoMediaTests {
    @Test func theMarkerReadsAsSigalReadsIt() {
        #expect(NoMedia.parse([]) == .wholeFolder)
        #expect(NoMedia.parse(Array("IMG_2426.JPG\nIMG_2427.JPG\r\n\nsubfolder".utf8)) == .names(["IMG_2426.JPG", "IMG_2427.JPG", "subfolder"]))
        // Not empty, so not the whole folder, though it names nothing.
        #expect(NoMedia.parse(Array("\n".utf8)) == .names([]))
    }

    @Test func aGalleryLeavesOutWhatItsMarkersSay() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let photo = Fixtures.header("J01-baseline-jfif.jpg")
        for name in ["a.jpg", "b.jpg", "c.jpg", "sub/d.jpg", "sub2/e.jpg", "quiet/f.jpg", "quiet/deeper/g.jpg", "linked/h.jpg"] {
            try input.copy(photo, as: name)
        }
        try input.write(".nomedia", Array("b.jpg\r\nsub\n\nnot-there.jpg\n".utf8))
        try input.write("quiet/.nomedia", [])
        // A marker that is a link is not followed; asked to leave something out, unread, it leaves its folder out.
        try FileManager.default.createSymbolicLink(atPath: input.path + "/linked/.nomedia", withDestinationPath: "/dev/null")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--report", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let published = try Fixtures.siteFiles(in: output.path).filter { $0.hasSuffix(".jpg.html") }.sorted()
        #expect(published == ["photos/a.jpg.html", "photos/c.jpg.html", "sub2/photos/e.jpg.html"], "\(published)")
        #expect(run.stderr.contains("\(input.path): its .nomedia leaves out b.jpg, sub\n"), "\(run.stderr)")
        #expect(run.stderr.contains("\(input.path)/quiet: has an empty .nomedia, so it is not scanned\n"), "\(run.stderr)")
        let skipped = report["skipped"] as? [[String: String]] ?? []
        #expect(skipped.map { $0["path"] ?? "" } == [input.path + "/linked"], "\(skipped)")
        #expect(run.stderr.contains("linked: skipped: its .nomedia cannot be read (is a symbolic link), so the folder is left out\n"),
                "\(run.stderr)")
    }
}
