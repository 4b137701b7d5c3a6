import Foundation
import Testing

/// Issue 26: several symbolic links to one folder inside the input made one album named after whichever
/// sorted first, with no message. The folder is published at its own path, whatever the links are called
/// (adding a link never renames an album); each link says so in one line.
struct TrustLinkedFolderTests {
    @Test func linksToAFolderOfTheInputSayWhereItIsPublished() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input.path + "/Library/a/1.jpg")
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: input.path + "/Library/z/deep/2.jpg")
        try Trust.symlink("a", at: input.path + "/Library/b")
        try Trust.symlink("a", at: input.path + "/Library/0")  // sorts before the folder itself
        try Trust.symlink(input.path + "/Library/z/deep", at: input.path + "/Library/c")
        try Trust.symlink("../..", at: input.path + "/Library/a/up")  // the top folder
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let library = input.path + "/Library"
        #expect(run.stderr.split(separator: "\n").map(String.init) == [
            "waterfall: \(library)/0: skipped: symbolic link to a, a folder already included as \(library)/a",
            "waterfall: \(library)/a/up: skipped: symbolic link to ../.., the top folder itself",
            "waterfall: \(library)/b: skipped: symbolic link to a, a folder already included as \(library)/a",
            "waterfall: \(library)/c: skipped: symbolic link to \(library)/z/deep, a folder already included as \(library)/z/deep",
        ])
        #expect(FileManager.default.fileExists(atPath: output.path + "/Library/a/photos/1.jpg.html"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/Library/z/deep/photos/2.jpg.html"))
        for link in ["0", "b", "c"] { #expect(!FileManager.default.fileExists(atPath: output.path + "/Library/" + link)) }
        Trust.expectSoundSite(output.path)
    }

    /// With `--follow-symlinks`, two links to one folder outside the input: the first in natural order is the
    /// album, every time; the other says which.
    @Test func twoLinksToOneFolderOutsideTheInputMakeOneAlbum() throws {
        let input = try TemporaryFolder(), outside = try TemporaryFolder()
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input.path + "/a.jpg")
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: outside.path + "/h.jpg")
        try Trust.symlink(outside.path, at: input.path + "/Trip 10")
        try Trust.symlink(outside.path, at: input.path + "/Trip 9")
        var sites: [[[UInt8]: String]] = []
        for _ in 0..<2 {
            let output = try TemporaryFolder()
            let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet", "--follow-symlinks"])
            #expect(run.status == 0)
            #expect(run.stderr == "waterfall: \(input.path)/Trip 10: skipped: symbolic link to \(outside.path), a folder already "
                + "included as \(input.path)/Trip 9\n")
            #expect(FileManager.default.fileExists(atPath: output.path + "/Trip 9/photos/h.jpg.html"))
            sites.append(Trust.site(output.path))
        }
        #expect(sites[0] == sites[1])
    }
}
