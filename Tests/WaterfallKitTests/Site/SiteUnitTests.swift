import Foundation
import Testing
@testable import WaterfallKit

struct JSONParserTests {
    @Test func parsesEveryKindKeepingKeyOrder() throws {
        let value = try JSONParser.parse(#" {"b": [1, -2.5e1, true, false, null], "a": "x\"\\\/\n\u00e9\ud83d\ude00", "c": {}} "#)
        #expect(value == .object([
            ("b", .array([.int(1), .double(-25), .bool(true), .bool(false), .null])),
            ("a", .string("x\"\\/\né😀")),
            ("c", .object([])),
        ]))
    }

    @Test(arguments: [
        ("", "1:1: unexpected end of file"),
        ("{", "1:2: expected a key in double quotes"),
        ("[1,]", "1:4: unexpected character ']'"),
        ("{\"a\" 1}", "1:6: expected ':'"),
        ("01", "1:2: unexpected text after the JSON value"),
        ("\"a\nb\"", "1:3: control character in a string (escape it)"),
        ("\"\\x\"", "1:3: unknown escape '\\x'"),
        ("\"\\ud800\"", "1:8: unpaired surrogate"),
        ("{\"a\": 1,\n  \"a\": 2}", "2:3: duplicate key 'a' (first at line 1)"),
        ("[{\"k\": 1, \"\\u006b\": 2}]", "1:11: duplicate key 'k' (first at line 1)"),
        ("\u{FEFF}\u{FEFF}1", "1:1: unexpected character 'ï'"),
        ("\u{FEFF}[1,]", "1:4: unexpected character ']'"),
        ("nul", "1:4: unexpected word (expected null)"),
        ("{\"é\": tru}", "1:10: unexpected word (expected true)"),
    ])
    func errorsPointAtTheProblem(text: String, message: String) {
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(text) }
        do { _ = try JSONParser.parse(text) } catch { #expect(error.description == message) }
    }

    /// RFC 8259 lets a parser skip a UTF-8 byte-order mark; Windows editors write one. Only one, only first.
    @Test func byteOrderMarkAtTheStartIsSkipped() throws {
        #expect(try JSONParser.parse("\u{FEFF}{\"title\": \"x\"}") == .object([("title", .string("x"))]))
        #expect(try JSONParser.parse("\u{FEFF} [1]\n") == .array([.int(1)]))
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(" \u{FEFF}[1]") }
    }

    /// A key written twice is an error naming both places, in any object at any depth; the same key in two
    /// different objects is fine.
    @Test func duplicateKeysNameBothLines() throws {
        let text = "{\n  \"title\": \"a\",\n  \"bands\": [{\"columns\": 2}, {\"columns\": 3}],\n\n  \"title\": \"b\"\n}"
        do { _ = try JSONParser.parse(text); Issue.record("expected an error") } catch {
            #expect(error.description == "5:3: duplicate key 'title' (first at line 2)")
        }
        let bom = "\u{FEFF}{\"a\": 1, \"a\": 1}"
        do { _ = try JSONParser.parse(bom); Issue.record("expected an error") } catch {
            #expect(error.description == "1:10: duplicate key 'a' (first at line 1)")
        }
    }

    /// Large objects look keys up by hash, small ones among their members: both find a duplicate, on either
    /// side of the switch, and both take the escaped and plain spellings of a key for one key.
    @Test func duplicateKeysInLargeObjects() throws {
        for (count, duplicate) in [(30, 3), (30, 25), (16, 15), (17, 16)] {
            var lines = (0..<count).map { "\"k\($0)\": \($0)" }
            lines.append("\"k\(duplicate)\": 0")
            let text = "{\n" + lines.joined(separator: ",\n") + "\n}"
            do { _ = try JSONParser.parse(text); Issue.record("expected an error for \(count)/\(duplicate)") } catch {
                #expect(error.description == "\(count + 2):1: duplicate key 'k\(duplicate)' (first at line \(duplicate + 2))")
            }
        }
        do { _ = try JSONParser.parse(#"{"a\u0062": 1, "ab": 2}"#); Issue.record("expected an error") } catch {
            #expect(error.description == "1:16: duplicate key 'ab' (first at line 1)")
        }
        #expect(try JSONParser.parse("{\"t\\\"x\": \"\\u00e9\\n\", \"u\": \"é\"}")
            == .object([("t\"x", .string("é\n")), ("u", .string("é"))]))
    }

    /// Numbers JSON allows but Int and Double cannot hold are kept as written, never rounded to infinity.
    @Test(arguments: ["1e999", "-1e400", "99999999999999999999", "-9223372036854775809"])
    func numbersTooLargeAreKeptAsWritten(text: String) throws {
        #expect(try JSONParser.parse("[\(text)]") == .array([.bigNumber(text)]))
        #expect(JSONValue.bigNumber(text).rendered() == text)
    }

    @Test func numbersAtTheEdgesOfIntAndDouble() throws {
        #expect(try JSONParser.parse("9223372036854775807") == .int(Int.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .int(Int.min))
        #expect(try JSONParser.parse("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
        #expect(try JSONParser.parse("1e-400") == .double(0))
        #expect(try JSONParser.parse("-0") == .int(0))
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do { _ = try JSONParser.parse(text); Issue.record("expected an error") } catch {
            #expect(error.message == "nested too deeply")
        }
    }
}

