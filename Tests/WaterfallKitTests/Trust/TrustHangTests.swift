import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 10, section 3 (the items about files): a FIFO anywhere is skipped at once, never read; two
/// spellings of one name sorted by date do not crash. Every run has a watchdog: a hang fails the test.
struct TrustHangTests {
    static let fifoReason = "not a regular file (a FIFO)"

    /// Real photos `a.jpg` and `Album/b.jpg`, and FIFOs where a photo, a caption or settings would be.
    static func gallery() throws -> (input: TemporaryFolder, fifos: [String]) {
        let input = try Trust.input(["coffee-cup.jpg", "Album/hubble-tall.jpg"])
        let fifos = ["x.jpg", "a.txt", "coffee-cup.txt", "waterfall.json", "Album/waterfall.json", "Album/hubble-tall.jpg.txt",
                     "Album/y.png"]
        for fifo in fifos { try Trust.fifo(input.path + "/" + fifo) }
        return (input, fifos)
    }

    /// The watchdog itself: a run that never ends (`--watch`) is killed and reported as such.
    @Test func theWatchdogStopsARunThatNeverEnds() throws {
        let input = try Trust.input(["coffee-cup.jpg"])
        let output = try TemporaryFolder()
        let (run, killed) = try Watchdog.runKilling(["build", input.path, "-o", output.path, "--watch", "--quiet"], timeout: 3)
        #expect(killed && run.signalled && run.status == SIGKILL)
    }

