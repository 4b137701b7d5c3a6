import Foundation
import Testing
@testable import WaterfallKit

/// Every setting is declared once (`Setting.all`); the settings file, the command line and the docs follow.
struct SettingTests {
    static let repository = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The table of keys in docs/configuration.md is `Setting.all`'s, row for row. Re-record on purpose only:
    /// WATERFALL_RECORD=1 swift test --filter SettingTests.
    @Test func theDocsTableIsTheSettingsTable() throws {
        let path = Self.repository.appendingPathComponent("docs/configuration.md").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex(of: "| key | flag | type | range | default |"))
        let first = header + 2
        let end = lines[first...].firstIndex { !$0.hasPrefix("|") } ?? lines.count
        let wanted = Setting.all.map(\.tableRow)
        if ProcessInfo.processInfo.environment["WATERFALL_RECORD"] == "1" {
            lines.replaceSubrange(first..<end, with: wanted)
            try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(Array(lines[first..<end]) == wanted, "docs/configuration.md's table is not Setting.all's; re-record with WATERFALL_RECORD=1")
    }

    /// The README's table of common options names only flags the build takes, and a flag with a key beside it
    /// (`--title T` (`title`)) sets that key.
    @Test func theReadmeNamesRealFlagsAndKeys() throws {
        let readme = try String(contentsOfFile: Self.repository.appendingPathComponent("README.md").path, encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `-") }
        #expect(rows.count >= 8)
        for row in rows {
            let cell = row.split(separator: "|")[0]
            for flag in cell.matches(of: /`(--?[a-z-]+)/).map({ String($0.1) }) {
                let setting = Setting.flagged(flag)
                #expect(setting != nil || BuildCommand.help.contains("  \(flag)") || BuildCommand.help.contains(", \(flag)"),
                        "README: \(flag) is not an option of build")
                if let key = cell.firstMatch(of: /\(`([A-Za-z]+)`\)/)?.1, let setting {
                    #expect(setting.key == String(key), "README: \(flag) sets \(setting.key), not \(key)")
                }
            }
        }
    }

    /// Every setting with a flag takes a good value on the command line as in a settings file, and refuses a
    /// bad one in the same words but for its name.
    @Test func aFlagAndItsKeyReadAlike() throws {
        let samples: [String: (good: String, json: JSONValue, bad: String)] = [
            "title": ("T", .string("T"), ""), "columnSpacing": ("4", .int(4), "-1"), "rowSpacing": ("4", .int(4), "x"),
            "insets": ("1,2,3,4", .array([.int(1), .int(2), .int(3), .int(4)]), "1,2"), "footerHeight": ("5", .int(5), "1e9"),
            "flowTolerance": ("3", .int(3), "2000"), "placement": ("shortest", .string("shortest"), "grid"),
            "bottom": ("flush", .string("flush"), "even"), "maxCrop": ("0.2", .double(0.2), "0.9"),
            "maxPixels": ("1000", .int(1000), "2.5"), "formats": ("avif,jpeg", .array([.string("avif"), .string("jpeg")]), "jpeg,avif"),
            "originals": ("copy", .string("copy"), "all"), "viewSize": ("1600", .int(1600), "8"),
            "zoomSize": ("4096", .int(4096), "-1"),
            "zip": ("true", .bool(true), "yes"),
            "keywordPages": ("false", .bool(false), "no"), "minRating": ("3", .int(3), "6"),
            "publishRejected": ("true", .bool(true), "maybe"),
            "baseURL": ("https://example.com/", .string("https://example.com/"), "mailto:me"),
        ]
        let flagged = Setting.all.filter { $0.flag != nil }
        #expect(Set(flagged.map(\.key)) == Set(samples.keys))
        for setting in flagged {
            let sample = samples[setting.key]!
            var fromFlag = SiteConfiguration(), fromFile = SiteConfiguration()
            try setting.apply(argument: sample.good, to: &fromFlag)
            try setting.apply(sample.json, to: &fromFile)
            #expect(fromFlag == fromFile && fromFlag != SiteConfiguration(), "\(setting.key)")
            if sample.bad.isEmpty { continue }
            let flag = setting.flag!.name
            #expect(throws: SettingProblem.self, "\(flag) \(sample.bad)") { try setting.apply(argument: sample.bad, to: &fromFlag) }
            do {
                try setting.apply(argument: sample.bad, to: &fromFlag)
            } catch {
                #expect(error.message.hasPrefix(flag + " "), "\(error.message)")
            }
        }
    }

    @Test func everyKeyIsDeclaredOnce() {
        let keys = Setting.all.map(\.key), flags = Setting.all.compactMap(\.flag?.name)
        #expect(Set(keys).count == keys.count && Set(flags).count == flags.count)
        #expect(Setting.all.filter(\.album).map(\.key) == ["title", "description", "sort", "reverse"])
    }

    /// A switch (`--zip`) takes no value: named alone it is on, `--zip=false` turns it off, and the word after
    /// it is not taken as its value.
    @Test func aSwitchTakesNoValue() throws {
        let on = try #require(try BuildCommand.parse([Array("--zip".utf8), Array("Photos".utf8)]))
        #expect(on.options.settings.map(\.0) == ["zip"] && on.options.settings.map(\.1) == ["true"])
        #expect(on.input.text == "Photos")
        let off = try #require(try BuildCommand.parse([Array("--zip=false".utf8)]))
        #expect(off.options.settings.map(\.1) == ["false"])
        #expect(throws: UsageError.self) { try BuildCommand.parse([Array("--zip=maybe".utf8)]) }
        #expect(BuildCommand.help.contains("  --zip                give every album an archive"))
        #expect(Setting.named("zip")!.tableRow.hasPrefix("| `zip` | `--zip` | boolean"))
        // A switch that turns its setting off.
        let keywords = try #require(try BuildCommand.parse([Array("--no-keyword-pages".utf8)]))
        #expect(keywords.options.settings.map(\.0) == ["keywordPages"] && keywords.options.settings.map(\.1) == ["false"])
        #expect(try BuildCommand.parse([Array("--no-keyword-pages=false".utf8)])?.options.settings.map(\.1) == ["true"])
        #expect(throws: UsageError.self) { try BuildCommand.parse([Array("--no-keyword-pages=maybe".utf8)]) }
        #expect(BuildCommand.help.contains("  --no-keyword-pages   a page of photos for each keyword"))
    }
}
