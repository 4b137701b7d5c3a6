import Foundation
import Testing
@testable import WaterfallKit

/// `waterfall build --templates DIR` with a theme from anyone: the real binary on a copy of the default
/// theme made hostile. Each build fails with exit status 1 (not a signal) and one line naming the file,
/// and publishes nothing.
struct HostileThemeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// Files written over the copied theme, by name.
        var files: [String: String]
        /// The error after `waterfall: THEME/`.
        var error: String
        /// Whether the theme fails to load (before anything is made) rather than while rendering.
        var failsToLoad: Bool
        var testDescription: String { name }
    }

    static let defaultTheme = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Templates").path

    static let cases: [Case] = [
        Case(name: "100,000 nested sections",
             files: ["page.mustache": String(repeating: "{{#a}}", count: 100_000) + String(repeating: "{{/a}}", count: 100_000)],
             error: "page.mustache:1:601: section 'a' nested more than 100 deep (the limit for sections within sections in one template)",
             failsToLoad: true),
        Case(name: "partials that each include the next twice, 24 deep",
             files: doublingPartials(),
             error: "page.mustache: the rendered page passed the 64 MiB limit (do partials include each other?)",
             failsToLoad: false),
        Case(name: "a tile that includes itself",
             files: ["tile.mustache": "<li>{{alt}}</li>\n{{> tile}}\n"],
             error: "tile.mustache:2:1: partial 'tile' nested more than 100 deep (does it include itself with nothing to stop it?)",
             failsToLoad: false),
        Case(name: "a name too long to look up",
             files: ["footer.mustache": "{{" + String(repeating: "n", count: 5000) + "}}"],
             error: "footer.mustache:1:1: tag name '\(String(repeating: "n", count: 59))…' is longer than 256 bytes (the limit)",
             failsToLoad: true),
    ]

    /// The default page, whose header is now `bomb0`: each `bombN` includes `bombN+1` twice, and `bomb24` is
    /// a 1 KiB paragraph, so the page would be 16 GiB.
    static func doublingPartials() -> [String: String] {
        var files = ["bomb24.mustache": "<p>" + String(repeating: "x", count: 1016) + "</p>\n"]
        for level in 0..<24 { files["bomb\(level).mustache"] = "{{>bomb\(level + 1)}}{{>bomb\(level + 1)}}" }
        let page = (try? String(contentsOfFile: defaultTheme + "/page.mustache", encoding: .utf8)) ?? ""
        files["page.mustache"] = page.replacingOccurrences(of: "{{> header}}", with: "{{> bomb0}}")
        return files
    }

    @Test(arguments: cases)
    func aHostileThemeFailsCleanly(_ hostile: Case) throws {
        let input = try TemporaryFolder(), scratch = try TemporaryFolder()
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a.jpg")
        let theme = scratch.path + "/theme", output = scratch.path + "/site"
        try FileManager.default.copyItem(atPath: Self.defaultTheme, toPath: theme)
        for (name, text) in hostile.files { try Data(text.utf8).write(to: URL(fileURLWithPath: theme + "/" + name)) }

        let run = try WaterfallProcess.run(["build", input.path, "-o", output, "--templates", theme, "--quiet"])
        #expect(run.exited && run.status == 1, "status \(run.status), exited: \(run.exited)")
        #expect(run.stderr == "waterfall: \(theme)/\(hostile.error)\n")
        if hostile.failsToLoad {
            // The theme is loaded before the photos are read: the output folder is not even made.
            #expect(!FileManager.default.fileExists(atPath: output))
        } else {
            // The images stage has filled the cache (.waterfall/cache) before the first page fails; pages
            // are staged, not published, until all have rendered, so no page, asset or image reaches the
            // site and no manifest is recorded.
            let written = try Self.files(under: output)
            #expect(written.contains { $0.hasPrefix(".waterfall/cache/images/") })
            #expect(!written.contains(".waterfall/manifest.json"))
            #expect(written.allSatisfy { $0.hasPrefix(".waterfall/") }, "\(written)")
        }
    }

    /// A 100 MB page.mustache (sparse) is refused without being read whole.
    @Test func aHugeTemplateFailsCleanly() throws {
        let input = try TemporaryFolder(), scratch = try TemporaryFolder()
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a.jpg")
        let theme = scratch.path + "/theme"
        try FileManager.default.copyItem(atPath: Self.defaultTheme, toPath: theme)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: theme + "/page.mustache"))
        try handle.truncate(atOffset: 100_000_000)
        try handle.close()
        let run = try WaterfallProcess.run(["build", input.path, "-o", scratch.path + "/site", "--templates", theme])
        #expect(run.exited && run.status == 1)
        #expect(run.stderr == "waterfall: \(theme)/page.mustache: the template is larger than the 16 MiB limit\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/site"))
    }

    /// Every file under `folder`, as paths relative to it.
    static func files(under folder: String) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }
}
