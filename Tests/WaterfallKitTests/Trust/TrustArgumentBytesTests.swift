import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 26: arguments are bytes. A path on the command line that is not UTF-8 is used exactly as given
/// (it used to be decoded with U+FFFD in place of each stray byte: `-o out\xFE` wrote into `out\xEF\xBF\xBD`,
/// and an input `in\xFF` was "not a folder"), every check on it compares bytes, and messages show it
/// escaped as the scan shows names (`in\xFF`).
struct TrustArgumentBytesTests {
    /// `folder` + `/` + `name` + the bytes + `rest`, as one path.
    static func path(_ folder: String, _ name: String, _ bytes: [UInt8], _ rest: String = "") -> [UInt8] {
        Array((folder + "/" + name).utf8) + bytes + Array(rest.utf8)
    }

    /// Renames a folder made by Foundation to a name that is not UTF-8.
    static func rename(_ from: String, to path: [UInt8]) throws {
        guard Glibc.rename(from, Trust.cPath(path)) == 0 else { throw Trust.POSIXFailure("rename", path) }
    }

    /// Every path of `build` named by bytes that are not UTF-8: the input, the output, the cache, the report,
    /// the theme and the settings file are each that very file or folder, and nothing else is made.
    @Test func everyPathOfABuildIsUsedByteForByte() throws {
        let work = try TemporaryFolder()
        let input = Self.path(work.path, "in", [0xFF]), output = Self.path(work.path, "out", [0xFE])
        let cache = Self.path(work.path, "cache", [0xFD]), report = Self.path(work.path, "report", [0xFC], ".json")
        let theme = Self.path(work.path, "theme", [0xFB]), settings = Self.path(work.path, "settings", [0xFA], ".json")
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input + Array("/a.jpg".utf8))
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: input + Array("/Trip/b.jpg".utf8))
        try FileManager.default.copyItem(atPath: Trust.templates, toPath: work.path + "/theme")
        try Self.rename(work.path + "/theme", to: theme)
        try Trust.write(bytes: settings, Array(#"{"title": "Bytes"}"#.utf8))
        let before = Trust.snapshot(work.path)
        let arguments = [Array("build".utf8), input, Array("-o".utf8), output, Array("--cache-dir".utf8), cache,
                         Array("--report".utf8), report, Array("--templates".utf8), theme, Array("--config".utf8), settings]

        let run = try ByteArgumentProcess.run(arguments)
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        #expect(run.stderr.hasSuffix(" → \(work.path)/out\\xFE/index.html\n"), "\(run.stderr)")
        let names = Set(Trust.snapshot(work.path).keys.filter { !$0.contains(UInt8(ascii: "/")) })
        #expect(names == Set([input, output, cache, report, theme, settings].map { Array($0.dropFirst(work.path.utf8.count + 1)) }),
                "\(names.map { String(decoding: $0, as: UTF8.self) })")
        #expect(!Trust.snapshot(work.path).keys.contains { Data($0).range(of: Data([0xEF, 0xBF, 0xBD])) != nil }, "a name with U+FFFD was made")
        let site = String(decoding: try Trust.read(bytes: output + Array("/index.html".utf8)), as: UTF8.self)
        #expect(site.contains("<title>Bytes</title>"), "the settings file was not read")
        #expect(Trust.describe(output + Array("/Trip/photos/b.jpg.html".utf8))?.hasPrefix("file ") == true)
        #expect(Trust.describe(cache + Array("/CACHEDIR.TAG".utf8))?.hasPrefix("file ") == true, "the cache is not where it was named")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try Trust.read(bytes: report))) as? [String: Any])
        #expect(json["input"] as? String == work.path + "/in\\xFF")
        #expect(json["output"] as? String == work.path + "/out\\xFE")
        // The input and the theme are as they were.
        let after = Trust.snapshot(work.path)
        #expect(Trust.changes(before, after.filter { before[$0.key] != nil }).isEmpty)

        // The same command again finds the site as it left it.
        let again = try ByteArgumentProcess.run(arguments)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(String(decoding: try Trust.read(bytes: report), as: UTF8.self).contains(#""unchanged": true"#))
    }

    /// The checks on such paths compare bytes: `in\xFE` beside the input `in\xFF` is another folder (both
    /// read as `in\u{FFFD}` as text), a link to it leads out of the input, and the output still may not be
    /// the input. A refused build leaves no folder behind, not even one it had to make to name a path.
    @Test func theChecksOnSuchPathsCompareBytes() throws {
        let work = try TemporaryFolder()
        let input = Self.path(work.path, "in", [0xFF]), sibling = Self.path(work.path, "in", [0xFE])
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input + Array("/a.jpg".utf8))
        let secret = "outside secret \(UUID().uuidString)"
        try Trust.write(bytes: sibling + Array("/notes.txt".utf8), Array(secret.utf8))
        guard symlink(Trust.cPath(Array("../in".utf8) + [0xFE] + Array("/notes.txt".utf8)), Trust.cPath(input + Array("/a.txt".utf8))) == 0 else {
            throw Trust.POSIXFailure("symlink", input)
        }
        let before = Trust.snapshot(work.path)
        let throughNew = input + Array("/new".utf8) + [0xF0] + Array("/..".utf8)
        for (output, shown) in [(input, "\(work.path)/in\\xFF"), (throughNew, "\(work.path)/in\\xFF/new\\xF0/..")] {
            let run = try ByteArgumentProcess.run([Array("build".utf8), input, Array("-o".utf8), output])
            #expect(run.status == 1 && !run.signalled)
            #expect(run.stderr == "waterfall: the output folder \(shown) is the input folder; choose another, such as _site\n")
            #expect(Trust.changes(before, Trust.snapshot(work.path)).isEmpty, "something was written")
        }
        let cacheInside = try ByteArgumentProcess.run([Array("build".utf8), input, Array("-o".utf8), Array((work.path + "/out").utf8),
                                                       Array("--cache-dir".utf8), input + Array("/c".utf8) + [0xFA]])
        #expect(cacheInside.status == 1)
        #expect(cacheInside.stderr.hasPrefix("waterfall: the cache folder \(work.path)/in\\xFF/c\\xFA is inside the input folder"), "\(cacheInside.stderr)")
        #expect(Trust.changes(before, Trust.snapshot(work.path)).isEmpty, "the cache folder made to name it was left behind")

        let output = Self.path(work.path, "in", [0xFD])
        let run = try ByteArgumentProcess.run([Array("build".utf8), input, Array("-o".utf8), output, Array("--quiet".utf8)])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "waterfall: \(work.path)/in\\xFF/a.txt: skipped: symbolic link to ../in\\xFE/notes.txt, outside "
            + "the input (--follow-symlinks allows it)\n")
        #expect(Trust.describe(output + Array("/photos/a.jpg.html".utf8))?.hasPrefix("file ") == true)
        let published = Trust.snapshot(work.path).filter { $0.key.starts(with: Array(output.dropFirst(work.path.utf8.count + 1))) }
        for (path, description) in published where description.hasPrefix("file ") {
            let bytes = try Trust.read(bytes: Array((work.path + "/").utf8) + path)
            #expect(Data(bytes).range(of: Data(secret.utf8)) == nil, "a byte from outside the input was published in \(path)")
        }
    }

    /// `inspect`, `layout` and `resize` take such paths too; one that does not exist is reported by its
    /// escaped name, in its place.
    @Test func inspectLayoutAndResizeTakeSuchPaths() throws {
        let work = try TemporaryFolder()
        let input = Self.path(work.path, "in", [0xFF]), missing = Self.path(work.path, "nosuch", [0xFF])
        let named = input + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8)
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input + Array("/a.jpg".utf8))
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: named)

        let inspect = try ByteArgumentProcess.run([Array("inspect".utf8), Array("--json".utf8), input + Array("/a.jpg".utf8), named, missing])
        #expect(inspect.status == 1)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [[String: Any]], "\(inspect.stdout)")
        #expect(items.map { $0["path"] as? String } == ["\(work.path)/in\\xFF/a.jpg", "\(work.path)/in\\xFF/caf\\xE9.jpg", "\(work.path)/nosuch\\xFF"])
        #expect(items.map { $0["width"] as? Int } == [600, 290, nil])
        #expect(inspect.stderr == "waterfall: \(work.path)/nosuch\\xFF: cannot open: No such file or directory\n")

        let layout = try ByteArgumentProcess.run([Array("layout".utf8), input, Array("--width".utf8), Array("400".utf8), Array("--json".utf8)])
        #expect(layout.status == 0, "\(layout.stderr)")
        #expect(layout.stdout.contains(#""a.jpg""#))
        #expect(layout.stderr == "waterfall: \(work.path)/in\\xFF/caf\\xE9.jpg: skipped: the name is not valid UTF-8 (rename it to publish it)\n")
        let noFolder = try ByteArgumentProcess.run([Array("layout".utf8), missing, Array("--width".utf8), Array("400".utf8)])
        #expect(noFolder.status == 64)
        #expect(noFolder.stderr.hasPrefix("waterfall: \(work.path)/nosuch\\xFF: not a folder\n"))

        let resized = Self.path(work.path, "r", [0xF0])
        let resize = try ByteArgumentProcess.run([Array("resize".utf8), input + Array("/a.jpg".utf8), named, Array("-o".utf8), resized,
                                                  Array("--width".utf8), Array("50".utf8)])
        #expect(resize.status == 1)
        #expect(resize.stderr == "waterfall: \(work.path)/in\\xFF/caf\\xE9.jpg: skipped: the name is not valid UTF-8 (rename it to resize it)\n")
        #expect(Trust.describe(resized + Array("/a.jpg".utf8))?.hasPrefix("file ") == true)
    }

    /// The default title is the input folder's name, as text (a stray byte reads as U+FFFD there, in a page).
    @Test func theDefaultTitleIsTheFoldersName() throws {
        let work = try TemporaryFolder()
        let input = Self.path(work.path, "Trip", [0xE9])
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: input + Array("/a.jpg".utf8))
        let run = try ByteArgumentProcess.run([Array("build".utf8), input, Array("-o".utf8), Array((work.path + "/out").utf8), Array("--quiet".utf8)])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Trust.read(work.path + "/out/index.html").contains("<title>Trip\u{FFFD}</title>"))
    }
}
