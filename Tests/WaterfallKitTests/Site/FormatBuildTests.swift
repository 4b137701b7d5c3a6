import Foundation
import Testing
@testable import WaterfallKit

/// HEIC, AVIF, WebP and GIF in real builds: the cache, incremental rebuilds and `--shard` treat them as
/// they treat JPEG, and their output is deterministic.
struct FormatBuildTests {
    /// One of each kind: an iPhone-like grid turned by irot, an AVIF with alpha, a HEIC with an Exif item,
    /// a WebP with alpha, an animated WebP, an animated GIF and a still GIF, beside a JPEG.
    static let photos = [
        "heif/grid-irot-90.heic", "heif/alpha.avif", "heif/exif.heic", "webp/W03-alpha-lossy.webp",
        "webp/W09-animated-photo-alpha.webp", "gif/photo-animated.gif", "gif/still.gif",
    ]

    static func gallery() throws -> TemporaryFolder {
        let input = try TemporaryFolder()
        for (index, photo) in photos.enumerated() {
            let name = String(photo.split(separator: "/").last!)
            try input.copy(Fixtures.root.appendingPathComponent("formats/" + photo).path, as: index % 3 == 0 ? "Album/" + name : name)
        }
        try input.copy(BuildCommandTests.gallery + "/coffee-cup.jpg", as: "coffee-cup.jpg")
        return input
    }

    func build(_ arguments: [String]) throws -> (run: WaterfallProcess.Outcome, images: [String: Int]) {
        try WaterfallProcess.buildReportingImages(arguments)
    }

    @Test func rebuildsMakeOnlyWhatChanged() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        let first = try build([input.path, "-o", output.path])
        let made = try #require(first.images["made"])
        #expect(made >= Self.photos.count + 1)
        #expect(first.run.stderr.isEmpty, "\(first.run.stderr)")
        let before = try CIBuildTests.snapshot(output.path)
        // The animations' views are animated WebP, their tiles stills.
        #expect(before.keys.contains("images/view/photo-animated.gif.webp"))
        #expect(before.keys.contains("images/view/W09-animated-photo-alpha.webp"))

        let again = try build([input.path, "-o", output.path])
        #expect(again.images == ["made": 0, "kept": made])
        #expect(try CIBuildTests.snapshot(output.path) == before)

        // One HEIC replaced by another photo: its images alone are made again.
        try FileManager.default.removeItem(atPath: input.path + "/exif.heic")
        try input.copy(Fixtures.root.appendingPathComponent("formats/heif/still.heic").path, as: "exif.heic")
        let changed = try build([input.path, "-o", output.path])
        let remade = try #require(changed.images["made"])
        // (At most its 320-px width's tiles, 217, 276 and 320 px, and its view.)
        #expect(remade >= 1 && remade <= 4, "\(changed.images)")
        #expect(changed.images["kept"] == made - remade)
    }

    @Test func shardsMergeIntoTheSameSiteAndBuildsAreDeterministic() throws {
        let input = try Self.gallery()
        let single = try TemporaryFolder(), twin = try TemporaryFolder()
        _ = try build([input.path, "-o", single.path])
        _ = try build([input.path, "-o", twin.path, "--jobs", "1"])
        #expect(try CIBuildTests.snapshot(single.path) == CIBuildTests.snapshot(twin.path))

        let work = try TemporaryFolder()
        var caches: [String] = []
        for shard in 1...3 {
            let cache = work.path + "/cache-\(shard)"
            _ = try build([input.path, "-o", work.path + "/out-\(shard)", "--cache-dir", cache, "--shard", "\(shard)/3"])
            caches.append(cache)
        }
        try CIBuildTests.merge(caches, into: work.path + "/merged")
        let final = try TemporaryFolder()
        let merged = try build([input.path, "-o", final.path, "--cache-dir", work.path + "/merged"])
        #expect(merged.images["made"] == 0, "\(merged.images)")
        #expect(try CIBuildTests.snapshot(final.path) == CIBuildTests.snapshot(single.path))
    }
}
