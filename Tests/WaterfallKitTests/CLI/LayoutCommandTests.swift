import Foundation
import Testing
@testable import WaterfallKit

/// `waterfall layout`, run as users run it, checked against an independent implementation of the rules
/// (Tests/Tools/layout_reference.py) to 0.01 px.
struct LayoutCommandTests {
    /// A folder of photos of many shapes: landscape and portrait (EXIF-rotated too), squares from 1 to
    /// 40 px, a 33×17 PNG, a panorama of 1,000,001×10, thin strips, and a few files that must be skipped.
    static func makeGallery() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for name in try Fixtures.files(in: "conformance/exif-orientation") where name.hasSuffix(".jpg") {
            try folder.copy(Fixtures.conformance("exif-orientation/\(name)"), as: name)
        }
        for name in try Fixtures.files(in: "conformance/pngsuite") where name.hasPrefix("s") || name.hasPrefix("cdf") {
            try folder.copy(Fixtures.conformance("pngsuite/\(name)"), as: name)
        }
        for name in ["J23-exif-thumbnail-before-sof-no-jfif.jpg", "P01-rgb-16-bit-interlaced.png", "P07-1000001x10.png",
                     "J02-exif-II-orientation-8.jpg", "J46-bmp-named.jpg", "J45-empty.jpg"] {
            try folder.copy(Fixtures.header(name), as: name)
        }
        try folder.write(".hidden.jpg", try Fixtures.bytes(Fixtures.header("J01-baseline-jfif.jpg")))
        try folder.write("sub/IMG_1.jpg", try Fixtures.bytes(Fixtures.header("J01-baseline-jfif.jpg")))
        return folder
    }

    func reference(_ spec: [String: Any]) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tools/layout_reference.py").path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: spec))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    struct Setting: Sendable, CustomStringConvertible {
        var width: Double, columns: Int, g: Double, r: Double, insets: [Double], footer: Double, placement: String
        var description: String { "W=\(width) c=\(columns) g=\(g) r=\(r) insets=\(insets) f=\(footer) \(placement)" }
        var arguments: [String] {
            ["--width", "\(width)", "--columns", "\(columns)", "--column-spacing", "\(g)", "--row-spacing", "\(r)",
             "--insets", insets.map { "\($0)" }.joined(separator: ","), "--footer-height", "\(footer)",
             "--placement", placement]
        }
    }

    static let settings: [Setting] = [
        Setting(width: 1280, columns: 3, g: 10, r: 10, insets: [10, 10, 10, 10], footer: 50, placement: "shortest"),
        Setting(width: 360, columns: 2, g: 8, r: 12, insets: [0, 4, 20, 4], footer: 0, placement: "shortest"),
        Setting(width: 2560, columns: 7, g: 0, r: 0, insets: [0, 0, 0, 0], footer: 80, placement: "shortest"),
        Setting(width: 999.5, columns: 1, g: 10, r: 3.25, insets: [7, 11, 13, 17], footer: 50, placement: "shortest"),
        Setting(width: 1024, columns: 4, g: 16, r: 16, insets: [16, 16, 16, 16], footer: 50, placement: "round-robin"),
    ]

    @Test(arguments: settings)
    func matchesTheIndependentImplementation(setting: Setting) throws {
        let gallery = try Self.makeGallery()
        let run = try WaterfallProcess.run(["layout", gallery.path, "--json"] + setting.arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let ours = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])

        // Display sizes from inspect (tested on its own), in the natural order the rules prescribe.
        let inspect = try WaterfallProcess.run(["inspect", "--json", gallery.path])
        let headers = try #require(JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [[String: Any]])
        let photos: [[String: Any]] = headers.compactMap { entry in
            guard let width = entry["width"] as? Int, let path = entry["path"] as? String,
                  !path.contains("/sub/") else { return nil }
            return ["file": (path as NSString).lastPathComponent, "width": width, "height": entry["height"] as! Int]
        }
        let expected = try reference([
            "width": setting.width, "columns": setting.columns, "columnSpacing": setting.g, "rowSpacing": setting.r,
            "insets": setting.insets, "footerHeight": setting.footer, "placement": setting.placement, "photos": photos,
        ])

        let ourItems = try #require(ours["items"] as? [[String: Any]])
        let expectedItems = try #require(expected["items"] as? [[String: Any]])
        #expect(ourItems.count == expectedItems.count)
        #expect(ourItems.count > 50)
        for (a, b) in zip(ourItems, expectedItems) {
            #expect(a["file"] as? String == b["file"] as? String)
            #expect(a["column"] as? Int == b["column"] as? Int, "\(a["file"]!)")
            for key in ["x", "y", "width", "height"] {
                let x = (a[key] as! NSNumber).doubleValue, y = (b[key] as! NSNumber).doubleValue
                #expect(abs(x - y) <= 0.01, "\(a["file"]!).\(key): \(x) vs \(y)")
            }
        }
        let ourFooter = try #require(ours["footer"] as? [String: Any])
        let expectedFooter = try #require(expected["footer"] as? [String: Any])
        for key in ["x", "y", "width", "height"] {
            #expect(abs((ourFooter[key] as! NSNumber).doubleValue - (expectedFooter[key] as! NSNumber).doubleValue) <= 0.01)
        }
        #expect(abs((ours["contentHeight"] as! NSNumber).doubleValue - (expected["contentHeight"] as! NSNumber).doubleValue) <= 0.01)
        #expect(ours["columns"] as? Int == setting.columns)
    }

    @Test func unreadableFilesAreSkippedWithAWarning() throws {
        let gallery = try Self.makeGallery()
        let run = try WaterfallProcess.run(["layout", gallery.path, "--width", "800"])
        #expect(run.status == 0)
        let warnings = run.stderr.split(separator: "\n")
        #expect(warnings.count == 2)
        #expect(warnings.contains { $0.hasSuffix("J46-bmp-named.jpg: skipped: not an image format Waterfall reads (starts with 42 4D 00 00)") })
        #expect(warnings.contains { $0.hasSuffix("J45-empty.jpg: skipped: empty file") })
        #expect(run.stdout.contains("footer at y"))
        #expect(!run.stdout.contains("IMG_1.jpg"))  // sub-folders are not part of the folder's page
    }

    @Test func galleryOrderIsNatural() throws {
        let folder = try TemporaryFolder()
        for name in ["IMG_10.jpg", "img_2.jpg", "IMG_1.JPG"] { try folder.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: name) }
        let run = try WaterfallProcess.run(["layout", folder.path, "--width", "500", "--json"])
        let json = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((json["items"] as? [[String: Any]])?.compactMap { $0["file"] as? String } == ["IMG_1.JPG", "img_2.jpg", "IMG_10.jpg"])
    }

    /// `--bottom flush` levels the fixture gallery at 800 px: every column ends on `flushLine`, the footer
    /// starts one inset under it, and each reshaped item reports its natural height, within 15% of its own.
    @Test func flushBottomIsReported() throws {
        let run = try WaterfallProcess.run(["layout", BuildCommandTests.gallery, "--width", "800", "--bottom", "flush", "--json"])
        #expect(run.status == 0)
        let json = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(json["bottom"] as? String == "flush" && json["maxCrop"] as? Double == 0.15)
        let line = try #require(json["flushLine"] as? Double)
        let items = try #require(json["items"] as? [[String: Any]])
        var bottoms: [Int: Double] = [:]
        for item in items {
            let column = item["column"] as! Int, bottom = (item["y"] as! Double) + (item["height"] as! Double)
            bottoms[column] = max(bottoms[column] ?? 0, bottom)
            if let natural = item["naturalHeight"] as? Double {
                #expect(abs(natural - (item["height"] as! Double)) <= 0.15 * natural + 1e-9)
            }
        }
        #expect(bottoms.count == 3 && bottoms.values.allSatisfy { abs($0 - line) < 1e-6 })
        #expect(items.contains { $0["naturalHeight"] != nil })
        #expect((json["footer"] as? [String: Any])?["y"] as? Double == line + 10)
        #expect(json["spread"] as? Double ?? 1 < 1e-6)
        let table = try WaterfallProcess.run(["layout", BuildCommandTests.gallery, "--width", "800", "--bottom", "flush"])
        #expect(table.stdout.contains("; flush at y "))
    }

    @Test func emptyFolder() throws {
        let folder = try TemporaryFolder()
        let run = try WaterfallProcess.run(["layout", folder.path, "--width", "500", "--json"])
        #expect(run.status == 0)
        #expect(run.stdout == #"{"width": 500, "columns": 3, "contentHeight": 70, "items": [], "footer": {"x": 0, "y": 20, "width": 500, "height": 50}, "placement": "balanced", "flowTolerance": 0, "bottom": "natural", "maxCrop": null, "flushLine": null, "spread": 0, "spreadTileWidths": 0}"# + "\n")
    }

    @Test(arguments: [
        (["layout", "."], "layout needs --width W"),
        (["layout", "--width", "800"], "layout needs a folder"),
        (["layout", ".", "--width", "-5"], "--width must be greater than 0, got -5"),
        (["layout", ".", "--width", "0"], "--width must be greater than 0"),
        (["layout", ".", "--width", "wide"], "--width needs a number (got 'wide')"),
        (["layout", ".", "--width", "800", "--columns", "0"], "--columns needs a whole number, 1–10000 (got '0')"),
        (["layout", ".", "--width", "800", "--column-spacing", "-1"], "--column-spacing must be between 0 and 1000 px (got -1)"),
        (["layout", ".", "--width", "800", "--row-spacing", "nan"], "--row-spacing must be a number (got 'nan')"),
        (["layout", ".", "--width", "800", "--insets", "1,2,3"], "--insets must be a number, or four numbers top,left,bottom,right (such as 8,16,8,16)"),
        (["layout", ".", "--width", "800", "--flow-tolerance", "1001"], "--flow-tolerance must be between 0 and 1000 px (got 1001)"),
        (["layout", ".", "--width", "800", "--placement", "random"], "--placement must be 'balanced', 'shortest' or 'round-robin'"),
        (["layout", ".", "--width", "800", "--bottom", "level"], "--bottom must be 'natural' or 'flush' (got 'level')"),
        (["layout", ".", "--width", "800", "--max-crop", "0.51"], "--max-crop must be between 0 and 0.5 (got 0.51)"),
        (["layout", ".", "--width", "800", "--max-crop", "0.2"], "--max-crop only applies with --bottom flush"),
        // The same ranges as waterfall.json: no board, gap or footer so large that coordinates turn infinite.
        (["layout", ".", "--width", "1e308"], "--width must be at most 100000, got 1e+308"),
        (["layout", ".", "--width", "100000.5"], "--width must be at most 100000, got 100000.5"),
        (["layout", ".", "--width", "800", "--row-spacing", "1.7e308"], "--row-spacing must be between 0 and 1000 px (got 1.7e308)"),
        (["layout", ".", "--width", "800", "--column-spacing", "1000.5"], "--column-spacing must be between 0 and 1000 px (got 1000.5)"),
        (["layout", ".", "--width", "800", "--footer-height", "1e400"], "--footer-height must be between 0 and 10000 px (got 1e400)"),
        (["layout", ".", "--width", "800", "--footer-height", "10001"], "--footer-height must be between 0 and 10000 px (got 10001)"),
        (["layout", ".", "--width", "800", "--insets", "0,0,0,1e308"], "--insets must be between 0 and 1000 px (got 1e308)"),
        (["layout", ".", "--width", "800", "--columns", "9223372036854775807"], "--columns needs a whole number, 1–10000"),
        (["layout", ".", "--width", "800", "--max-pixels", "99999999999999999999"], "--max-pixels must be between 1 and 1000000000 (got 99999999999999999999)"),
        (["layout", ".", "--width", "800", "--jobs", "9223372036854775807"], "--jobs needs a whole number, 1–1024"),
        (["layout", ".", "--width", "30", "--columns", "3"], "--width 30 leaves no room for 3 column(s)"),
        (["layout", "/nonexistent", "--width", "800"], "/nonexistent: not a folder"),
    ])
    func badArgumentsExit64(arguments: [String], message: String) throws {
        let run = try WaterfallProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 2)  // the message and the hint
    }
}
