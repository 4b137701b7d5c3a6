import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 10, section 2: the site holds the gallery's files and nothing else. Links that leave the input
/// (the theme, for theme files) are skipped with one line each unless `--follow-symlinks`; the site never
/// holds a symbolic link; nothing from the cache is published unless its content is proven.
struct TrustPublishingTests {
    static let secretCaption = "SECRET-CAPTION-7f3a"
    static let secretTitle = "SECRET-ALBUM-TITLE-91c2"

    /// An input with a photo, and links out of it: a sidecar, a photo, an album folder and an album's settings.
    struct LinkedOut {
        let input: TemporaryFolder
        let outside: TemporaryFolder

        init() throws {
            input = try TemporaryFolder()
            outside = try TemporaryFolder()
            try Trust.write(outside.path + "/secret.txt", TrustPublishingTests.secretCaption + "\nfrom outside\n")
            try Trust.copy(Trust.photo("rocket-panorama.jpg"), to: outside.path + "/out.jpg")
            try Trust.copy(Trust.photo("clock-motion-blur.jpg"), to: outside.path + "/album/elsewhere.jpg")
            try Trust.write(outside.path + "/settings.json", #"{"title": "\#(TrustPublishingTests.secretTitle)"}"#)
            try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input.path + "/a.jpg")
            try Trust.copy(Trust.photo("hubble-tall.jpg"), to: input.path + "/Trip/b.jpg")
            try Trust.symlink(outside.path + "/secret.txt", at: input.path + "/a.txt")
            try Trust.symlink(outside.path + "/out.jpg", at: input.path + "/linked.jpg")
            try Trust.symlink(outside.path + "/album", at: input.path + "/Linked")
            try Trust.symlink(outside.path + "/settings.json", at: input.path + "/Trip/waterfall.json")
        }

        /// (link, target) of every link that leads out.
        var links: [(String, String)] {
            [("a.txt", "secret.txt"), ("linked.jpg", "out.jpg"), ("Linked", "album"), ("Trip/waterfall.json", "settings.json")]
                .map { (input.path + "/" + $0, outside.path + "/" + $1) }
        }
    }

