import Foundation
import Testing
@testable import WaterfallKit

/// A sigal gallery folder (issue 30) built by Waterfall: the same albums' titles, descriptions and covers,
/// the same photos' titles and descriptions, and the same files left out as sigal 2.5 makes of it. sigal's
/// answer is recorded beside the fixture (make_sigal_fixtures.py); where the venv has sigal, it is asked
/// again, so the record cannot drift from sigal.
struct SigalImportTests {
    static let fixture = Fixtures.root.appendingPathComponent("sigal").path
    static let repository = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func theMetaBlockReadsAsPythonMarkdownReadsIt() {
        let parsed = SigalMarkdown.parse(Array("\u{FEFF}---\r\nTitle: A\r\n    b\r\nDATE: 2024-06-01\r\n---\r\nBody\r\n".utf8))
        #expect(parsed.meta == ["title": ["A", "b"], "date": ["2024-06-01"]])
        #expect(String(decoding: parsed.body, as: UTF8.self) == "Body\n")
        // Not a key line: the whole text is the body.
        #expect(SigalMarkdown.parse(Array("Just *text*.\nTitle: no".utf8)).meta.isEmpty)
        #expect(SigalMarkdown.parse(Array("    Title: indented\n".utf8)).meta.isEmpty)
        #expect(SigalMarkdown.date("2024-06-01T10:30")?.text == "2024-06-01 10:30:00")
        #expect(SigalMarkdown.date("2024-06-01")?.number == 20240601000000)
        #expect(SigalMarkdown.date("June 1st") == nil && SigalMarkdown.date("2024-13-01") == nil)
        #expect(SigalMarkdown.sidecarName(for: "a/IMG_1.jpg") == "a/IMG_1.md")
    }

    @Test func aSigalFolderBuildsAsSigalShowsIt() throws {
        let scratch = try TemporaryFolder(), output = try TemporaryFolder()
        let input = scratch.path + "/pictures"
        try FileManager.default.copyItem(atPath: Self.fixture + "/pictures", toPath: input)
        let recorded = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.fixture + "/sigal-facts.json")))
        let sigal = try #require(recorded as? [String: [String: Any]])
        if let fresh = try Self.askSigal(input) {
            #expect(NSDictionary(dictionary: fresh).isEqual(to: sigal), "sigal-facts.json is not what sigal makes of the fixture now")
        }
        let run = try WaterfallProcess.run(["build", input, "-o", output.path, "--base-url", "https://example.com/"])
        #expect(run.status == 0, "\(run.stderr)")
        // The same photos, and none of those sigal's nomedia plugin leaves out.
        let pages = try Fixtures.siteFiles(in: output.path).filter { $0.hasSuffix(".jpg.html") }
        let expected = sigal.flatMap { album, facts in
            (facts["photos"] as? [String: Any] ?? [:]).keys.map { SitePath.join(SitePath.join(album, "photos"), $0 + ".html") }
        }
        #expect(pages.sorted() == expected.sorted())
        for (album, facts) in sigal {
            let page = try Self.text(output.path + "/" + SitePath.join(album, "index.html"))
            #expect(Self.between(page, "<h1>", "</h1>") == facts["title"] as? String)
            #expect(Self.words(Self.description(page)) == Self.words(facts["description"] as? String), "\(album)")
            for (name, photo) in facts["photos"] as? [String: [String: String]] ?? [:] where name != "IMG_0003.jpg" {
                let page = try Self.text(output.path + "/" + SitePath.join(album, "photos/\(name).html"))
                #expect(Self.words(Self.description(page)) == Self.words(photo["description"]), "\(name)")
                // sigal's title without one is the file's name without its extension; Waterfall's differs (docs).
                if photo["title"] != String(name.dropLast(4)) { #expect(Self.between(page, "<h1>", "</h1>") == photo["title"]) }
            }
        }
        // Covers: the top album's (a photo in a sub-folder) in its link preview, the beach album's on its tile.
        let top = try Self.text(output.path + "/index.html")
        #expect(top.contains("<meta property=\"og:image\" content=\"https://example.com/\((sigal[""]?["cover"] as? String ?? "-").replacingOccurrences(of: "beach/", with: "beach/images/view/"))\">"))
        #expect(top.contains("href=\"beach/index.html\"><img src=\"beach/images/217/\(FolderPath.lastComponent(of: sigal["beach"]?["cover"] as? String ?? "-"))\""))
        // sigal passes raw HTML and javascript: links through; Waterfall's Markdown drops them.
        let hostile = try Self.text(output.path + "/photos/IMG_0003.jpg.html")
        let passedBySigal = (sigal[""]?["photos"] as? [String: [String: String]])?["IMG_0003.jpg"]?["description"] ?? ""
        #expect(passedBySigal.contains("<script>alert"))
        for bad in ["alert(\"md\")", "javascript:", "onerror", "<img src=x"] { #expect(!hostile.contains(bad), "\(bad)") }
        #expect(hostile.contains("<p>Click <a href=\"\">here</a>"))
        // IMG_0002.jpg.md is not sigal's name for a sidecar.
        #expect(try !Self.text(output.path + "/photos/IMG_0002.jpg.html").contains("Never read"))
    }

    @Test func aSidecarThatCannotBeUsedCostsOnlyItself() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for name in ["a.jpg", "b.jpg", "c.jpg"] { try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: name) }
        try input.write("a.md", Array(("Title: Too long\n\n" + String(repeating: "word ", count: 14_000)).utf8))
        try input.write("c.md", Array("Title: Kept\n\n**Fine**\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: input.path + "/b.md", withDestinationPath: "/etc/hostname")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("\(input.path)/a.md: larger than the 64 KiB limit; it is not used"), "\(run.stderr)")
        let pages = try Fixtures.siteFiles(in: output.path).filter { $0.hasSuffix(".jpg.html") }
        #expect(pages == ["photos/a.jpg.html", "photos/b.jpg.html", "photos/c.jpg.html"])
        #expect(try Self.text(output.path + "/photos/c.jpg.html").contains("<div class=\"wf-description\"><p><strong>Fine</strong></p>"))
        let hostname = (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if hostname.count > 3 { #expect(try !Self.text(output.path + "/photos/b.jpg.html").contains(hostname)) }
    }

    /// What sigal makes of `folder` now, when the venv has it.
    static func askSigal(_ folder: String) throws -> [String: Any]? {
        let python = repository + "/.venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python),
              FileManager.default.fileExists(atPath: repository + "/.venv/bin/sigal") else { return nil }
        let process = Process(), out = Pipe()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [repository + "/Tests/Tools/sigal_facts.py", folder]
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    static func between(_ text: String, _ start: String, _ end: String) -> String? {
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex) else { return nil }
        return String(text[from.upperBound..<to.lowerBound])
    }

    static func description(_ page: String) -> String? { between(page, "<div class=\"wf-description\">", "</div>") }

    /// The text of some HTML, tags and white space left out: Python-Markdown and cmark-gfm lay it out apart.
    static func words(_ html: String?) -> String {
        guard let html else { return "" }
        let text = html.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return text.filter { !$0.isWhitespace }
    }
}
