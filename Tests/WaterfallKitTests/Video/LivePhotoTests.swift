import Foundation
import Testing
@testable import WaterfallKit

/// Live Photos through the real binary, FFmpeg and the committed fixtures (Tests/Tools/make_live_photo_fixtures.py):
/// which still and video are one tile, what is published, what is made, and what a rebuild and --shard do.
@Suite(.serialized) struct LivePhotoTests {
    static let fixtures = Fixtures.root.appendingPathComponent("live").path
    /// The root album's tiles (by their photo page) with the Live mark, and without it.
    static let live = ["IMG_0001.HEIC", "IMG_0003.JPG", "IMG_0005.JPG", "IMG_0006.HEIC", "Still_A.JPG"]
    static let alone = ["IMG_0002.JPG", "IMG_0002.MOV", "IMG_0004.JPG", "IMG_0004.MOV", "IMG_0006.JPG"]
    /// Every identifier the fixtures carry starts so.
    static let identifier = "1F3C8B2A-"

    static func build(_ input: String, _ output: String, _ extra: [String] = []) throws -> [String: Int] {
        let (run, images) = try WaterfallProcess.buildReportingImages([input, "-o", output] + extra)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        return images
    }

    /// `<li>` elements of a gallery page, each with its photo page's name and whether it has the mark.
    static func tiles(_ page: String) throws -> [(name: String, live: Bool)] {
        let html = try String(contentsOfFile: page, encoding: .utf8)
        return html.components(separatedBy: "<li class=\"wf-tile").dropFirst().map { tile in
            let href = tile.components(separatedBy: "href=\"")[1].components(separatedBy: "\"")[0]
            let name = href.hasPrefix("photos/") ? String(href.dropFirst(7).dropLast(5)) : href
            return (name, tile.contains("wf-live-mark") && tile.contains("<span class=\"wf-hidden\">Live Photo</span>"))
        }
    }