struct URLPathTests {
    @Test func encodesEverythingButUnreserved() {
        #expect(URLPath.encode(path: "photos/a b#c?d%e&f'g\"h<i>.jpg") == "photos/a%20b%23c%3Fd%25e%26f%27g%22h%3Ci%3E.jpg")
        #expect(URLPath.encode(segment: "ünï/日本") == "%C3%BCn%C3%AF%2F%E6%97%A5%E6%9C%AC")
        #expect(URLPath.encode(segment: "A-z_0.9~") == "A-z_0.9~")
    }

    @Test func relativeURLsBetweenSitePaths() {
        #expect(SitePath.url(from: "Trips/photos/a.html", to: "Trips/images/view/a.jpg") == "../images/view/a.jpg")
        #expect(SitePath.url(from: "index.html", to: "Trips/index.html") == "Trips/index.html")
        #expect(SitePath.url(from: "Trips/index.html", to: "index.html") == "../index.html")
        #expect(SitePath.url(from: "ab/x.html", to: "abc/y.jpg") == "../abc/y.jpg")
        #expect(SitePath.url(from: "a/b/x.html", to: "a/bc/y.jpg") == "../bc/y.jpg")
        #expect(SitePath.url(from: "a/b/x.html", to: "a/b") == "../b")
        #expect(SitePath.url(from: "a b/p.html", to: "a b/ü #.jpg") == "%C3%BC%20%23.jpg")
    }

    /// The byte-wise walk gives what the definition gives: up out of the page's folders that the target
    /// does not share, then down the target's segments, each percent-encoded.
    @Test func relativeURLsMatchTheSegmentDefinition() {
        func reference(_ page: String, _ target: String) -> String {
            let from = SitePath.folder(of: page).split(separator: "/", omittingEmptySubsequences: true)
            let to = target.split(separator: "/", omittingEmptySubsequences: false)
            var common = 0
            while common < from.count && common < to.count - 1 && from[common].utf8.elementsEqual(to[common].utf8) { common += 1 }
            let up = Array(repeating: "..", count: from.count - common)
            return (up + to[common...].map { URLPath.encode(segment: String($0)) }).joined(separator: "/")
        }
        let parts = ["a", "ab", "b", "ü", "a b", "x.html", "a.jpg"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            func path() -> String { (0...Int.random(in: 0...3, using: &generator)).map { _ in parts.randomElement(using: &generator)! }.joined(separator: "/") }
            let page = path(), target = path()
            #expect(SitePath.url(from: page, to: target) == reference(page, target), "\(page) → \(target)")
        }
    }
}

struct DecimalTextTests {
    @Test func fixedPointWithoutExponents() {
        #expect(DecimalText.format(0.00001, decimals: 5) == "0.00001")
        #expect(DecimalText.format(0.000001, decimals: 5) == "0")
        #expect(DecimalText.format(-13.3333333, decimals: 3) == "-13.333")
        #expect(DecimalText.format(50, decimals: 5) == "50")
        #expect(DecimalText.format(1234567.5, decimals: 3) == "1234567.5")
        #expect(DecimalText.format(-0.0004, decimals: 3) == "0")
    }

    /// Any finite value is written, never a trap: past Int64 at the asked precision, fewer decimals; past
    /// Int64 itself, the shortest digits padded with zeros.
    @Test func hugeValuesLoseDecimalsNotTheProcess() {
        #expect(DecimalText.format(10_000_000_000.5, decimals: 9) == "10000000000.5")
        #expect(DecimalText.format(-98_765_432_109_876.5, decimals: 5).hasPrefix("-98765432109876."))
        #expect(DecimalText.format(1.25e20, decimals: 3) == "125000000000000000000")
        #expect(DecimalText.format(-1e19, decimals: 0) == "-10000000000000000000")
        #expect(DecimalText.format(.greatestFiniteMagnitude, decimals: 5) == "17976931348623157" + String(repeating: "0", count: 292))
    }
}

