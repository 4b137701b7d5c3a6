import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 26: `--report FILE` goes through the same ownership rules as every path Waterfall writes. It never
/// replaces a file Waterfall did not write, never goes where the build reads or keeps its records, is
/// written whole and never through a link; a refusal is one line, exit status 1, and nothing is written.
struct TrustReportTests {
    /// A work folder: `in` (two photos and a settings file), a copy of the theme, and nothing else.
    static func work() throws -> TemporaryFolder {
        let work = try TemporaryFolder()
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: work.path + "/in/a.jpg")
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: work.path + "/in/b.jpg")
        try Trust.write(work.path + "/settings.json", #"{"title": "Settings"}"#)
        try FileManager.default.copyItem(atPath: Trust.templates, toPath: work.path + "/theme")
        return work
    }

    /// Places a report may not go, relative to the work folder, with the reason's words.
    @Test(arguments: [
        ("in/b.jpg", [String](), "the report may not go inside the input folder in, where it could replace or add a photo; "
            + "choose a file outside it (or in a hidden folder of it)"),
        ("in/b.jpg.json", [], "the report may not go inside the input folder in, where it could replace or add a photo; "
            + "choose a file outside it (or in a hidden folder of it)"),
        ("in/waterfall.json", [], "the report may not go inside the input folder in, where it could replace or add a photo; "
            + "choose a file outside it (or in a hidden folder of it)"),
        ("theme/page.mustache", ["--templates", "theme"], "the report may not go inside the theme folder theme; choose a file outside it"),
        ("settings.json", ["--config", "settings.json"], "is the settings file; the report may not replace it"),
        ("cache/report.json", ["--cache-dir", "cache"], "the report may not go inside the cache folder cache; choose a file outside it"),
        ("out/.waterfall/manifest.json", [], "the report may not go inside out/.waterfall, the output's records; choose a file outside it"),
        ("out/.waterfall/cache/version", [], "the report may not go inside the cache folder out/.waterfall/cache; choose a file outside it"),
        ("out/.waterfall/plan", [], "the report may not go inside out/.waterfall, the output's records; choose a file outside it"),
    ])
    func aReportIsNeverWrittenWhereTheBuildReadsOrKeepsItsRecords(report: String, options: [String], reason: String) throws {
        let work = try Self.work()
        #expect(try WaterfallProcess.run(["build", "in", "-o", "out", "--cache-dir", "cache", "--quiet"], in: work.path).status == 0)
        #expect(try WaterfallProcess.run(["build", "in", "-o", "out", "--quiet"], in: work.path).status == 0)
        let before = Trust.snapshot(work.path)
        let run = try WaterfallProcess.run(["build", "in", "-o", "out", "--report", report] + options, in: work.path)
        #expect(run.status == 1 && !run.signalled)
        #expect(run.stderr == "waterfall: \(report): \(reason)\n")
        #expect(Trust.changes(before, Trust.snapshot(work.path)).isEmpty, "something was written")
    }

    /// What is at the report's name is replaced only when it is an earlier report: a file of the user's, a
    /// link (to anything) or a FIFO is left alone, and the build does not start.
    @Test(arguments: ["notes", "link to a report", "link to a photo", "fifo", "folder"])
    func onlyAnEarlierReportIsReplaced(kind: String) throws {
        let work = try Self.work()
        let report = work.path + "/report.json"
        switch kind {
        case "notes": try Trust.write(report, "my notes, which happen to be JSON: {\"report\": 1}\n")
        case "link to a report":
            #expect(try WaterfallProcess.run(["build", "in", "-o", "out", "--report", "elsewhere.json", "--quiet"], in: work.path).status == 0)
            try Trust.symlink(work.path + "/elsewhere.json", at: report)
        case "link to a photo": try Trust.symlink(work.path + "/in/a.jpg", at: report)
        case "fifo": try Trust.fifo(report)
        default: try Trust.makeFolders(report)
        }
        let before = Trust.snapshot(work.path)
        let run = try Watchdog.run(["build", "in", "-o", "out2", "--report", "report.json"], in: work.path, timeout: 60)
        #expect(run.status == 1 && !run.signalled)
        let reason = switch kind {
        case "notes": "exists and is not a report Waterfall wrote; not replaced (move it away, or give --report another file)"
        case "link to a report", "link to a photo": "is a symbolic link; not replaced"
        default: "is not a regular file; not replaced"
        }
        #expect(run.stderr == "waterfall: report.json: \(reason)\n")
        #expect(Trust.changes(before, Trust.snapshot(work.path)).isEmpty, "something was written")
    }

    /// CI running the same command again in the same folder replaces its last report (and only it); a
    /// report may go in a hidden folder of the input, or in an output folder inside the input, which are
    /// never scanned.
    @Test func anEarlierReportIsReplacedWhole() throws {
        let work = try Self.work()
        let command = ["build", "in", "-o", "out", "--report", "report.json", "--quiet"]
        #expect(try WaterfallProcess.run(command, in: work.path).status == 0)
        let first = try Trust.read(work.path + "/report.json")
        #expect(first.hasPrefix(#"{"report": 1, "waterfall": ""#) && first.contains(#""unchanged": false"#))
        let again = try WaterfallProcess.run(command, in: work.path)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(try Trust.read(work.path + "/report.json").contains(#""unchanged": true"#))
        // Written whole: no temporary file is left beside it.
        #expect(Trust.snapshot(work.path).keys.filter { $0.first == UInt8(ascii: ".") }.isEmpty)

        for (output, report) in [("out", "in/.ci/report.json"), ("in/_site", "in/_site/report.json")] {
            try Trust.makeFolders(work.path + "/in/.ci")
            let run = try WaterfallProcess.run(["build", "in", "-o", output, "--report", report, "--quiet"], in: work.path)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try Trust.read(work.path + "/" + report).hasPrefix(#"{"report": 1"#))
        }
    }

    /// The report of a failed build goes where a report may go; a place the report may not go stops even
    /// that, before the build, so nothing at all is written.
    @Test func aRefusedReportStopsTheBuildBeforeItWritesAnything() throws {
        let work = try Self.work()
        let run = try WaterfallProcess.run(["build", "in", "-o", "out", "--report", "in/a.jpg"], in: work.path)
        #expect(run.status == 1)
        #expect(Trust.describe(Array((work.path + "/out").utf8)) == nil, "the output was made")
        #expect(try Fixtures.bytes(work.path + "/in/a.jpg") == Fixtures.bytes(Trust.photo("coffee-cup.jpg")))
        let failed = try WaterfallProcess.run(["build", "nosuch", "-o", "out", "--report", "report.json"], in: work.path)
        #expect(failed.status == 1)
        #expect(try Trust.read(work.path + "/report.json").contains(#""status": "failed""#))
    }
}