    @Test func aFolderOfLivePhotos() throws {
        let output = try TemporaryFolder()
        let first = try Self.build(Self.fixtures, output.path)
        let tiles = try Self.tiles(output.path + "/index.html")
        #expect(tiles.count == 11, "\(tiles)")  // the Trip album's cover, 5 Live Photos, 5 alone
        #expect(Set(tiles.filter(\.live).map(\.name)) == Set(Self.live), "\(tiles)")
        #expect(Set(tiles.filter { !$0.live }.map(\.name)) == Set(Self.alone + ["Trip/index.html"]), "\(tiles)")
        #expect(try Self.tiles(output.path + "/Trip/index.html").map(\.live) == [true])

        // Each pair's video is published under its still's name; no page and no image of the paired videos.
        let files = try Fixtures.siteFiles(in: output.path)
        let videos = files.filter { $0.hasSuffix(".mp4") }
        #expect(Set(videos) == Set((Self.live.map { "images/video/\($0).mp4" }) + ["images/video/IMG_0002.MOV.mp4",
                                   "images/video/IMG_0004.MOV.mp4", "Trip/images/video/IMG_0007.JPG.mp4"]), "\(videos)")
        for paired in ["IMG_0001.MOV", "IMG_0003.MOV", "IMG_0005.MOV", "IMG_0006.MOV", "Clip_B.MOV", "IMG_0007.MOV"] {
            #expect(!files.contains { $0.contains(paired) }, "\(paired): \(files.filter { $0.contains(paired) })")
        }
        // Published like any video: Apple's identifier is not in it.
        for video in videos {
            let bytes = try String(decoding: Fixtures.bytes(output.path + "/" + video), as: UTF8.self)
            #expect(!bytes.contains("content.identifier") && !bytes.contains(Self.identifier), "\(video)")
        }
        // The page shows the still, with the video and a link to it.
        let page = try String(contentsOfFile: output.path + "/photos/IMG_0001.HEIC.html", encoding: .utf8)
        #expect(page.contains("<div class=\"wf-live-photo\">") && page.contains("href=\"../images/video/IMG_0001.HEIC.mp4\""))
        #expect(page.contains("<img src=\"../images/view/IMG_0001.HEIC.jpg\""))
        #expect(!page.contains(Self.identifier))

        // A rebuild reads nothing again and makes nothing: the hidden video's images stay in the cache.
        let again = try Self.build(Self.fixtures, output.path)
        #expect(first["made"] ?? 0 > 0 && again["made"] == 0 && again["kept"] == first["made"], "\(first) \(again)")
    }

    /// A cache an older Waterfall wrote (facts of another version, no identifiers) has its stills and videos
    /// read again for their identifiers: the pairs form, and no image is made again.
    @Test func anOlderCacheFindsThePairsWithoutMakingImages() throws {
        let output = try TemporaryFolder()
        _ = try Self.build(Self.fixtures, output.path)
        let entries = output.path + "/.waterfall/cache/photos"
        for name in try FileManager.default.contentsOfDirectory(atPath: entries) {
            let path = entries + "/" + name
            var text = try String(contentsOfFile: path, encoding: .utf8)
            text = text.replacingOccurrences(of: #", "contentIdentifier": "[^"]*""#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #""factsVersion": \#(Versions.facts)"#, with: #""factsVersion": 2"#)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        try FileManager.default.removeItem(atPath: output.path + "/.waterfall/cache/photos.index")
        let again = try Self.build(Self.fixtures, output.path)
        #expect(again["made"] == 0, "\(again)")
        #expect(Set(try Self.tiles(output.path + "/index.html").filter(\.live).map(\.name)) == Set(Self.live))
    }

    /// Two videos of a still's name: both are read as its Live Photo's, one pairs (the first by name), and the
    /// other gets its images then, and keeps them: a rebuild makes nothing. A still that cannot be read leaves
    /// its video a tile of its own.
    @Test func aVideoThatDoesNotPairAfterAllGetsItsImages() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Self.fixtures + "/IMG_0003.JPG", as: "IMG_10.JPG")
        try input.copy(Self.fixtures + "/IMG_0003.MOV", as: "IMG_10.MOV")
        try input.copy(Self.fixtures + "/IMG_0003.MOV", as: "IMG_10.mp4")
        try input.write("IMG_11.JPG", Array("not a photo".utf8))
        try input.copy(Self.fixtures + "/IMG_0005.MOV", as: "IMG_11.MOV")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet", "--report", "json"])
        #expect(run.stderr.contains("IMG_11.JPG"), "\(run.stderr)")
        let tiles = try Self.tiles(output.path + "/index.html")
        #expect(tiles.map(\.name) == ["IMG_10.JPG", "IMG_10.mp4", "IMG_11.MOV"] && tiles.map(\.live) == [true, false, false], "\(tiles)")
        let files = try Fixtures.siteFiles(in: output.path)
        #expect(files.contains("images/view/IMG_10.mp4.jpg") && files.contains("images/view/IMG_11.MOV.jpg"), "\(files)")
        let again = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet", "--report", "json"])
        let report = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any] ?? [:]
        #expect((report["images"] as? [String: Int])?["made"] == 0, "\(again.stdout)")
    }

    /// A paired video needs its own video only: the first build makes no poster or tile for it.
    @Test func aLivePhotosVideoGetsNoImagesOfItsOwn() throws {
        let pair = try TemporaryFolder(), still = try TemporaryFolder(), output = try TemporaryFolder()
        for name in ["IMG_0001.HEIC", "IMG_0001.MOV"] { try pair.copy(Self.fixtures + "/" + name, as: name) }
        try still.copy(Self.fixtures + "/IMG_0001.HEIC", as: "IMG_0001.HEIC")
        let pairMade = try Self.build(pair.path, output.path + "/pair")["made"] ?? 0
        let stillMade = try Self.build(still.path, output.path + "/still")["made"] ?? 0
        #expect(stillMade > 0 && pairMade == stillMade + 1, "the pair made \(pairMade), the still alone \(stillMade)")
    }

    /// `--shard` keeps a pair together: the shards make what one build makes, and the merged caches build the
    /// site without making anything.
    @Test func shardsKeepAPairTogether() throws {
        let output = try TemporaryFolder(), merged = try TemporaryFolder()
        let names = ["Trip/IMG_0007.JPG", "Trip/IMG_0007.MOV"]
        // With the still's name the video goes where its still goes, whatever its own name would say.
        let count = try #require((2...9).first { SiteBuilder.shard(of: names[0], count: $0) != SiteBuilder.shard(of: names[1], count: $0) })
        #expect(LivePhotoPairing.shardNames(names) == [names[0], names[0]])
        var made = 0
        for shard in 1...count {
            let cache = output.path + "/cache-\(shard)"
            made += try Self.build(Self.fixtures, output.path + "/site-\(shard)", ["--shard", "\(shard)/\(count)", "--cache-dir", cache])["made"] ?? 0
            try CIBuildTests.merge([cache], into: merged.path)
        }
        let whole = try Self.build(Self.fixtures, output.path + "/whole")
        #expect(made == whole["made"], "shards made \(made), one build \(String(describing: whole["made"]))")
        let site = try Self.build(Self.fixtures, output.path + "/site", ["--cache-dir", merged.path])
        #expect(site["made"] == 0, "\(site)")
        #expect(try Self.tiles(output.path + "/site/Trip/index.html").map(\.live) == [true])
    }
}

/// A Live Photo's video goes where its rating takes its still: left out with a rejected still (not published
/// as a video of its own), and kept with a still that `minRating` publishes, though the video has no rating.
@Suite(.serialized) struct LivePhotoRatingTests {
    func build(_ input: TemporaryFolder, _ extra: [String]) throws -> (html: String, stderr: String, site: [String]) {
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        return (try String(contentsOfFile: output.path + "/index.html", encoding: .utf8), run.stderr, try Fixtures.siteFiles(in: output.path))
    }

    @Test func theVideoFollowsItsStill() throws {
        let input = try TemporaryFolder()
        for name in ["IMG_0001.HEIC", "IMG_0001.MOV", "IMG_0002.JPG"] {
            try input.copy(LivePhotoTests.fixtures + "/" + name, as: name)
        }
        try input.write("IMG_0001.HEIC.xmp", KeywordRatingBuildTests.sidecar(keywords: ["sea"], rating: -1))
        let rejected = try build(input, [])
        #expect(!rejected.site.contains { $0.contains("IMG_0001") }, "\(rejected.site)")
        #expect(rejected.stderr.contains("1 photo rated -1 (rejected) not published"), "\(rejected.stderr)")

        try input.write("IMG_0001.HEIC.xmp", KeywordRatingBuildTests.sidecar(keywords: ["sea"], rating: 4))
        let kept = try build(input, ["--min-rating", "3"])
        #expect(kept.html.contains("wf-live-mark") && kept.site.contains("images/video/IMG_0001.HEIC.mp4"), "\(kept.site)")
        #expect(!kept.site.contains("photos/IMG_0001.MOV.html") && !kept.site.contains("photos/IMG_0002.JPG.html"))
        #expect(kept.stderr.contains("1 photo rated under 3 not published (minRating)"), "\(kept.stderr)")
    }
}
