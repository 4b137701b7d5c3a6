import Foundation
import Testing
@testable import WaterfallKit
#if canImport(Glibc)
import Glibc
#endif

/// Issue 26: a decoder's crash or hang costs one photo, never the build; a photo is read from one open, never
/// through a link that appeared during the build, and a photo that changes while it is read is skipped,
/// never stored under another version's hash. Each on the real binary, with real processes and signals.
struct TrustIsolationTests {
    /// A folder of the sample gallery's photos: the first in natural order is the largest (so its images take
    /// the longest to make: a build stopped at its first decoder is still making them).
    static func gallery() throws -> TemporaryFolder {
        let input = try TemporaryFolder()
        try input.copy(Fixtures.inRepository("SampleGallery/coffee-panorama.jpg"), as: "a-panorama.jpg")
        for name in ["chelsea-the-cat.jpg", "coffee-cup.jpg", "cameraman.jpg", "astronaut.jpg"] {
            let found = try #require(FileManager.default.enumerator(atPath: Fixtures.inRepository("SampleGallery"))?
                .compactMap { $0 as? String }.first { $0.hasSuffix(name) })
            try input.copy(Fixtures.inRepository("SampleGallery/" + found), as: "b-" + name)
        }
        return input
    }

    static func report(_ run: WaterfallProcess.Outcome) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
    }

    static func skipped(_ report: [String: Any]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: (report["skipped"] as? [[String: String]] ?? []).map {
            (FolderPath.lastComponent(of: $0["path"] ?? ""), $0["reason"] ?? "")
        })
    }

    @Test func aDecoderThatCrashesCostsOnePhotoAndTheRestIsBuilt() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        let build = try BackgroundBuild([input.path, "-o", output.path + "/site", "--jobs", "1", "--report", "json"])
        let decoder = try build.stopFirstDecoder()
        // A fatal signal is held while the process is stopped and delivered when it goes on.
        #expect(kill(decoder, SIGSEGV) == 0 && kill(decoder, SIGCONT) == 0)
        let run = build.finish()
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        let report = try Self.report(run)
        let skipped = Self.skipped(report)
        #expect(skipped.count == 1, "\(skipped)")
        #expect(skipped.values.first == "the JPEG decoder crashed (signal 11: segmentation fault)")
        #expect(report["photos"] as? Int == 4)
        #expect(run.stderr.contains(": skipped: the JPEG decoder crashed (signal 11: segmentation fault)\n"))
    }

    @Test func aHEIFWhoseItemsReferToEachOtherInARingIsOnePhotosProblem() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        let ring = input.path + "/ring.heic"
        let script = """
            import sys; sys.path.insert(0, sys.argv[1])
            from heifbox import grid_descriptor, heif_file, ispe
            items = [{"id": 1, "type": b"grid", "data": grid_descriptor(1, 1, 64, 64), "properties": [ispe(64, 64)]},
                     {"id": 2, "type": b"grid", "data": grid_descriptor(1, 1, 64, 64), "properties": [ispe(64, 64)], "hidden": True}]
            open(sys.argv[2], "wb").write(heif_file(b"heic", items, 1, references=[(b"dimg", 1, [2]), (b"dimg", 2, [1])]))
            """
        try Self.python(script, Fixtures.inRepository("Tests/Tools"), ring)
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--report", "json", "--quiet"])
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        let report = try Self.report(run)
        #expect(report["photos"] as? Int == 5)
        let reason = try #require(Self.skipped(report)["ring.heic"])
        #expect(!reason.isEmpty && !reason.contains("\n"))
        for command in [["inspect", ring], ["inspect", "--json", ring], ["layout", input.path, "--width", "800"]] {
            let inspected = try WaterfallProcess.run(command)
            #expect(!inspected.signalled && inspected.status <= 1, "\(command): \(inspected.status) \(inspected.stderr)")
            #expect(inspected.stderr.contains("ring.heic: "), "\(inspected.stderr)")
        }
        let resized = try WaterfallProcess.run(["resize", ring, "-o", output.path + "/resized", "--width", "50"])
        #expect(resized.status == 1 && !resized.signalled && resized.stderr.contains("ring.heic: "), "\(resized.stderr)")
    }

    @Test func aPhotoSwappedForALinkDuringTheBuildIsNotReadThroughIt() throws {
        let input = try Self.gallery(), output = try TemporaryFolder(), outside = try TemporaryFolder()
        let secret = try outside.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "secret.jpg")
        let build = try BackgroundBuild([input.path, "-o", output.path + "/site", "--jobs", "1", "--report", "json",
                                         "--originals", "copy"])
        let decoder = try build.stopFirstDecoder()
        // While the first photo is being made, every other one becomes a link to a photo outside the input.
        for name in ["b-chelsea-the-cat.jpg", "b-coffee-cup.jpg", "b-astronaut.jpg", "b-cameraman.jpg"] {
            #expect(unlink(input.path + "/" + name) == 0)
            try Trust.symlink(secret, at: input.path + "/" + name)
        }
        #expect(kill(decoder, SIGCONT) == 0)
        let run = build.finish()
        #expect(run.status == 0, "\(run.stderr)")
        let skipped = Self.skipped(try Self.report(run))
        #expect(skipped.count == 4, "\(skipped)")
        for reason in skipped.values { #expect(reason.contains("symbolic link to \(secret), outside the input"), "\(reason)") }
        // Not one byte of it in the site, nor in the cache.
        let secretBytes = try Fixtures.bytes(secret)
        let everything = (FileManager.default.enumerator(atPath: output.path)?.compactMap { $0 as? String } ?? [])
        #expect(everything.contains { $0.hasSuffix("originals/a-panorama.jpg") })
        for file in everything where !FolderWalker.isDirectory(output.path + "/" + file) {
            #expect(try Fixtures.bytes(output.path + "/" + file) != secretBytes, "\(file)")
            #expect(!file.contains("chelsea") && !file.contains("cameraman"), "\(file)")
        }
    }

    @Test func aPhotoThatChangesWhileItIsReadIsSkippedAndNotCached() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        let build = try BackgroundBuild([input.path, "-o", output.path + "/site", "--jobs", "1", "--report", "json"])
        let decoder = try build.stopFirstDecoder()
        // The first photo, open and hashed, its images being made: written to in place (same file, same size).
        let first = input.path + "/a-panorama.jpg"
        var bytes = try Fixtures.bytes(first)
        bytes[bytes.count - 3] ^= 0xFF
        let descriptor = open(first, O_WRONLY)
        #expect(descriptor >= 0)
        #expect(bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + bytes.count - 3, 1, off_t(bytes.count - 3)) } == 1)
        close(descriptor)
        #expect(kill(decoder, SIGCONT) == 0)
        let run = build.finish()
        #expect(run.status == 0, "\(run.stderr)")
        let skipped = Self.skipped(try Self.report(run))
        #expect(skipped == ["a-panorama.jpg": "changed while it was read; it is read again next time"])
        // Nothing of it was cached: the next build reads it again, and publishes it.
        let cacheEntries = try FileManager.default.contentsOfDirectory(atPath: output.path + "/site/.waterfall/cache/photos")
        #expect(cacheEntries.count == 4, "\(cacheEntries)")
        let again = try WaterfallProcess.run(["build", input.path, "-o", output.path + "/site", "--report", "json", "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.skipped(try Self.report(again)).isEmpty, "\(again.stdout)")
    }

    @Test func decodersEndWithTheirBuild() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        let build = try BackgroundBuild([input.path, "-o", output.path + "/site", "--jobs", "1"])
        let decoder = try build.stopFirstDecoder()
        #expect(kill(decoder, SIGCONT) == 0)
        #expect(kill(build.process.processIdentifier, SIGKILL) == 0)
        _ = build.finish()
        // Not a timing check: a watchdog, generous, for a decoder that would otherwise live on.
        let deadline = Date().addingTimeInterval(30)
        while !BackgroundBuild.isGone(decoder) && Date() < deadline { usleep(10_000) }
        #expect(BackgroundBuild.isGone(decoder), "decoder \(decoder) outlived its build")
    }

    @Test func aHugeFileThatIsNoFormatIsRefusedBeforeItIsHashed() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        let sparse = input.path + "/holiday.mp4"
        #expect(FileManager.default.createFile(atPath: sparse, contents: nil))
        #expect(truncate(sparse, 60 << 30) == 0)
        // A watchdog, not a timing check: hashing 60 GiB of holes took 43-105 s.
        let (run, killed) = try WaterfallProcess.runKilling(["build", input.path, "-o", output.path, "--report", "json", "--quiet"],
                                                            timeout: 600)
        #expect(!killed && run.status == 0, "\(run.stderr)")
        #expect(Self.skipped(try Self.report(run))["holiday.mp4"] == "not an image format Waterfall reads (starts with 00 00 00 00)")
    }

    /// A real MP4's `ftyp` box, then 60 GiB of holes: a video file no program plays. It is probed before any
    /// of it is hashed (hashing it took 27 s), so the build stays within a few seconds of CPU: the cap is a
    /// budget that a hash of the holes would overrun, not a timing.
    @Test func aHugeVideoNoProgramPlaysIsRefusedBeforeItIsHashed() throws {
        let input = try Self.gallery(), output = try TemporaryFolder()
        let sample = try Fixtures.bytes(Fixtures.inRepository("SampleGallery/Phone/hubble-pan.mp4"))
        let size = Int(sample[0]) << 24 | Int(sample[1]) << 16 | Int(sample[2]) << 8 | Int(sample[3])
        #expect(sample[4..<8].elementsEqual("ftyp".utf8) && size < 64)
        let sparse = input.path + "/holiday.mp4"
        #expect(FileManager.default.createFile(atPath: sparse, contents: Data(sample.prefix(size))))
        #expect(truncate(sparse, 60 << 30) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"ulimit -t 8 && exec "$0" "$@""#, WaterfallProcess.executable.path,
                             "build", input.path, "-o", output.path, "--report", "json", "--quiet"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let json = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "killed by its CPU budget?")
        let skipped = Self.skipped(try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:])
        #expect(skipped["holiday.mp4"] != nil, "\(skipped)")
    }

    static func python(_ script: String, _ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