    @Test func linksLeadingOutOfTheInputAreSkippedWithOneLineEach() throws {
        let gallery = try LinkedOut()
        let output = try TemporaryFolder()
        let outside = Trust.snapshot(gallery.outside.path)
        let run = try WaterfallProcess.run(["build", gallery.input.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        for (link, target) in gallery.links {
            #expect(Trust.lines(run, naming: link) == ["waterfall: \(link): skipped: symbolic link to \(target), outside the input "
                + "(--follow-symlinks allows it)"])
        }
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix("2 photos, 4 skipped,") == true, "\(run.stderr)")
        // Not a byte of theirs in the site.
        #expect(Trust.files(in: output.path, containing: Array(Self.secretCaption.utf8)).isEmpty)
        #expect(Trust.files(in: output.path, containing: Array(Self.secretTitle.utf8)).isEmpty)
        #expect(Trust.files(in: output.path, containing: Array("elsewhere".utf8)).isEmpty)
        #expect(Trust.files(in: output.path, containing: Array("linked".utf8)).isEmpty)
        for file in ["out.jpg", "album/elsewhere.jpg", "secret.txt"] {
            #expect(Trust.files(in: output.path, equalTo: try Fixtures.bytes(gallery.outside.path + "/" + file)).isEmpty)
        }
        #expect(try Fixtures.siteFiles(in: output.path) == [
            "Trip/images/217/b.jpg", "Trip/images/276/b.jpg", "Trip/images/414/b.jpg", "Trip/images/view/b.jpg", "Trip/index.html",
            "Trip/photos/b.jpg.html", "assets/waterfall.css", "images/217/a.jpg", "images/276/a.jpg", "images/414/a.jpg",
            "images/500/a.jpg", "images/540/a.jpg", "images/810/a.jpg", "images/view/a.jpg", "index.html", "photos/a.jpg.html",
        ].sorted())
        #expect(try Trust.read(output.path + "/Trip/index.html").contains("<title>Trip"))
        #expect(Trust.snapshot(gallery.outside.path) == outside)
        Trust.expectSoundSite(output.path)
    }

    @Test func followSymlinksPublishesWhatTheLinksLeadTo() throws {
        let gallery = try LinkedOut()
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", gallery.input.path, "-o", output.path, "--follow-symlinks"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("skipped:"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix("4 photos, 0 skipped,") == true, "\(run.stderr)")
        #expect(try Trust.read(output.path + "/photos/a.jpg.html").contains("<h1>\(Self.secretCaption)</h1>"))
        #expect(Trust.files(in: output.path, containing: Array(Self.secretCaption.utf8)).contains("photos/a.jpg.html"))
        #expect(try Trust.read(output.path + "/Trip/index.html").contains("<title>\(Self.secretTitle)"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/photos/linked.jpg.html"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/Linked/photos/elsewhere.jpg.html"))
        Trust.expectSoundSite(output.path)
    }

    @Test func linksThatStayInsideTheInputAreFollowed() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        // The targets are in an album of their own (published there too); the links lead to them.
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: input.path + "/Library/h.jpg")
        try Trust.copy(Trust.photo("coffee-spoon.jpg"), to: input.path + "/Library/album/s.jpg")
        try Trust.write(input.path + "/Library/caption.txt", "Inside caption\n")
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input.path + "/a.jpg")
        try Trust.symlink("Library/h.jpg", at: input.path + "/inside.jpg")
        try Trust.symlink("Library/caption.txt", at: input.path + "/inside.txt")
        try Trust.symlink("Library/album", at: input.path + "/InsideAlbum")
        try Trust.symlink(input.path + "/a.jpg", at: input.path + "/InsideAlbum-absolute.jpg")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Trust.read(output.path + "/photos/inside.jpg.html").contains("<h1>Inside caption</h1>"))
        // A folder reached twice is one album, at its own path; the link to it says so (TrustLinkedFolderTests).
        #expect(Trust.lines(run, naming: "skipped:") == ["waterfall: \(input.path)/InsideAlbum: skipped: symbolic link to Library/album, "
            + "a folder already included as \(input.path)/Library/album"])
        #expect(FileManager.default.fileExists(atPath: output.path + "/Library/album/photos/s.jpg.html"))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/InsideAlbum"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/photos/InsideAlbum-absolute.jpg.html"))
        Trust.expectSoundSite(output.path)
    }

    /// Hidden files and folders are never the gallery's, even inside the input (`.git/config` holds a CI
    /// checkout's token): a link into one is skipped like a link out of the input.
    @Test func linksIntoHiddenFoldersAreNotFollowed() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input.path + "/a.jpg")
        let token = "ghs_" + UUID().uuidString
        try Trust.write(input.path + "/.git/config", "[http] extraheader = AUTHORIZATION: basic \(token)\n")
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: input.path + "/.hidden/h.jpg")
        try Trust.symlink(".git/config", at: input.path + "/a.txt")
        try Trust.symlink(".hidden/h.jpg", at: input.path + "/h.jpg")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        for (link, target) in [("a.txt", ".git/config"), ("h.jpg", ".hidden/h.jpg")] {
            #expect(Trust.lines(run, naming: link) == ["waterfall: \(input.path)/\(link): skipped: symbolic link to \(target), "
                + "a hidden file or folder (--follow-symlinks allows it)"])
        }
        #expect(!FileManager.default.fileExists(atPath: output.path + "/photos/h.jpg.html"))
        for file in try Fixtures.siteFiles(in: output.path) {
            #expect(!String(decoding: try Fixtures.bytes(output.path + "/" + file), as: UTF8.self).contains(token), "\(file)")
        }
    }

    @Test(arguments: ["link", "copy"])
    func originalsAreNeverSymbolicLinks(policy: String) throws {
        let gallery = try LinkedOut()
        try Trust.copy(Trust.photo("coffee-spoon.jpg"), to: gallery.input.path + "/Library/s.jpg")
        try Trust.symlink("Library/s.jpg", at: gallery.input.path + "/inside.jpg")
        let outsideBytes = try Fixtures.bytes(gallery.outside.path + "/out.jpg")
        // By default the outside photo is not published, as an original or otherwise.
        let plain = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", gallery.input.path, "-o", plain.path, "--originals", policy, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Trust.files(in: plain.path, equalTo: outsideBytes).isEmpty)
        #expect(Trust.links(in: plain.path).isEmpty, "symbolic links in the output: \(Trust.links(in: plain.path))")
        // Allowed, it is published as a file of its own, never as a link.
        let followed = try TemporaryFolder()
        let all = try WaterfallProcess.run(["build", gallery.input.path, "-o", followed.path, "--originals", policy, "--quiet",
                                            "--follow-symlinks"])
        #expect(all.status == 0, "\(all.stderr)")
        Trust.expectSoundSite(followed.path)
        #expect(Trust.files(in: followed.path, equalTo: outsideBytes) == ["originals/linked.jpg"])
        for (site, source) in [(plain.path, "a.jpg"), (plain.path, "inside.jpg"), (followed.path, "linked.jpg"),
                               (followed.path, "Linked/elsewhere.jpg"), (followed.path, "inside.jpg")] {
            let folder = source.contains("/") ? "Linked/originals/" : "originals/"
            let original = site + "/" + folder + (source.split(separator: "/").last.map(String.init) ?? source)
            #expect(Trust.describe(Array(original.utf8))?.hasPrefix("file ") == true, "\(original): \(Trust.describe(Array(original.utf8)) ?? "missing")")
            #expect(try Fixtures.bytes(original) == Fixtures.bytes(gallery.input.path + "/" + source), "\(original)")
            if policy == "copy" {
                // A copy: editing the site never edits the photo.
                #expect(FileManager.default.fileExists(atPath: original))
                var site = stat(), photo = stat()
                #expect(stat(original, &site) == 0 && stat(gallery.input.path + "/" + source, &photo) == 0)
                #expect(site.st_ino != photo.st_ino, "\(original) is the photo itself, not a copy")
            }
        }
    }

    /// Storing an original as a hard link moves the photo's change time; the other names of the same file
    /// (links and hard links inside the input) must not look "changed while it was read" because of it. With
    /// thirteen names of one file read in parallel this failed in most builds.
    @Test(arguments: ["link", "copy"])
    func everyNameOfOneFileIsPublishedWithItsOriginal(policy: String) throws {
        let input = try Trust.input(["coffee-cup.jpg"])
        try Trust.copy(Trust.photo("coffee-spoon.jpg"), to: input.path + "/Library/s.jpg")
        for n in 1...6 {
            try Trust.symlink("Library/s.jpg", at: input.path + "/link-\(n).jpg")
            #expect(Glibc.link(input.path + "/Library/s.jpg", input.path + "/Library/hard-\(n).jpg") == 0)
        }
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--originals", policy, "--quiet"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let names = ["Library/s.jpg", "coffee-cup.jpg"] + (1...6).flatMap { ["link-\($0).jpg", "Library/hard-\($0).jpg"] }
        for name in names {
            let folder = name.hasPrefix("Library/") ? "Library/" : ""
            let file = String(name.split(separator: "/").last!)
            #expect(FileManager.default.fileExists(atPath: output.path + "/\(folder)photos/\(file).html"), "\(name)")
            #expect(try Fixtures.bytes(output.path + "/\(folder)originals/\(file)") == Fixtures.bytes(input.path + "/" + name), "\(name)")
        }
        Trust.expectSoundSite(output.path)
    }

    @Test func themeFilesThatLinkOutOfTheThemeAreNotPublished() throws {
        let work = try TemporaryFolder(), outside = try TemporaryFolder()
        let theme = work.path + "/theme"
        try FileManager.default.copyItem(atPath: Trust.templates, toPath: theme)
        try Trust.write(outside.path + "/hostname", "SECRET-HOST-5d1e\n")
        try Trust.write(outside.path + "/footer.mustache", "LEAKED-FOOTER-0b7c")
        try Trust.symlink(outside.path + "/hostname", at: theme + "/assets/hostname.txt")
        try Trust.symlink("waterfall.css", at: theme + "/assets/alias.css")
        #expect(unlink(theme + "/footer.mustache") == 0)
        try Trust.symlink(outside.path + "/footer.mustache", at: theme + "/footer.mustache")
        let input = try Trust.input(["coffee-cup.jpg"])
        let output = work.path + "/site"
        let run = try WaterfallProcess.run(["build", input.path, "-o", output, "--templates", theme])
        #expect(run.status == 0, "\(run.stderr)")
        for (link, target) in [("assets/hostname.txt", "hostname"), ("footer.mustache", "footer.mustache")] {
            #expect(Trust.lines(run, naming: link) == ["waterfall: warning: \(theme)/\(link): skipped: symbolic link to "
                + "\(outside.path)/\(target), outside the theme (--follow-symlinks allows it)"])
        }
        #expect(Trust.files(in: output, containing: Array("SECRET-HOST".utf8)).isEmpty)
        #expect(Trust.files(in: output, containing: Array("LEAKED-FOOTER".utf8)).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: output + "/assets/hostname.txt"))
        // A link inside the theme is followed, and published as a file.
        #expect(try Fixtures.bytes(output + "/assets/alias.css") == Fixtures.bytes(Trust.templates + "/assets/waterfall.css"))
        Trust.expectSoundSite(output)

        let allowed = work.path + "/allowed"
        let all = try WaterfallProcess.run(["build", input.path, "-o", allowed, "--templates", theme, "--follow-symlinks", "--quiet"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try Trust.read(allowed + "/assets/hostname.txt") == "SECRET-HOST-5d1e\n")
        #expect(try Trust.read(allowed + "/index.html").contains("LEAKED-FOOTER"))
        Trust.expectSoundSite(allowed)
    }

    /// Replaces every image in a cache's store: by a link to `secret`, or by other bytes of the same size.
    static func poison(_ cache: String, with kind: String, secret: String) throws {
        let store = cache + "/images"
        let names = try FileManager.default.contentsOfDirectory(atPath: store)
        #expect(names.count == 11)
        for name in names {
            let path = store + "/" + name
            let size = try Fixtures.bytes(path).count
            #expect(unlink(path) == 0)
            if kind == "link" {
                try Trust.symlink(secret, at: path)
            } else {
                let filler = try Fixtures.bytes(secret)
                try Trust.write(path, Array((0..<size).map { filler[$0 % filler.count] }))
            }
        }
    }

    @Test(arguments: ["link", "same size"])
    func aPoisonedCacheImageIsMadeAgainNotPublished(kind: String) throws {
        let input = try Trust.input(["coffee-cup.jpg", "hubble-tall.jpg"])
        let work = try TemporaryFolder()
        let cache = work.path + "/cache", secret = work.path + "/secret.jpg"
        try Trust.write(secret, "SECRET-IMAGE-3c9d not an image at all\n")
        let clean = work.path + "/clean"
        #expect(try WaterfallProcess.run(["build", input.path, "-o", clean, "--cache-dir", cache, "--quiet"]).status == 0)
        let expected = try CIBuildTests.snapshot(clean)

        // A CI cache restored from somewhere: a fresh output, and a rebuild of the one it served.
        for output in [work.path + "/fresh", clean] {
            try Self.poison(cache, with: kind, secret: secret)
            let run = try WaterfallProcess.run(["build", input.path, "-o", output, "--cache-dir", cache, "--quiet", "--report", "json"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains(#""images": {"made": 11, "kept": 0}"#), "\(run.stdout)")
            #expect(try CIBuildTests.snapshot(output) == expected, "\(output) differs from a clean build")
            #expect(Trust.files(in: output, containing: Array("SECRET-IMAGE".utf8)).isEmpty)
            Trust.expectSoundSite(output)
            #expect(Trust.links(in: cache).isEmpty, "the cache's store still holds links: \(Trust.links(in: cache))")
        }
        #expect(try Trust.read(secret) == "SECRET-IMAGE-3c9d not an image at all\n")
    }
}
