import Foundation
import Testing
@testable import WaterfallKit

/// Built in CI: caches outside the output, shards merged into one site, builds killed half way, reports.
struct CIBuildTests {
    /// Every file of a site (the `.waterfall` bookkeeping aside), with its bytes.
    static func snapshot(_ site: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: site)! where !path.hasPrefix(".waterfall") {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: site + "/" + path, isDirectory: &isFolder)
            if !isFolder.boolValue { files[path] = try Fixtures.bytes(site + "/" + path) }
        }
        return files
    }

    /// Copies every file of each cache folder into `merged`, as a CI job that downloads the shards'
    /// artefacts into one folder does.
    static func merge(_ caches: [String], into merged: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: merged, withIntermediateDirectories: true)
        for cache in caches {
            for case let path as String in manager.enumerator(atPath: cache)! {
                var isFolder: ObjCBool = false
                _ = manager.fileExists(atPath: cache + "/" + path, isDirectory: &isFolder)
                let target = merged + "/" + path
                if isFolder.boolValue {
                    try manager.createDirectory(atPath: target, withIntermediateDirectories: true)
                } else if !manager.fileExists(atPath: target) {
                    try manager.copyItem(atPath: cache + "/" + path, toPath: target)
                }
            }
        }
    }

    func report(_ run: WaterfallProcess.Outcome) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    static func gallery(_ names: [String]) throws -> TemporaryFolder {
        let input = try TemporaryFolder()
        for name in names {
            try input.copy(BuildCommandTests.gallery + "/" + (name.split(separator: "/").last.map(String.init) ?? name), as: name)
        }
        return input
    }

    @Test(arguments: [1, 2, 3, 7])
    func shardedBuildsMergeIntoTheSameSite(shards: Int) throws {
        // The fixture gallery's photos, some in an album; with 7 shards some shards get no photo at all.
        let photos = shards == 7
            ? ["coffee-cup.jpg", "Trip/hubble-tall.jpg", "cameraman-skyline.png"]
            : BuildCommandTests.readablePhotos.enumerated().map { $0 % 4 == 0 ? "Trip/" + $1 : $1 }
        let input = try Self.gallery(photos)
        let single = try TemporaryFolder()
        #expect(try WaterfallProcess.run(["build", input.path, "-o", single.path, "--quiet"]).status == 0)

        let work = try TemporaryFolder()
        var caches: [String] = []
        var counted = 0
        for shard in 1...shards {
            let cache = work.path + "/cache-\(shard)"
            let run = try WaterfallProcess.run(["build", input.path, "-o", work.path + "/out-\(shard)", "--cache-dir", cache,
                                                "--shard", "\(shard)/\(shards)", "--quiet", "--report", "json"])
            #expect(run.status == 0, "\(run.stderr)")
            counted += try report(run)["photos"] as? Int ?? -1
            #expect(!FileManager.default.fileExists(atPath: work.path + "/out-\(shard)/index.html"))  // no pages
            caches.append(cache)
        }
        #expect(counted == photos.count)  // every photo in exactly one shard
        // A shard's closing line says where its work went: no page is written.
        let said = try WaterfallProcess.run(["build", input.path, "-o", work.path + "/out-1", "--cache-dir", caches[0], "--shard", "1/\(shards)"])
        #expect(said.stderr.contains("→ the cache (shard 1/\(shards): images, no pages)") && !said.stderr.contains("index.html"), "\(said.stderr)")

        // The merge runs "on another machine": the photos' time stamps differ from the shards'.
        for path in photos { try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: input.path + "/" + path) }
        let merged = work.path + "/merged"
        try Self.merge(caches, into: merged)
        let final = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", input.path, "-o", final.path, "--cache-dir", merged, "--quiet", "--report", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let images = try #require(try report(run)["images"] as? [String: Int])
        #expect(images["made"] == 0, "the merged build decoded \(images["made"] ?? -1) images")
        #expect(try Self.snapshot(final.path) == Self.snapshot(single.path))
    }

    @Test func aBuildKilledAtAnyMomentThenRerunEqualsACleanBuild() throws {
        let input = try Self.gallery(BuildCommandTests.readablePhotos)
        let clean = try TemporaryFolder()
        #expect(try WaterfallProcess.run(["build", input.path, "-o", clean.path, "--quiet", "--jobs", "1"]).status == 0)
        let expected = try Self.snapshot(clean.path)
        for delay in [0.005, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3] {
            let output = try TemporaryFolder()
            let process = Process()
            process.executableURL = WaterfallProcess.executable
            process.arguments = ["build", input.path, "-o", output.path, "--quiet", "--jobs", "1"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let rerun = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"])
            #expect(rerun.status == 0, "after a kill at \(delay) s: \(rerun.stderr)")
            #expect(try Self.snapshot(output.path) == expected, "after a kill at \(delay) s")
        }
    }

    @Test func aCacheOutsideTheOutputServesAFreshOutput() throws {
        let input = try Self.gallery(["coffee-cup.jpg", "hubble-tall.jpg"])
        let cache = try TemporaryFolder()
        let first = try TemporaryFolder(), second = try TemporaryFolder()
        let made = try WaterfallProcess.run(["build", input.path, "-o", first.path, "--cache-dir", cache.path, "--report", "json", "--quiet"])
        #expect((try report(made)["images"] as? [String: Int])?["made"] == 11)  // the cup: 6 tile widths and the view; hubble-tall, 290 px wide: 3 and the view
        #expect(!FileManager.default.fileExists(atPath: first.path + "/.waterfall/cache"))
        let reused = try WaterfallProcess.run(["build", input.path, "-o", second.path, "--cache-dir", cache.path, "--report", "json", "--quiet"])
        let json = try report(reused)
        #expect((json["images"] as? [String: Int]) == ["made": 0, "kept": 11])
        #expect((json["cache"] as? [String: Int])?["headers"] == 2)
        #expect(try Self.snapshot(first.path) == Self.snapshot(second.path))
    }

    @Test func theReportHasTheDocumentedFields() throws {
        let output = try TemporaryFolder()
        let run = try WaterfallProcess.run(["build", BuildCommandTests.gallery, "-o", output.path, "--quiet", "--report", "json"])
        #expect(run.status == 0)
        let json = try report(run)
        #expect(Set(json.keys) == ["report", "waterfall", "status", "exitCode", "input", "output", "photos", "albums", "pages", "pagesRendered", "unchanged",
                                   "skipped", "images", "cache", "sidecarsRead", "removed", "leftInPlace", "seconds", "work"])
        #expect(json["status"] as? String == "ok" && json["exitCode"] as? Int == 0 && json["photos"] as? Int == 15)
        #expect((json["skipped"] as? [[String: String]])?.first?["reason"] == BuildCommandTests.notAPhotoReason)
        #expect(Set((json["seconds"] as? [String: Double])?.keys ?? [:].keys) == ["scan", "images", "pages", "total"])
        // The work split of a first build: the sample's photos are new to it, so pixels were decoded,
        // resampled and encoded (reading and hashing its small files may round to 0 ms).
        let work = json["work"] as? [String: Double] ?? [:]
        #expect(Set(work.keys) == ["read", "hash", "decode", "resample", "encode", "store"])
        #expect(["decode", "resample", "encode"].allSatisfy { work[$0] ?? 0 > 0 } && work.values.allSatisfy { $0 >= 0 }, "\(work)")
        let file = output.path + "/../report-\(UUID().uuidString).json"
        let strict = try WaterfallProcess.run(["build", BuildCommandTests.gallery, "-o", output.path, "--strict", "--report", file])
        #expect(strict.status == 1)
        let failed = try #require(JSONSerialization.jsonObject(with: Fixtures.bytes(file).withUnsafeBufferPointer { Data($0) }) as? [String: Any])
        #expect(failed["status"] as? String == "failed" && failed["exitCode"] as? Int == 1)
        #expect((failed["skipped"] as? [Any])?.count == 1)
        try? FileManager.default.removeItem(atPath: file)
    }

    @Test(arguments: [
        (["build", "--shard", "3/2"], "--shard needs K/N with 1 ≤ K ≤ N"),
        (["build", "--shard", "x"], "--shard needs K/N"),
        (["build", "--cache-dir"], "option --cache-dir needs a value"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let run = try WaterfallProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}

struct WatchModeTests {
    /// Waits (bounded) until `condition` holds; the watcher polls once a second.
    func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<300 {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    @Test func aChangedCaptionIsBuiltWithoutBeingAsked() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(BuildCommandTests.gallery + "/coffee-cup.jpg", as: "coffee-cup.jpg")
        let process = Process()
        process.executableURL = WaterfallProcess.executable
        process.arguments = ["build", input.path, "-o", output.path, "--watch", "--quiet"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        let page = output.path + "/photos/coffee-cup.jpg.html"
        func html() -> String { (try? String(contentsOfFile: page, encoding: .utf8)) ?? "" }
        #expect(eventually { html().contains("<h1>") && !html().contains("A good espresso") })
        try input.write("coffee-cup.txt", Array("A good espresso\n".utf8))
        #expect(eventually { html().contains("<h1>A good espresso</h1>") })
        try input.copy(BuildCommandTests.gallery + "/hubble-tall.jpg", as: "hubble-tall.jpg")
        #expect(eventually { FileManager.default.fileExists(atPath: output.path + "/photos/hubble-tall.jpg.html") })
        #expect(process.isRunning)
    }
}

struct CachePruningTests {
    @Test func aWholeBuildDropsWhatNoPhotoUsesAnyMore() throws {
        let input = try CIBuildTests.gallery(["coffee-cup.jpg", "clock-motion-blur.jpg"])
        let output = try TemporaryFolder()
        let images = output.path + "/.waterfall/cache/images", entries = output.path + "/.waterfall/cache/photos"
        func count(_ folder: String) throws -> Int { try FileManager.default.contentsOfDirectory(atPath: folder).count }
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        #expect(try count(images) == 11 && count(entries) == 2)  // coffee-cup: 6 tiles + view; the clock: 3 + view
        try input.write("waterfall.json", Array(#"{"quality": 60}"#.utf8))        // new settings: new images
        try FileManager.default.removeItem(atPath: input.path + "/clock-motion-blur.jpg")  // a photo gone
        try Data("mine".utf8).write(to: URL(fileURLWithPath: images + "/notes.txt"))  // not a cache name
        #expect(try WaterfallProcess.run(["build", input.path, "-o", output.path, "--quiet"]).status == 0)
        #expect(try count(entries) == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: images).sorted().filter { $0 != "notes.txt" }.count == 7)
        #expect(FileManager.default.fileExists(atPath: images + "/notes.txt"))
        #expect(LinkChecker.brokenLinks(in: output.path) == [])
    }
}
