import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 10, section 1: no command ever deletes or overwrites a file Waterfall cannot prove it wrote.
struct TrustDataLossTests {
    // MARK: - The cache folder

    /// A folder that looks like an old cache (temporaries, cache-named images and entries) but carries no
    /// marker, plus a file of the user's.
    static func foreignCacheLookalike(_ root: String) throws {
        try Trust.write(root + "/notes.txt", "my notes\n")
        try Trust.write(root + "/tmp/123-a", "a file in tmp\n")
        try Trust.write(root + "/tmp/wf-1-x", "another\n")
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: root + "/images/0123456789abcdef.jpg")
        try Trust.write(root + "/photos/0123456789abcdef.json", "{}")
        try Trust.write(root + "/version", "not a cache\n")
    }

    @Test func cacheDirOnAFolderWithoutWaterfallsMarkerIsRefusedAndUntouched() throws {
        let input = try Trust.input(["coffee-cup.jpg", "hubble-tall.jpg"])
        let work = try TemporaryFolder()
        let cache = work.path + "/cache", output = work.path + "/out"
        try Self.foreignCacheLookalike(cache)
        let before = Trust.snapshot(cache)
        #expect(before.count == 9)
        let run = try WaterfallProcess.run(["build", input.path, "-o", output, "--cache-dir", cache])
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr == "waterfall: \(cache): is not empty and is not a Waterfall cache (it has no CACHEDIR.TAG written by "
            + "Waterfall); give --cache-dir a new or empty folder\n")
        #expect(Trust.snapshot(cache) == before)
        #expect(Trust.describe(Array(output.utf8)) == nil, "the output was made")
    }

    @Test(arguments: [
        ("other", "is another program's cache (its CACHEDIR.TAG is not Waterfall's); give --cache-dir another folder"),
        ("link", "is not a cache tag Waterfall wrote; give --cache-dir another folder"),
    ])
    func aCacheTagThatIsNotWaterfallsIsRefused(kind: String, reason: String) throws {
        let input = try Trust.input(["coffee-cup.jpg"])
        let work = try TemporaryFolder()
        let cache = work.path + "/cache"
        try Self.foreignCacheLookalike(cache)
        if kind == "other" {
            try Trust.write(cache + "/CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n# made by some backup tool\n")
        } else {
            try Trust.write(work.path + "/tag", "Signature: 8a477f597d28d172789f06886806bc55\n# Waterfall\n")
            try Trust.symlink(work.path + "/tag", at: cache + "/CACHEDIR.TAG")
        }
        let before = Trust.snapshot(cache)
        let run = try WaterfallProcess.run(["build", input.path, "-o", work.path + "/out", "--cache-dir", cache])
        #expect(run.status == 1)
        let named = kind == "other" ? cache : cache + "/CACHEDIR.TAG"
        #expect(run.stderr == "waterfall: \(named): \(reason)\n")
        #expect(Trust.snapshot(cache) == before)
    }

    @Test func anEmptyCacheFolderIsClaimedWithAMarkerAndReused() throws {
        let input = try Trust.input(["coffee-cup.jpg", "hubble-tall.jpg"])
        let work = try TemporaryFolder()
        let cache = work.path + "/cache"
        try Trust.makeFolders(cache)
        let first = try WaterfallProcess.run(["build", input.path, "-o", work.path + "/one", "--cache-dir", cache, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let tag = try Trust.read(cache + "/CACHEDIR.TAG")
        #expect(tag.hasPrefix("Signature: 8a477f597d28d172789f06886806bc55\n") && tag.contains("Waterfall"))
        let second = try WaterfallProcess.run(["build", input.path, "-o", work.path + "/two", "--cache-dir", cache, "--quiet",
                                               "--report", "json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains(#""images": {"made": 0, "kept": 11}"#), "\(second.stdout)")
    }

    /// A build killed while claiming an empty cache folder leaves its lock and a half-written marker under
    /// the marker's temporary name: the next build finishes the claim. A file of that name holding anything
    /// else is not Waterfall's, and the folder is refused as before.
    @Test func aClaimCutShortIsFinishedAndOnlyThat() throws {
        let input = try Trust.input(["coffee-cup.jpg"])
        let work = try TemporaryFolder()
        let cache = work.path + "/cache"
        try Trust.makeFolders(cache)
        try Trust.write(cache + "/lock", "")
        try Trust.write(cache + "/wf-4242-marker", "Signature: 8a477f597d28d172789f06886806bc55\n# This")
        let run = try WaterfallProcess.run(["build", input.path, "-o", work.path + "/one", "--cache-dir", cache, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let tag = try Trust.read(cache + "/CACHEDIR.TAG")
        #expect(tag.hasPrefix("Signature: 8a477f597d28d172789f06886806bc55\n# This") && tag.contains("Waterfall"))
        #expect(!FileManager.default.fileExists(atPath: cache + "/wf-4242-marker"))

        let other = work.path + "/other"
        try Trust.makeFolders(other)
        try Trust.write(other + "/wf-4242-marker", "my notes")
        let refused = try WaterfallProcess.run(["build", input.path, "-o", work.path + "/two", "--cache-dir", other, "--quiet"])
        #expect(refused.status != 0 && refused.stderr.contains("is not empty and is not a Waterfall cache"), "\(refused.stderr)")
        #expect(try Trust.read(other + "/wf-4242-marker") == "my notes")
    }

    /// Run in a work folder holding `in/` (photos, an album `Trip`), `alias` (a link to `in`) and `site/`.
    @Test(arguments: [
        (["--cache-dir", "in", "-o", "out"], "the cache folder in is the input folder; choose another"),
        (["--cache-dir", "alias", "-o", "out"], "the cache folder alias is the input folder; choose another"),
        (["--cache-dir", "in/Trip", "-o", "out"],
         "the cache folder in/Trip is inside the input folder, where it would be taken for an album; put it outside, or in a hidden "
            + "folder such as in/.cache/waterfall"),
        (["--cache-dir", "in/New", "-o", "out"],
         "the cache folder in/New is inside the input folder, where it would be taken for an album; put it outside, or in a hidden "
            + "folder such as in/.cache/waterfall"),
        (["--cache-dir", ".", "-o", "out"], "the cache folder . contains the input folder; choose another"),
        (["--cache-dir", "out", "-o", "out"], "the cache folder out is the output folder; choose another"),
        (["--cache-dir", "site", "-o", "site/out"], "the cache folder site contains the output folder; choose another"),
        (["--cache-dir", "out/cache", "-o", "out"],
         "the cache folder out/cache is inside the output folder, where it would be published; put it outside, or leave "
            + "--cache-dir out to use out/.waterfall/cache"),
    ])
    func theCacheNeverOverlapsTheInputOrTheSite(arguments: [String], message: String) throws {
        let work = try TemporaryFolder()
        for name in ["in/a.jpg", "in/Trip/b.jpg"] { try Trust.copy(Trust.photo("coffee-cup.jpg"), to: work.path + "/" + name) }
        try Trust.write(work.path + "/site/README.md", "mine\n")
        try Trust.symlink("in", at: work.path + "/alias")
        let before = Trust.snapshot(work.path)
        let run = try WaterfallProcess.run(["build", "in"] + arguments, in: work.path)
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr == "waterfall: \(message)\n")
        #expect(Trust.snapshot(work.path) == before, "a refused build changed the work folder")
    }

    @Test func aCacheInAHiddenFolderOfTheInputOrInTheOutputsStateFolderIsAllowed() throws {
        let work = try TemporaryFolder()
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: work.path + "/in/a.jpg")
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: work.path + "/in/Trip/b.jpg")
        for (cache, output) in [("in/.cache/waterfall", "one"), ("two/.waterfall/mine", "two")] {
            let run = try WaterfallProcess.run(["build", "in", "-o", output, "--cache-dir", cache], in: work.path)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").last?.hasPrefix("2 photos, 0 skipped, 11 of 11 images made") == true, "\(run.stderr)")
            #expect(Trust.describe(Array((work.path + "/" + cache + "/CACHEDIR.TAG").utf8))?.hasPrefix("file ") == true)
            #expect(try Fixtures.siteFiles(in: work.path + "/" + output) == [
                "Trip/images/217/b.jpg", "Trip/images/276/b.jpg", "Trip/images/414/b.jpg", "Trip/images/view/b.jpg", "Trip/index.html",
                "Trip/photos/b.jpg.html", "assets/waterfall.css", "images/217/a.jpg", "images/276/a.jpg", "images/414/a.jpg",
                "images/500/a.jpg", "images/540/a.jpg", "images/810/a.jpg", "images/view/a.jpg", "index.html", "photos/a.jpg.html",
            ].sorted())
        }
    }

    // MARK: - The manifest

    @Test func aNewlineInANameNeverLeadsToDeletingAUsersFile() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        // As lines, these names once listed "README.md" and "logo.png" as files Waterfall wrote.
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input.path + "/q\nREADME.md\n.jpg")
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: input.path + "/a\nlogo.png\n.jpg")
        try Trust.copy(Trust.photo("coffee-spoon.jpg"), to: input.path + "/x\nimages/c.jpg")
        let first = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let manifest = try Trust.manifestPaths(output.path)
        #expect(manifest.contains("images/view/q\nREADME.md\n.jpg") && manifest.contains("x\nimages/index.html"))
        #expect(!manifest.contains("README.md") && !manifest.contains("logo.png"))
        #expect(Set(manifest) == Set(try Fixtures.siteFiles(in: output.path)))

        try Trust.write(output.path + "/README.md", "# my site\n")
        try Trust.copy(Trust.photo("hubble-galaxy-10.png"), to: output.path + "/logo.png")
        for (old, new) in [("q\nREADME.md\n.jpg", "q.jpg"), ("a\nlogo.png\n.jpg", "a.jpg"), ("x\nimages", "ximages")] {
            #expect(rename(input.path + "/" + old, input.path + "/" + new) == 0)
        }
        let second = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try Trust.read(output.path + "/README.md") == "# my site\n")
        #expect(try Fixtures.bytes(output.path + "/logo.png") == Fixtures.bytes(Trust.photo("hubble-galaxy-10.png")))
        let files = try Fixtures.siteFiles(in: output.path)
        #expect(!files.contains { $0.contains("\n") }, "the renamed photos' old files are still there: \(files)")
        #expect(Set(try Trust.manifestPaths(output.path)) == Set(files).subtracting(["README.md", "logo.png"]))
        Trust.expectSoundSite(output.path)
    }

    @Test func aFileWaterfallWroteButSomeoneChangedIsLeftInPlace() throws {
        let input = try Trust.input(["coffee-cup.jpg", "hubble-tall.jpg"])
        let output = try TemporaryFolder(), outside = try TemporaryFolder()
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        try Trust.write(outside.path + "/precious.txt", "precious\n")
        // The user edits one page of the photo about to go, and puts a link where one of its images was.
        try Trust.write(output.path + "/photos/hubble-tall.jpg.html", "<p>edited by hand</p>")
        #expect(unlink(output.path + "/images/view/hubble-tall.jpg") == 0)
        try Trust.symlink(outside.path + "/precious.txt", at: output.path + "/images/view/hubble-tall.jpg")
        #expect(unlink(input.path + "/hubble-tall.jpg") == 0)
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        for path in ["images/view/hubble-tall.jpg", "photos/hubble-tall.jpg.html"] {
            #expect(Trust.lines(run, naming: path) == ["waterfall: warning: \(output.path)/\(path): left in place: Waterfall wrote it, "
                + "but it has changed since, so it is not removed"])
        }
        #expect(try Trust.read(output.path + "/photos/hubble-tall.jpg.html") == "<p>edited by hand</p>")
        #expect(Trust.links(in: output.path) == ["images/view/hubble-tall.jpg"])
        #expect(Trust.describe(Array((output.path + "/images/view/hubble-tall.jpg").utf8)) == "link \(outside.path)/precious.txt")
        #expect(try Trust.read(outside.path + "/precious.txt") == "precious\n")
        #expect(Trust.describe(Array((output.path + "/images/217/hubble-tall.jpg").utf8)) == nil, "an unchanged stale file was kept")
    }

    // MARK: - Links planted in the output

    /// A folder of someone's files, named as a build would name its temporaries, images and pages.
    static func victim(_ root: String) throws {
        for name in ["wf-1-1", "123-4", "wf-999-manifest", "0123456789abcdef.jpg", "index.html", "a.jpg", "500/a.jpg", "view/a.jpg",
                     "lock", "manifest.json", "tmp/wf-1-2", "cache/CACHEDIR.TAG", "waterfall.css"] {
            try Trust.write(root + "/" + name, "someone's \(name)\n")
        }
    }

    @Test(arguments: [
        (".waterfall/tmp", "is a symbolic link, not a folder"),
        (".waterfall", "is a symbolic link, not a folder"),
        (".waterfall/cache", "is a symbolic link, not a folder"),
        ("images", "is a symbolic link where the site needs a folder (Waterfall never writes through links); move it away"),
        ("assets", "is a symbolic link where the site needs a folder (Waterfall never writes through links); move it away"),
    ])
    func aLinkPlantedInTheOutputFailsTheBuildAndTheFolderItPointsToIsUntouched(planted: String, reason: String) throws {
        let input = try Trust.input(["coffee-cup.jpg"])
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: input.path + "/a.jpg")
        let output = try TemporaryFolder(), elsewhere = try TemporaryFolder()
        // An output restored from an archive: built once, then a folder of it replaced by a link.
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        try FileManager.default.removeItem(atPath: output.path + "/" + planted)
        try Self.victim(elsewhere.path)
        try Trust.symlink(elsewhere.path, at: output.path + "/" + planted)
        let victim = Trust.snapshot(elsewhere.path)
        #expect(victim.count == 17)
        try Trust.copy(Trust.photo("coffee-spoon.jpg"), to: input.path + "/new.jpg")
        let site = Trust.site(output.path)
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 1 && !run.signalled)
        let message = run.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(message.hasPrefix("waterfall: \(output.path)/\(planted): \(reason)"), "\(run.stderr)")
        #expect(Trust.snapshot(elsewhere.path) == victim, "the folder the link points to was changed")
        #expect(Trust.site(output.path) == site, "the site changed although the build failed")
        #expect(Trust.describe(Array((output.path + "/" + planted).utf8)) == "link \(elsewhere.path)")
    }

    // MARK: - Two builds at once

    /// Holds an exclusive flock on `path` (as a running build does) until released.
    final class HeldLock {
        let descriptor: Int32
        init(_ path: String) throws {
            descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                throw Trust.POSIXFailure("flock", Array(path.utf8))
            }
        }
        func release() { close(descriptor) }
    }

    @Test func aBuildIntoAnOutputAnotherBuildIsWritingStops() throws {
        let input = try Trust.input(["coffee-cup.jpg"])
        let output = try TemporaryFolder()
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: input.path + "/new.jpg")
        let before = Trust.snapshot(output.path)
        let lock = try HeldLock(output.path + "/.waterfall/lock")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr == "waterfall: another build is writing \(output.path); try again when it has finished\n")
        #expect(Trust.snapshot(output.path) == before, "a build that could not lock the output changed it")
        lock.release()
        let after = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(FileManager.default.fileExists(atPath: output.path + "/photos/new.jpg.html"))
    }

    @Test func aBuildUsingACacheAnotherBuildIsUsingStops() throws {
        let input = try Trust.input(["coffee-cup.jpg"])
        let work = try TemporaryFolder()
        let cache = work.path + "/cache"
        #expect(try WaterfallProcess.run(["build", input.path, "-o", work.path + "/one", "--cache-dir", cache, "--quiet"]).status == 0)
        let before = Trust.snapshot(cache)
        let lock = try HeldLock(cache + "/lock")
        defer { lock.release() }
        let run = try WaterfallProcess.run(["build", input.path, "-o", work.path + "/two", "--cache-dir", cache])
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr == "waterfall: another build is using the cache \(cache); try again when it has finished\n")
        #expect(Trust.snapshot(cache) == before)
        #expect(!FileManager.default.fileExists(atPath: work.path + "/two/index.html"))
    }

    /// Two real builds started together into one output (`--watch` and a manual build): each finishes or
    /// stops with the lock message, and the site is whole.
    @Test func twoBuildsStartedTogetherLeaveAWholeSite() throws {
        let photos = Array(BuildCommandTests.readablePhotos.prefix(6))
        let input = try Trust.input(photos)
        let clean = try TemporaryFolder()
        #expect(try WaterfallProcess.run(["build", input.path, "-o", clean.path, "--quiet"]).status == 0)
        let expected = try CIBuildTests.snapshot(clean.path)
        for round in 0..<3 {
            let output = try TemporaryFolder()
            let runs = [0, 1].map { _ -> (Process, Pipe) in
                let process = Process(), err = Pipe()
                process.executableURL = WaterfallProcess.executable
                process.arguments = ["build", input.path, "-o", output.path, "--quiet", "--jobs", "1"]
                process.standardError = err
                process.standardOutput = FileHandle.nullDevice
                return (process, err)
            }
            for (process, _) in runs { try process.run() }
            var succeeded = 0
            for (process, err) in runs {
                let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationReason == .exit)
                if process.terminationStatus == 0 {
                    succeeded += 1
                    #expect(stderr.isEmpty, "round \(round): \(stderr)")
                } else {
                    #expect(process.terminationStatus == 1)
                    #expect(stderr == "waterfall: another build is writing \(output.path); try again when it has finished\n",
                            "round \(round)")
                }
            }
            #expect(succeeded >= 1, "round \(round): neither build finished")
            #expect(try CIBuildTests.snapshot(output.path) == expected, "round \(round): the site is not whole")
            Trust.expectSoundSite(output.path)
        }
    }
}
