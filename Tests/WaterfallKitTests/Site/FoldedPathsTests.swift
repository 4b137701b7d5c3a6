import Testing
@testable import WaterfallKit

/// The folder-by-folder clash check finds what folding every whole path finds (the check it replaced), and
/// reports the same clash: the earliest path that meets an earlier one, files before folders.
struct FoldedPathsTests {
    /// The whole-path check `FoldedPaths` replaced, as the reference.
    static func reference(_ paths: [String]) -> String? {
        var files: [String: String] = [:]
        var folders: [String: String] = [:]
        for path in paths {
            let folded = NameAllocator.fold(path)
            if let other = files.updateValue(path, forKey: folded) {
                return "\(path): and \(PathText.display(other)) would be the same file on some file systems"
            }
            var folder = SitePath.folder(of: path)
            while !folder.isEmpty {
                folders[NameAllocator.fold(folder)] = folder
                folder = SitePath.folder(of: folder)
            }
        }
        let both = paths.filter { folders[NameAllocator.fold($0)] != nil }
        return both.first.map { "\($0): is both a file and the folder of \(PathText.display(folders[NameAllocator.fold($0)]!))/…" }
    }

    static func problem(_ paths: [String], jobs: Int = 2) -> String? {
        do {
            try FoldedPaths(paths: paths).check(jobs: jobs)
            return nil
        } catch {
            return "\(error.path): \(error.reason)"
        }
    }

    static let cases: [[String]] = [
        ["a.html", "b/c.html", "b/d.html"],
        ["photos/A.html", "photos/a.html"],
        ["caf\u{E9}.html", "cafe\u{301}.html"],
        ["x", "X/y.html"],
        ["Trips/a.jpg", "trips/A.JPG", "trips/b.jpg"],
        ["caf\u{E9}/a.html", "cafe\u{301}/b.html", "CAFE\u{301}/A.html"],
        ["a/b/c.html", "A/B", "d.html"],
        ["Σ/ς.html", "σ/Σ.html"],
        ["straße.html", "STRASSE.html"],
        ["z/1.html", "z/2.html", "Z/2.HTML", "z/1.HTML"],
        ["same.html", "same.html"],
        ["images/500/IMG_1.jpg", "images/500/img_1.jpg", "images/view/IMG_1.jpg", "photos/IMG_1.jpg.html"],
    ]

    @Test(arguments: cases)
    func findsWhatFoldingWholePathsFinds(paths: [String]) {
        #expect(Self.problem(paths) == Self.reference(paths))
        #expect(Self.problem(paths, jobs: 1) == Self.reference(paths))
    }

    @Test func manyFoldersAndNoClash() {
        let paths = (0..<2_000).map { "album-\($0 % 37)/images/\($0 % 3)/IMG_\($0).jpg" }
        #expect(Self.problem(paths) == nil)
        #expect(Self.problem(paths + ["ALBUM-3/images/0/img_3.JPG"]) == Self.reference(paths + ["ALBUM-3/images/0/img_3.JPG"]))
    }

    /// The split of a name by bytes (ASCII) is the split by characters.
    @Test(arguments: PathFastPathTests.names + ["a.jpg", "IMG_1.JPEG", "a. b", "a.\u{301}", "x.abcdefghijklmnopq", "a.é"])
    func splitMatchesTheCharacterWalk(name: String) {
        let split = NameAllocator.split(name)
        var expected = (stem: name, ext: "")
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let ext = name[dot...]
            if ext.count > 1, ext.utf8.count <= 16, !ext.contains(" ") { expected = (String(name[..<dot]), String(ext)) }
        }
        #expect(split.stem == expected.stem && split.ext == expected.ext)
    }
}
