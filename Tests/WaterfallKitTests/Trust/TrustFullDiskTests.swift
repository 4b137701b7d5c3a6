import Foundation
import Testing
@testable import WaterfallKit
#if canImport(Glibc)
import Glibc
#endif

/// Issue 26: a full disk is not a photo's problem. A build that runs out of space stops with one line and
/// exit status 1, leaves the last site exactly as it was and the cache consistent, and the next build, with
/// room again, gives the same site as a fresh one. On a small tmpfs: run as root (CI is), skipped otherwise.
@Suite(.enabled(if: SmallDisk.canMount, "needs root to mount a small tmpfs"))
struct TrustFullDiskTests {
    @Test func aBuildThatRunsOutOfSpaceStopsAndLeavesTheLastSite() throws {
        // The first site takes some 400 KB, the second some 2.6 MB.
        let disk = try SmallDisk(kilobytes: 1536)
        let input = try TemporaryFolder()
        for name in ["chelsea-the-cat.jpg", "coffee-cup.jpg", "cameraman.jpg"] {
            try input.copy(Fixtures.inRepository("SampleGallery/" + name), as: name)
        }
        let site = disk.path + "/site"
        let first = try WaterfallProcess.run(["build", input.path, "-o", site, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = Trust.snapshot(site) { $0.starts(with: Array(".waterfall".utf8)) }

        // The whole sample gallery does not fit.
        let more = Fixtures.inRepository("SampleGallery")
        for name in try FileManager.default.subpathsOfDirectory(atPath: more) where name.hasSuffix(".jpg") {
            try input.copy(more + "/" + name, as: "more-" + name.replacingOccurrences(of: "/", with: "-"))
        }
        let full = try WaterfallProcess.run(["build", input.path, "-o", site, "--quiet"])
        #expect(full.status == 1 && !full.signalled, "\(full.stderr)")
        let lines = full.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(full.stderr)")
        #expect(full.stderr.contains("No space left on device"), "\(full.stderr)")
        #expect(full.stderr.hasSuffix("the build stopped, and the last site was left as it was\n"), "\(full.stderr)")
        #expect(Trust.snapshot(site) { $0.starts(with: Array(".waterfall".utf8)) } == before)

        // With room again (the extra photos gone), the site is the one a fresh build makes.
        for name in try FileManager.default.contentsOfDirectory(atPath: input.path) where name.hasPrefix("more-") {
            try FileManager.default.removeItem(atPath: input.path + "/" + name)
        }
        let again = try WaterfallProcess.run(["build", input.path, "-o", site, "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        let fresh = try TemporaryFolder()
        #expect(try WaterfallProcess.run(["build", input.path, "-o", fresh.path + "/site", "--quiet"]).status == 0)
        #expect(Trust.snapshot(site) { $0.starts(with: Array(".waterfall".utf8)) }
                == Trust.snapshot(fresh.path + "/site") { $0.starts(with: Array(".waterfall".utf8)) })
    }

    /// The cache elsewhere, with room: the images are made, and it is the site that does not fit when it is
    /// staged. The same line, the same exit status, the last site as it was, nothing left in the staging folder.
    @Test func aSiteThatDoesNotFitWhenWrittenLeavesTheLastOne() throws {
        let disk = try SmallDisk(kilobytes: 900)
        let input = try TemporaryFolder(), cache = try TemporaryFolder()
        for name in ["chelsea-the-cat.jpg", "coffee-cup.jpg", "cameraman.jpg"] {
            try input.copy(Fixtures.inRepository("SampleGallery/" + name), as: name)
        }
        let site = disk.path + "/site"
        let arguments = [input.path, "-o", site, "--cache-dir", cache.path + "/cache", "--quiet"]
        #expect(try WaterfallProcess.run(["build"] + arguments).status == 0)
        let before = Trust.snapshot(site) { $0.starts(with: Array(".waterfall".utf8)) }
        for name in ["coffee-espresso.jpg", "brick-wall.jpg", "retina-fundus.jpg", "retina-panorama.jpg", "coffee-panorama.jpg"] {
            try input.copy(Fixtures.inRepository("SampleGallery/" + name), as: name)
        }
        let full = try WaterfallProcess.run(["build"] + arguments)
        #expect(full.status == 1 && !full.signalled, "\(full.stderr)")
        #expect(full.stderr.split(separator: "\n").count == 1 && full.stderr.contains("No space left on device")
                && full.stderr.hasSuffix("the build stopped, and the last site was left as it was\n"), "\(full.stderr)")
        #expect(Trust.snapshot(site) { $0.starts(with: Array(".waterfall".utf8)) } == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site + "/.waterfall/tmp").isEmpty)
    }
}

extension TrustFullDiskTests {
    /// The room may run out at the very end, while the site's files are put in place (the journal of what is
    /// put there, the new manifest): at every disk size near the one the new site just fits, a build either
    /// makes the site a fresh build makes or fails with one line and leaves the last site exactly as it was.
    /// (Before the commit wrote its records first, one size in a few left 24 new images in the site.)
    @Test func noDiskSizeLeavesAHalfCommittedSite() throws {
        let input = try TemporaryFolder(), cache = try TemporaryFolder(), fresh = try TemporaryFolder()
        let first = ["chelsea-the-cat.jpg", "coffee-cup.jpg", "cameraman.jpg"]
        for name in first + ["coffee-espresso.jpg", "brick-wall.jpg", "retina-fundus.jpg", "retina-panorama.jpg"] {
            try input.copy(Fixtures.inRepository("SampleGallery/" + name), as: name)
        }
        let exclude: ([UInt8]) -> Bool = { $0.starts(with: Array(".waterfall".utf8)) }
        // Each build from a folder of its own, named alike (the site's title is the folder's name).
        func build(_ site: String, only: [String]? = nil) throws -> WaterfallProcess.Outcome {
            let scratch = try TemporaryFolder(), folder = scratch.path + "/Photos"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            for name in try only ?? FileManager.default.contentsOfDirectory(atPath: input.path) {
                try FileManager.default.copyItem(atPath: input.path + "/" + name, toPath: folder + "/" + name)
            }
            return try WaterfallProcess.run(["build", folder, "-o", site, "--cache-dir", cache.path + "/cache", "--quiet"])
        }
        // The whole site, built once where there is room: the images are in the cache from now on.
        #expect(try build(fresh.path + "/site").status == 0)
        let want = Trust.snapshot(fresh.path + "/site", skipping: exclude)
        // Does the second site fit on a disk of this many kilobytes, over the first? Whatever the answer, the
        // site is one of the two.
        func fits(_ kilobytes: Int) throws -> Bool {
            let disk = try SmallDisk(kilobytes: kilobytes)
            let site = disk.path + "/site"
            guard try build(site, only: first).status == 0 else { return false }
            let before = Trust.snapshot(site, skipping: exclude)
            let second = try build(site)
            if second.status == 0 {
                let made = Trust.snapshot(site, skipping: exclude)
                let same = made == want
                #expect(same, "\(kilobytes) KB: not the fresh site: \(Trust.differences(made, want))")
                return true
            }
            #expect(second.status == 1 && !second.signalled && second.stderr.split(separator: "\n").count == 1
                    && second.stderr.contains("No space left on device"), "\(kilobytes) KB: \(second.stderr)")
            let after = Trust.snapshot(site, skipping: exclude)
            let kept = after == before
            #expect(kept, "\(kilobytes) KB: the last site changed (\(Trust.differences(after, before))): \(second.stderr)")
            return false
        }
        // The smallest size that fits, to a page (tmpfs sizes are whole pages), then every page below it that
        // a commit's records could need.
        var low = 256, high = 16_384
        #expect(try !fits(low) && fits(high))
        while high - low > 4 {
            let middle = (low + high) / 8 * 4
            if try fits(middle) { high = middle } else { low = middle }
        }
        for kilobytes in stride(from: high - 4, through: max(high - 64, 4), by: -4) {
            _ = try fits(kilobytes)
        }
    }
}

/// A tmpfs of a few hundred kilobytes, mounted for one test and unmounted after.
final class SmallDisk {
    let path: String
    private let folder: TemporaryFolder

    init(kilobytes: Int) throws {
        folder = try TemporaryFolder()
        path = folder.path + "/disk"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(kilobytes)k") == 0 else {
            throw Trust.POSIXFailure("mount", Array(path.utf8))
        }
    }

    deinit { umount2(path, Int32(MNT_DETACH)) }

    /// Whether this process may mount one (root, with the capability a container may withhold).
    static let canMount: Bool = {
        guard geteuid() == 0, let probe = try? SmallDisk(kilobytes: 64) else { return false }
        _ = probe
        return true
    }()
}
