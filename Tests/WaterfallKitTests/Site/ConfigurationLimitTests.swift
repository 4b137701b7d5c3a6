import Foundation
import Testing
@testable import WaterfallKit

/// `waterfall.json` as a hostile or careless hand writes it, through the real binary: every number outside
/// its range, every number no Int or Double can hold, and every combination the layout cannot honour is one
/// line naming the file, the key and the range, exit 1 (never a signal), with nothing written. Values just
/// inside the ranges build.
struct ConfigurationLimitTests {
    /// Builds `input` (one 600×400 photo, in an album) with `json` as its `file`, into `input/_site`.
    static func build(_ json: String, in input: TemporaryFolder, file: String = "waterfall.json",
                      quiet: Bool = false) throws -> WaterfallProcess.Outcome {
        try input.copy(Fixtures.root.appendingPathComponent("gallery/coffee-cup.jpg").path, as: "Trip/coffee-cup.jpg")
        try input.write(file, Array(json.utf8))
        return try WaterfallProcess.run(["build", ".", "-o", "_site"] + (quiet ? ["--quiet"] : []), in: input.path)
    }

    struct Refusal: Sendable, CustomStringConvertible {
        var json: String
        var message: String
        var description: String { json }
        init(_ json: String, _ message: String) {
            self.json = json
            self.message = message
        }
    }

    static func between(_ key: String, _ range: String, _ got: String) -> String {
        "waterfall.json: '\(key)' must be between \(range) (got \(got))"
    }

