import Foundation
import Testing
@testable import WaterfallKit

/// What a hostile review of the first trust fixes found, each as the real binary on a real folder.
struct TrustReviewTests {
    /// A theme whose `assets` folder is itself a link out of the theme publishes nothing through it.
    @Test func aThemeAssetsFolderLinkedOutIsNotPublished() throws {
        let input = try Trust.input(["coffee-cup.jpg"]), scratch = try TemporaryFolder(), output = try TemporaryFolder()
        let theme = scratch.path + "/theme", outside = scratch.path + "/outside"
        try FileManager.default.copyItem(atPath: Fixtures.inRepository("Templates"), toPath: theme)
        try FileManager.default.removeItem(atPath: theme + "/assets")
        try Trust.write(outside + "/secret.css", "/* outside secret */\n")
        try Trust.symlink(outside, at: theme + "/assets")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--templates", theme, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Trust.lines(run, naming: "/assets") == ["waterfall: warning: \(theme)/assets: skipped: symbolic link to \(outside), "
            + "outside the theme (--follow-symlinks allows it)"])
        #expect(Trust.files(in: output.path, containing: Array("outside secret".utf8)).isEmpty)
    }

    /// A FIFO planted at the journal's name (an output restored from an archive) stops the build at once.
    @Test func aFIFOAtTheJournalDoesNotHang() throws {
        let input = try Trust.input(["coffee-cup.jpg"]), output = try TemporaryFolder()
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        try Trust.fifo(output.path + "/.waterfall/journal")
        let run = try Watchdog.run(["build", input.path, "-o", output.path, "--quiet"], timeout: 60)
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr == "waterfall: \(output.path)/.waterfall/journal: not a regular file (a FIFO or a device)\n")
    }

    /// Folders nested deeper than the limit are left out with a line; the rest builds, with no crash.
    @Test func aVeryDeepTreeIsCutWithAMessage() throws {
        let input = try Trust.input(["coffee-cup.jpg"]), output = try TemporaryFolder()
        var deep = input.path
        for _ in 0..<200 { deep += "/d" }
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: deep + "/h.jpg")
        try Trust.copy(Trust.photo("coffee-spoon.jpg"), to: input.path + String(repeating: "/d", count: 32) + "/s.jpg")
        let run = try Watchdog.run(["build", input.path, "-o", output.path, "--quiet"], timeout: 120)
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        #expect(run.stderr == "waterfall: \(input.path)\(String(repeating: "/d", count: 33)): skipped: nested more than 32 folders deep\n")
        #expect(FileManager.default.fileExists(atPath: output.path + String(repeating: "/d", count: 32) + "/photos/s.jpg.html"))
        Trust.expectSoundSite(output.path)
    }

    /// A photo over the size limit (a sparse file of terabytes would take hours to hash) is refused unread.
    @Test func aHugeSparsePhotoIsRefusedUnread() throws {
        let input = try Trust.input(["coffee-cup.jpg", "cameraman-skyline.png"]), output = try TemporaryFolder()
        #expect(truncate(input.path + "/cameraman-skyline.png", 5 << 30) == 0)
        let run = try Watchdog.run(["build", input.path, "-o", output.path, "--quiet"], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "waterfall: \(input.path)/cameraman-skyline.png: skipped: larger than the 4096 MiB limit for a photo\n")
    }

    /// A closed stdout is reported, not a SIGPIPE death.
    @Test func aClosedStdoutIsNotASignal() throws {
        let input = try Trust.input(["coffee-cup.jpg"]), output = try TemporaryFolder()
        let process = Process()
        process.executableURL = WaterfallProcess.executable
        process.arguments = ["build", input.path, "-o", output.path, "--quiet", "--report", "json"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try pipe.fileHandleForReading.close()  // nobody will ever read the report
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    /// A theme asset that was a file and becomes a folder of files: the old file, Waterfall's, gives way.
    @Test func aFileWaterfallWroteGivesWayToAFolder() throws {
        let input = try Trust.input(["coffee-cup.jpg"]), scratch = try TemporaryFolder(), output = try TemporaryFolder()
        let theme = scratch.path + "/theme"
        try FileManager.default.copyItem(atPath: Fixtures.inRepository("Templates"), toPath: theme)
        try Trust.write(theme + "/assets/fonts", "a file\n")
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--templates", theme, "--quiet"]).status == 0)
        try FileManager.default.removeItem(atPath: theme + "/assets/fonts")
        try Trust.write(theme + "/assets/fonts/a.woff2", "font\n")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--templates", theme, "--quiet"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(try Trust.read(output.path + "/assets/fonts/a.woff2") == "font\n")
    }

    /// Names a case-insensitive file system takes for one (`ς` and `σ`, not just `A` and `a`) get two names.
    @Test func namesThatFoldTogetherGetTwoNames() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input.path + "/ς.jpg")
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: input.path + "/σ.jpg")
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        let pages = try FileManager.default.contentsOfDirectory(atPath: output.path + "/photos")
        #expect(Set(pages.map { $0.uppercased().lowercased() }).count == 2, "\(pages)")
        Trust.expectSoundSite(output.path)
    }

    /// `..` after a folder that does not exist yet cannot smuggle the output into the input.
    @Test(arguments: [("in/nosuch/..", "is"), ("in/a/b/../..", "is")])
    func dotDotCannotMakeTheOutputTheInput(output: String, relation: String) throws {
        let work = try TemporaryFolder()
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: work.path + "/in/x.jpg")
        let before = Trust.snapshot(work.path)
        let run = try WaterfallProcess.run(["build", "in", "-o", output], in: work.path)
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr == "waterfall: the output folder \(output) \(relation) the input folder; choose another, such as _site\n")
        #expect(Trust.snapshot(work.path) == before)
    }

    /// The theme is read and published: the output and the cache may not overlap it.
    @Test(arguments: [["-o", "theme/assets/site"], ["-o", "site", "--cache-dir", "theme/cache"], ["-o", "."]])
    func theOutputAndCacheStayOutOfTheTheme(arguments: [String]) throws {
        let work = try TemporaryFolder()
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: work.path + "/in/x.jpg")
        try FileManager.default.copyItem(atPath: Fixtures.inRepository("Templates"), toPath: work.path + "/theme")
        let before = Trust.snapshot(work.path)
        let run = try WaterfallProcess.run(["build", "in", "--templates", "theme"] + arguments, in: work.path)
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr.hasSuffix("and the theme folder theme overlap; keep them apart\n")
            || run.stderr.contains("contains the input folder"), "\(run.stderr)")
        #expect(Trust.snapshot(work.path) == before)
    }

    /// Putting a file in place never replaces what appeared at its name after the plan was made.
    @Test func aNewFileNeverReplacesOneThatAppeared() throws {
        let root = try TemporaryFolder()
        let folder = try FolderHandle.open(root.path, create: false)
        try folder.writeNew("staged", Array("new".utf8))
        try folder.writeNew("taken", Array("mine".utf8))
        #expect(throws: FileSystemError.self) { try folder.renameNew("staged", to: folder, as: "taken") }
        #expect(try Trust.read(root.path + "/taken") == "mine")
        try folder.renameNew("staged", to: folder, as: "free")
        #expect(try Trust.read(root.path + "/free") == "new")
    }
}