struct BoardStyleTests {
    @Test func affineLengthsBecomeCalcExpressionsOfTheWidth() {
        #expect(BoardStyle.css(AffineLength(scale: 1.0 / 3, offset: -13.333333)) == "calc(33.33333% - 13.333px)")
        #expect(BoardStyle.css(AffineLength(scale: 0, offset: 10)) == "calc(0% + 10px)")
        #expect(BoardStyle.css(AffineLength(scale: 2.5, offset: 0)) == "calc(250% + 0px)")
    }

    @Test("the CSS reproduces the engine's frames: evaluated at random widths, each band's expressions give the direct layout")
    func cssMatchesTheEngine() throws {
        var random = SplitMix64(seed: 42)
        let sizes = (0..<60).map { _ in Size(width: random.nextDouble(in: 100..<4000), height: random.nextDouble(in: 100..<4000)) }
        let items = try SizedItems(displaySizes: sizes)
        let configuration = SiteConfiguration()
        let layout = try ResponsiveLayout(bands: configuration.layoutBands, configuration: configuration.layoutConfiguration, items: items)
        let style = BoardStyle(layout: layout, aspectRatios: items.aspectRatios, footerHeight: 50)
        for (number, band) in layout.bands.enumerated() {
            for index in 0..<sizes.count {
                // The tile's inline custom properties carry its column and top for this band.
                #expect(style.tileStyles[index].contains(";--c\(number):\(band.columns[index]);--t\(number):\(BoardStyle.css(band.itemFrames[index].y))"))
            }
            for _ in 0..<20 {
                let width = random.nextDouble(in: band.servedWidths.lowerBound..<min(band.servedWidths.upperBound, 4000))
                let direct = try band.layout(atWidth: width)
                for (frame, item) in zip(band.itemFrames, direct.itemAttributes) {
                    let parsed = Self.evaluate(BoardStyle.css(frame.y), at: width)
                    #expect(abs(parsed - item.frame.y) < 0.01, "band \(number) tile \(item.index) at \(width)")
                }
            }
        }
    }

    /// Evaluates `calc(A% ± Bpx)` at a width, as a browser does.
    static func evaluate(_ css: String, at width: Double) -> Double {
        let inner = css.dropFirst("calc(".count).dropLast()
        let parts = inner.split(separator: " ")
        let percent = Double(parts[0].dropLast())!
        let offset = Double(parts[2].dropLast(2))! * (parts[1] == "-" ? -1 : 1)
        return percent / 100 * width + offset
    }
}

struct SiteWriterTests {
    @Test func manifestLinesThatLeaveTheOutputFolderAreIgnored() {
        for path in ["../etc/passwd", "/etc/passwd", "a/../../b", "", "a//b", "./a"] {
            #expect(!SiteWriter.isSafeRelativePath(path), "\(path)")
        }
        #expect(SiteWriter.isSafeRelativePath("photos/a b.jpg"))
    }