    static let refusals: [Refusal] = [
        // The values of the issue.
        Refusal(#"{"perPage": 9223372036854775807}"#, between("perPage", "1 and 10000", "9223372036854775807")),
        Refusal(#"{"tileWidth": 9223372036854775807}"#, between("tileWidth", "16 and 8192", "9223372036854775807")),
        Refusal(#"{"densities": [1, 4611686018427387904]}"#, between("densities[1]", "1 and 4", "4611686018427387904")),
        Refusal(#"{"bands": [{"minWidth": 0, "columns": 9223372036854775807}]}"#,
                between("bands[0].columns", "1 and 32", "9223372036854775807")),
        Refusal(#"{"bands": [{"minWidth": 1e300, "columns": 2}]}"#, between("bands[0].minWidth", "0 and 100000 px", "1e+300")),
        Refusal(#"{"columnSpacing": 1e308}"#, between("columnSpacing", "0 and 1000 px", "1e+308")),
        Refusal(#"{"insets": 1e308}"#, between("insets", "0 and 1000 px", "1e+308")),
        Refusal(#"{"footerHeight": 1e308}"#, between("footerHeight", "0 and 10000 px", "1e+308")),
        // Numbers JSON can write but Int and Double cannot hold, and negative zero.
        Refusal(#"{"perPage": 1e400}"#, between("perPage", "1 and 10000", "1e400")),
        Refusal(#"{"perPage": 99999999999999999999}"#, between("perPage", "1 and 10000", "99999999999999999999")),
        Refusal(#"{"perPage": -9223372036854775809}"#, between("perPage", "1 and 10000", "-9223372036854775809")),
        Refusal(#"{"perPage": -0}"#, between("perPage", "1 and 10000", "0")),
        Refusal(#"{"tileWidth": -0.0}"#, between("tileWidth", "16 and 8192", "-0")),
        Refusal(#"{"maxPixels": 1E+400}"#, between("maxPixels", "1 and 1000000000", "1E+400")),
        Refusal(#"{"rowSpacing": -1e400}"#, between("rowSpacing", "0 and 1000 px", "-1e400")),
        Refusal(#"{"insets": [0, 0, 0, 1e999]}"#, between("insets[3]", "0 and 1000 px", "1e999")),
        Refusal(#"{"bands": [{"minWidth": 0, "columns": 2, "rowSpacing": 123456789012345678901234567890}]}"#,
                between("bands[0].rowSpacing", "0 and 1000 px", "123456789012345678901234567890")),
        // Just outside each range.
        Refusal(#"{"perPage": 0}"#, between("perPage", "1 and 10000", "0")),
        Refusal(#"{"perPage": 10001}"#, between("perPage", "1 and 10000", "10001")),
        Refusal(#"{"perPage": 1e4, "tileWidth": 15}"#, between("tileWidth", "16 and 8192", "15")),
        Refusal(#"{"tileWidth": 8193}"#, between("tileWidth", "16 and 8192", "8193")),
        Refusal(#"{"densities": [0]}"#, between("densities[0]", "1 and 4", "0")),
        Refusal(#"{"densities": [1, 5]}"#, between("densities[1]", "1 and 4", "5")),
        Refusal(#"{"densities": [1, 2, 3, 4, 1, 2, 3, 4, 1]}"#, "waterfall.json: 'densities' must list at most 8 densities (got 9)"),
        Refusal(#"{"viewSize": 15}"#, between("viewSize", "16 and 16384", "15")),
        Refusal(#"{"viewSize": 16385}"#, between("viewSize", "16 and 16384", "16385")),
        Refusal(#"{"quality": 0}"#, between("quality", "1 and 100", "0")),
        Refusal(#"{"quality": 101}"#, between("quality", "1 and 100", "101")),
        Refusal(#"{"maxPixels": 0}"#, between("maxPixels", "1 and 1000000000", "0")),
        Refusal(#"{"maxPixels": 1000000001}"#, between("maxPixels", "1 and 1000000000", "1000000001")),
        Refusal(#"{"bands": [{"minWidth": 0, "columns": 0}]}"#, between("bands[0].columns", "1 and 32", "0")),
        Refusal(#"{"bands": [{"minWidth": 0, "columns": 33}]}"#, between("bands[0].columns", "1 and 32", "33")),
        Refusal(#"{"bands": [{"minWidth": -0.001, "columns": 2}]}"#, between("bands[0].minWidth", "0 and 100000 px", "-0.001")),
        Refusal(#"{"bands": [{"minWidth": 100000.5, "columns": 2}]}"#, between("bands[0].minWidth", "0 and 100000 px", "100000.5")),
        Refusal(#"{"bands": [{"minWidth": 0, "columns": 2, "columnSpacing": 1000.5}]}"#,
                between("bands[0].columnSpacing", "0 and 1000 px", "1000.5")),
        Refusal("{\"bands\": [" + (0...16).map { "{\"minWidth\": \($0 * 100), \"columns\": 2}" }.joined(separator: ", ") + "]}",
                "waterfall.json: 'bands' must list at most 16 bands (got 17)"),
        Refusal(#"{"columnSpacing": -0.5}"#, between("columnSpacing", "0 and 1000 px", "-0.5")),
        Refusal(#"{"columnSpacing": 1000.001}"#, between("columnSpacing", "0 and 1000 px", "1000.001")),
        Refusal(#"{"rowSpacing": 1001}"#, between("rowSpacing", "0 and 1000 px", "1001")),
        Refusal(#"{"insets": [0, 0, 1001, 0]}"#, between("insets[2]", "0 and 1000 px", "1001")),
        Refusal(#"{"insets": -1e-300}"#, between("insets", "0 and 1000 px", "-1e-300")),
        Refusal(#"{"footerHeight": 10000.5}"#, between("footerHeight", "0 and 10000 px", "10000.5")),
        // Each in range, but not together.
        Refusal(#"{"tileWidth": 8192, "densities": [1, 3]}"#,
                "waterfall.json: 'tileWidth' × the largest density must be at most 16384 (got 8192 × 3 = 24576)"),
        Refusal(#"{"bands": [{"minWidth": 0, "columns": 32, "columnSpacing": 1000}]}"#,
                "waterfall.json: layout: a board 320 px wide has no room for 32 columns with 1000 px between them "
                    + "and insets of 10 + 10 px (the band from 0 px)"),
        Refusal(#"{"insets": [0, 1000, 0, 1000]}"#,
                "waterfall.json: layout: a board 320 px wide has no room for 2 columns with 10 px between them "
                    + "and insets of 1000 + 1000 px (the band from 0 px)"),
        Refusal(#"{"bands": [{"minWidth": 0, "columns": 1}, {"minWidth": 600, "columns": 32, "columnSpacing": 100}]}"#,
                "waterfall.json: layout: a board 600 px wide has no room for 32 columns with 100 px between them "
                    + "and insets of 10 + 10 px (the band from 600 px)"),
    ]

    @Test(arguments: refusals)
    func outOfRangeSettingsAreOneLineAndWriteNothing(refusal: Refusal) throws {
        let input = try TemporaryFolder()
        let run = try Self.build(refusal.json, in: input)
        #expect(!run.signalled, "\(run.stderr)")
        #expect(run.status == 1)
        #expect(run.stderr == "waterfall: ./\(refusal.message)\n")
        #expect(!FileManager.default.fileExists(atPath: input.path + "/_site"))
    }

    /// The ends of every range, and the harshest combinations inside them.
    static let acceptances: [String] = [
        #"{"perPage": 1, "quality": 1, "viewSize": 16, "tileWidth": 16, "densities": [1]}"#,
        #"{"perPage": 10000, "quality": 100, "viewSize": 16384, "maxPixels": 1000000000}"#,
        #"{"maxPixels": 240000}"#,  // the photo's own size: not over the limit
        #"{"tileWidth": 8192, "densities": [1, 2]}"#,
        #"{"tileWidth": 4096, "densities": [4, 3, 2, 1, 1, 2, 3, 4]}"#,
        #"{"columnSpacing": 0, "rowSpacing": 1000, "insets": [0, 0, 1000, 0], "footerHeight": 10000}"#,
        #"{"columnSpacing": -0.0, "rowSpacing": -0, "insets": -0, "footerHeight": 0e400}"#,
        #"{"perPage": 1e4, "maxPixels": 1.0e9}"#,
        #"{"insets": 1000, "bands": [{"minWidth": 2001, "columns": 1}, {"minWidth": 100000, "columns": 32, "columnSpacing": 1000}]}"#,
        #"{"densities": [4], "bands": [{"minWidth": 0, "columns": 1}, {"minWidth": 100000, "columns": 1}]}"#,
        "{\"bands\": [{\"minWidth\": 0, \"columns\": 32, \"columnSpacing\": 0}, "
            + (1...15).map { "{\"minWidth\": \(28000 + $0 * 4000), \"columns\": 32, \"columnSpacing\": 1000, \"rowSpacing\": 1000}" }
            .joined(separator: ", ") + "]}",
    ]

    @Test(arguments: acceptances)
    func valuesJustInsideTheRangesBuild(json: String) throws {
        let input = try TemporaryFolder()
        let run = try Self.build(json, in: input)
        #expect(run.status == 0, "\(run.stderr)")
        let html = String(decoding: try Fixtures.bytes(input.path + "/_site/index.html"), as: UTF8.self)
        let style = html.components(separatedBy: "<style>").dropFirst().first?.components(separatedBy: "</style>").first ?? ""
        #expect(!style.isEmpty)
        // Every number is plain fixed-point: no exponent, no infinity, no NaN.
        #expect(style.range(of: #"[0-9.]e[+-]?[0-9]|\binf|\bnan"#, options: [.regularExpression, .caseInsensitive]) == nil)
    }

    @Test func duplicateKeysNameBothPlaces() throws {
        let top = "{\n  \"title\": \"a\",\n  \"perPage\": 5,\n  \"sort\": \"name\",\n  \"title\": \"b\"\n}"
        let input = try TemporaryFolder()
        let run = try Self.build(top, in: input)
        #expect(run.status == 1)
        #expect(run.stderr == "waterfall: ./waterfall.json:5:3: duplicate key 'title' (first at line 2)\n")
        #expect(!FileManager.default.fileExists(atPath: input.path + "/_site"))

        let nested = "{\"bands\": [\n  {\"minWidth\": 0, \"columns\": 2, \"columns\": 3}\n]}"
        #expect(try Self.build(nested, in: input).stderr
            == "waterfall: ./waterfall.json:2:33: duplicate key 'columns' (first at line 2)\n")

        let album = try TemporaryFolder()
        let run2 = try Self.build("{\"cover\": \"coffee-cup.jpg\",\n\"cover\": \"coffee-cup.jpg\"}", in: album,
                                  file: "Trip/waterfall.json", quiet: true)
        #expect(run2.status == 1)
        #expect(run2.stderr == "waterfall: ./Trip/waterfall.json:2:1: duplicate key 'cover' (first at line 1)\n")
    }

    @Test func aByteOrderMarkIsAccepted() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.root.appendingPathComponent("gallery/coffee-cup.jpg").path, as: "Trip/coffee-cup.jpg")
        try input.write("waterfall.json", [0xEF, 0xBB, 0xBF] + Array(#"{"title": "Marked"}"#.utf8))
        try input.write("Trip/waterfall.json", [0xEF, 0xBB, 0xBF] + Array("{\"title\": \"Marked trip\"}\n".utf8))
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(String(decoding: try Fixtures.bytes(output.path + "/index.html"), as: UTF8.self).contains("<title>Marked</title>"))
        #expect(String(decoding: try Fixtures.bytes(output.path + "/Trip/index.html"), as: UTF8.self).contains("Marked trip"))
        // Errors after a mark still point at the right column.
        try input.write("waterfall.json", [0xEF, 0xBB, 0xBF] + Array(#"{"title" "x"}"#.utf8))
        let bad = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
        #expect(bad.stderr == "waterfall: \(input.path)/waterfall.json:1:10: expected ':'\n")
    }
}