/// Outputs and caches made by Waterfall 0.1, and originals edited in place.
struct TrustUpgradeTests {
    /// 0.1's line-based manifest proves nothing: its files are in the way, and the message says why.
    @Test func anOutputOfWaterfall01IsNotTrustedButExplained() throws {
        let input = try Trust.input(["coffee-cup.jpg"]), output = try TemporaryFolder()
        try Trust.write(output.path + "/index.html", "<p>made by 0.1</p>")
        try Trust.write(output.path + "/.waterfall/manifest", "index.html\nREADME.md\n")
        try Trust.write(output.path + "/README.md", "mine\n")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 1)
        #expect(run.stderr == "waterfall: \(output.path)/index.html: was written by Waterfall 0.1, whose records cannot prove it; "
            + "delete \(output.path) and build again\n")
        #expect(try Trust.read(output.path + "/index.html") == "<p>made by 0.1</p>")
        #expect(try Trust.read(output.path + "/README.md") == "mine\n")
    }

    /// A cache of Waterfall 0.1 (its `version` file says so) is claimed, not refused; its old entries are
    /// ignored, and only names the cache gives its files are cleaned up.
    @Test func aCacheOfWaterfall01IsClaimed() throws {
        let input = try Trust.input(["coffee-cup.jpg"]), work = try TemporaryFolder(), output = try TemporaryFolder()
        let cache = work.path + "/cache"
        try Trust.write(cache + "/version", "waterfall-cache-3\n")
        try Trust.write(cache + "/images/0123456789abcdef.jpg", "an old image\n")
        try Trust.write(cache + "/images/notes.txt", "not the cache's\n")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--cache-dir", cache, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Trust.read(cache + "/CACHEDIR.TAG").hasPrefix("Signature: 8a477f597d28d172789f06886806bc55"))
        #expect(try Trust.read(cache + "/version") == "waterfall-cache-4\n")
        #expect(!FileManager.default.fileExists(atPath: cache + "/images/0123456789abcdef.jpg"))
        #expect(try Trust.read(cache + "/images/notes.txt") == "not the cache's\n")
    }

    /// `--originals link` hard-links the photo; edited in place afterwards (the same file, new bytes), it
    /// is still Waterfall's to publish again, not a stranger in the way.
    @Test func anOriginalEditedInPlaceIsPublishedAgain() throws {
        let input = try Trust.input(["coffee-cup.jpg", "hubble-tall.jpg"]), output = try TemporaryFolder()
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--originals", "link", "--quiet"]).status == 0)
        let photo = input.path + "/coffee-cup.jpg"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: photo))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("trailing bytes after the JPEG".utf8))
        try handle.close()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--originals", "link", "--quiet"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(try Fixtures.bytes(output.path + "/originals/coffee-cup.jpg") == Fixtures.bytes(photo))
        #expect(Trust.links(in: output.path).isEmpty)
    }
}