    @Test func fifosAreSkippedPromptlyByBuild() throws {
        let (input, fifos) = try Self.gallery()
        let output = try TemporaryFolder()
        let run = try Watchdog.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        for fifo in fifos where fifo != "waterfall.json" {
            #expect(lines.contains("waterfall: \(input.path)/\(fifo): skipped: \(Self.fifoReason)"), "\(fifo): \(run.stderr)")
        }
        #expect(lines.contains("waterfall: warning: \(input.path)/waterfall.json: skipped: \(Self.fifoReason); the default settings apply"))
        #expect(lines.last?.hasPrefix("2 photos, ") == true, "\(run.stderr)")
        #expect(try Fixtures.siteFiles(in: output.path).filter { $0.hasSuffix(".html") }
            == ["Album/index.html", "Album/photos/hubble-tall.jpg.html", "index.html", "photos/coffee-cup.jpg.html"])
        Trust.expectSoundSite(output.path)
    }

    @Test func fifosFailAStrictBuildPromptlyWritingNothing() throws {
        let (input, fifos) = try Self.gallery()
        let work = try TemporaryFolder()
        let run = try Watchdog.run(["build", input.path, "-o", work.path + "/site", "--strict"])
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr.hasSuffix(" files or folders of the input could not be read (--strict); nothing was written\n"), "\(run.stderr)")
        for fifo in fifos {  // the top settings file too: under --strict it is a skipped file like the others
            #expect(run.stderr.contains("waterfall: \(input.path)/\(fifo): skipped: \(Self.fifoReason)\n"), "\(fifo)")
        }
        #expect(Trust.describe(Array((work.path + "/site").utf8)) == nil)
    }

    /// "One line naming the file and the reason": the top `waterfall.json` is read as settings, not as a
    /// photo, so it must not be reported twice (once as settings, once as a skipped file).
    @Test(arguments: ["fifo", "link out of the input"])
    func anUnusableTopLevelSettingsFileIsReportedOnOneLine(kind: String) throws {
        let input = try Trust.input(["coffee-cup.jpg"])
        let outside = try TemporaryFolder()
        let settings = input.path + "/waterfall.json"
        if kind == "fifo" {
            try Trust.fifo(settings)
        } else {
            try Trust.write(outside.path + "/waterfall.json", #"{"title": "LEAKED-SETTINGS"}"#)
            try Trust.symlink(outside.path + "/waterfall.json", at: settings)
        }
        let output = try TemporaryFolder()
        let run = try Watchdog.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        let reason = kind == "fifo" ? Self.fifoReason
            : "symbolic link to \(outside.path)/waterfall.json, outside the input (--follow-symlinks allows it)"
        let lines = Trust.lines(run, naming: settings)
        #expect(lines.count == 1, "\(settings) is reported on \(lines.count) lines: \(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("waterfall: ") && $0.contains("\(settings): ") && $0.contains(reason) }, "\(lines)")
        #expect(Trust.files(in: output.path, containing: Array("LEAKED-SETTINGS".utf8)).isEmpty)
    }

    @Test func aFIFOGivenAsSettingsOrInTheThemeDoesNotHang() throws {
        let input = try Trust.input(["coffee-cup.jpg"])
        let work = try TemporaryFolder()
        try Trust.fifo(work.path + "/settings.json")
        let config = try Watchdog.run(["build", input.path, "-o", work.path + "/one", "--config", work.path + "/settings.json"])
        #expect(config.status == 1 && !config.signalled)
        #expect(config.stderr == "waterfall: \(work.path)/settings.json: \(Self.fifoReason)\n")

        let theme = work.path + "/theme"
        try FileManager.default.copyItem(atPath: Trust.templates, toPath: theme)
        try Trust.fifo(theme + "/assets/pipe.css")
        try FileManager.default.removeItem(atPath: theme + "/footer.mustache")
        try Trust.fifo(theme + "/footer.mustache")
        let themed = try Watchdog.run(["build", input.path, "-o", work.path + "/two", "--templates", theme])
        #expect(themed.status == 0 && !themed.signalled, "\(themed.stderr)")
        for name in ["assets/pipe.css", "footer.mustache"] {
            #expect(Trust.lines(themed, naming: name) == ["waterfall: warning: \(theme)/\(name): skipped: \(Self.fifoReason)"])
        }
        #expect(!FileManager.default.fileExists(atPath: work.path + "/two/assets/pipe.css"))
    }

    @Test func resizeAndInspectSkipFIFOs() throws {
        let (input, _) = try Self.gallery()
        let output = try TemporaryFolder()
        let resize = try Watchdog.run(["resize", input.path, "-o", output.path, "--width", "50"])
        #expect(resize.status == 1 && !resize.signalled)
        #expect(resize.stderr.split(separator: "\n").sorted() == [
            "waterfall: \(input.path)/Album/y.png: skipped: \(Self.fifoReason)",
            "waterfall: \(input.path)/x.jpg: skipped: \(Self.fifoReason)",
        ])
        #expect(FileManager.default.fileExists(atPath: output.path + "/coffee-cup.jpg"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/Album/hubble-tall.jpg"))
        let inspect = try Watchdog.run(["inspect", input.path + "/x.jpg"])
        #expect(inspect.status == 1 && !inspect.signalled)
        #expect(inspect.stderr.contains("\(input.path)/x.jpg: \(Self.fifoReason)"), "\(inspect.stderr)")
    }

    @Test func nfcAndNFDSpellingsOfOneNameSortedByDateAreTwoPhotos() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let nfc = "\u{E9}t\u{E9}.jpg", nfd = "e\u{301}te\u{301}.jpg"
        #expect(Array(nfc.utf8) != Array(nfd.utf8))
        for folder in ["", "Album/"] {
            try Trust.copy(Trust.photo("coffee-cup.jpg"), to: Array((input.path + "/" + folder + nfc).utf8))
            try Trust.copy(Trust.photo("hubble-tall.jpg"), to: Array((input.path + "/" + folder + nfd).utf8))
        }
        try Trust.write(input.path + "/waterfall.json", #"{"sort": "date"}"#)
        try Trust.write(input.path + "/Album/waterfall.json", #"{"sort": "date", "reverse": true}"#)
        let run = try Watchdog.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix("4 photos, 0 skipped,") == true, "\(run.stderr)")
        for page in ["index.html", "Album/index.html"] {
            let tiles = Trust.tiles(try Trust.read(output.path + "/" + page)).filter { $0.href.contains("photos/") }
            #expect(tiles.count == 2, "\(page)")
            #expect(Set(tiles.map(\.src)).count == 2 && Set(tiles.map(\.href)).count == 2, "\(page): \(tiles)")
            #expect(Set(tiles.map { "\($0.width)×\($0.height)" }) == ["600×400", "290×870"], "\(page): \(tiles)")
        }
        Trust.expectSoundSite(output.path)
    }
}