    /// Records that name paths outside the output, or files whose content is not what they say, prove
    /// nothing: such a file is in the way, and nothing outside is touched.
    @Test func tamperedRecordsProveNothing() throws {
        let root = try TemporaryFolder()
        let victim = try root.write("victim.txt", Array("keep".utf8))
        let output = root.path + "/site"
        let user = try root.write("site/index.html", Array("mine".utf8))
        let lines = [#"{"waterfall":"manifest","version":1}"#,
                     #"{"path": "../victim.txt", "size": 4, "hash": "00", "device": "1", "inode": "1", "modified": 1}"#,
                     #"{"path": "index.html", "size": 4, "hash": "0123456789abcdef0123456789abcdef", "device": "1", "inode": "1", "modified": 1}"#]
        try root.write("site/.waterfall/manifest.json", Array(lines.joined(separator: "\n").utf8))
        var writer = try SiteWriter(output: output)
        #expect(throws: FileSystemError.self) { try writer.plan(["index.html"]) }
        #expect(try Fixtures.bytes(victim) == Array("keep".utf8))
        #expect(try Fixtures.bytes(user) == Array("mine".utf8))
    }

    /// The plan refuses paths outside the output, over-long names, and paths one file system would take for
    /// one (the clash is looked for while the files are checked), with the path's problem as its message.
    @Test func planRefusesPathsNoFileSystemHolds() throws {
        let root = try TemporaryFolder()
        func problem(_ paths: [String]) -> String? {
            do {
                var writer = try SiteWriter(output: root.path + "/site")
                try writer.plan(paths)
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(problem(["a.html", "b/c.html"]) == nil)
        #expect(problem(["a.html", "../x.html"])?.contains("is not a path inside the output folder") == true)
        #expect(problem([".waterfall/x"])?.contains("is not a path inside the output folder") == true)
        #expect(problem([String(repeating: "n", count: 256)])?.contains("longer than 255 bytes") == true)
        #expect(problem(["photos/A.html", "photos/a.html"])?.contains("would be the same file on some file systems") == true)
        #expect(problem(["caf\u{E9}.html", "cafe\u{301}.html"])?.contains("would be the same file on some file systems") == true)
        #expect(problem(["x", "X/y.html"])?.contains("is both a file and the folder of") == true)
        // An unsafe path is refused before a clash elsewhere is looked for.
        #expect(problem(["A.html", "a.html", "../x.html"])?.contains("is not a path inside the output folder") == true)
        #expect(!FileManager.default.fileExists(atPath: root.path + "/site/photos"))
    }

    /// What the writer staged reaches the site only at commit; abandoned, it leaves the site as it was.
    @Test func nothingChangesBeforeCommit() throws {
        let root = try TemporaryFolder()
        let output = root.path + "/site"
        do {
            var first = try SiteWriter(output: output)  // holds the lock until the end of this scope
            try first.plan(["index.html", "a/b.html"])
            try first.write("one", to: "index.html")
            try first.write("two", to: "a/b.html")
            _ = try first.commit()
        }
        var second = try SiteWriter(output: output)
        try second.plan(["index.html", "c.html"])
        try second.write("changed", to: "index.html")
        try second.write("three", to: "c.html")
        second.abandon()
        #expect(String(decoding: try Fixtures.bytes(output + "/index.html"), as: UTF8.self) == "one")
        #expect(!FileManager.default.fileExists(atPath: output + "/c.html"))
        #expect(try Fixtures.siteFiles(in: output) == ["a/b.html", "index.html"])
    }
}

struct SiteConfigurationTests {
    @Test func everyKeyIsRead() throws {
        let json = #"""
        {"title": "T", "description": "D", "bands": [{"minWidth": 0, "columns": 1}, {"minWidth": 700, "columns": 6, "columnSpacing": 4, "rowSpacing": 2}],
         "columnSpacing": 3, "rowSpacing": 5, "insets": [1, 2, 3, 4], "footerHeight": 0, "footerText": "F", "sort": "name",
         "reverse": true, "maxPixels": 1000, "flowTolerance": 12.5, "placement": "shortest", "bottom": "flush", "maxCrop": 0.2}
        """#
        let configuration = try SiteConfiguration().applying(json: json, file: "w.json")
        #expect(configuration.title == "T" && configuration.description == "D")
        #expect(configuration.bands == [.init(minWidth: 0, columns: 1), .init(minWidth: 700, columns: 6, columnSpacing: 4, rowSpacing: 2)])
        #expect(configuration.columnSpacing == 3 && configuration.rowSpacing == 5)
        #expect(configuration.insets == EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        #expect(configuration.footerHeight == 0 && configuration.footerText == "F")
        #expect(configuration.reverse && configuration.maxPixels == 1000)
        #expect(configuration.flowTolerance == 12.5 && configuration.layoutConfiguration.flowTolerance == 12.5)
        #expect(configuration.layoutConfiguration.placement == .shortestColumn)
        #expect(configuration.layoutConfiguration.bottom == .flush(maxCrop: 0.2))
        #expect(try SiteConfiguration().applying(json: #"{"insets": 7}"#, file: "w").insets == EdgeInsets(all: 7))
    }

    @Test func theDefaultsAreTheDocumentedOnes() {
        let defaults = SiteConfiguration()
        #expect(defaults.bands.map(\.columns) == [2, 3, 4, 5])
        #expect(defaults.bands.map(\.minWidth) == [0, 600, 900, 1400])
        #expect(defaults.columnSpacing == 10 && defaults.rowSpacing == 10 && defaults.insets == EdgeInsets(all: 10))
        #expect(defaults.footerHeight == 50 && defaults.maxPixels == 250_000_000)
        #expect(defaults.flowTolerance == 0 && defaults.layoutConfiguration.placement == .balanced)
        #expect(defaults.layoutConfiguration.bottom == .natural && defaults.maxCrop == 0.15)
    }

    @Test(arguments: [
        (#"{"placement": "masonry"}"#, "'placement' must be 'balanced', 'shortest' or 'round-robin' (got 'masonry')"),
        (#"{"bottom": "level"}"#, "'bottom' must be 'natural' or 'flush' (got 'level')"),
        (#"{"maxCrop": 0.6}"#, "'maxCrop' must be between 0 and 0.5 (got 0.6)"),
        (#"{"maxCrop": "15%"}"#, "'maxCrop' must be a number (got the string \"15%\")"),
    ])
    func badLayoutSettingsAreNamed(json: String, message: String) {
        #expect(throws: SiteConfiguration.FileError(file: "w.json", message: message)) {
            try SiteConfiguration().applying(json: json, file: "w.json")
        }
    }
}
