import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import WaterfallKit

/// Issue 26, forged records: whoever can write the cache or the output's records forges what they like
/// without a key (the content hash is public), and that is what docs/safety.md says; with a key
/// (`WATERFALL_KEY`, `--key-file`) a forged entry, image or record, or one of another key, is absent.
/// Every build here is the real binary's, on real photos.
@Suite(.serialized)
struct TrustKeyedRecordsTests {
    static let key = "638d2c4bd592c9568a3d79f68b24186c783d16d5968c9bb8a24aca5d856ba49b"
    static let otherKey = "2df6c11ac599b41b64c317820adbc8c79929bd148b94f1f4f3092fac22dff630"
    static let victim = "chelsea-portrait.jpg", donor = "coffee-cup.jpg"
    static let caption = "FORGED CAPTION"

    // MARK: - Running and forging

    /// This process's environment, with `WATERFALL_KEY` set to `key`, or left out.
    static func environment(key: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["WATERFALL_KEY"] = key
        return environment
    }

    static func waterfall(_ arguments: [String], key: String?) throws -> WaterfallProcess.Outcome {
        try WaterfallProcess.run(arguments, environment: environment(key: key))
    }

    /// A build expected to succeed, with its report.
    static func build(_ input: String, _ output: String, cache: String, key: String?,
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> (run: WaterfallProcess.Outcome, report: [String: Any]) {
        let run = try waterfall(["build", input, "-o", output, "--cache-dir", cache, "--report", "json"], key: key)
        #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
        let report = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
        return (run, report)
    }

    /// A photo's cache entry as whoever can read the cache sees it: its file and its JSON (a keyed entry's
    /// seal, the last line, left off), and that seal.
    static func entry(in cache: String, photo: String) throws -> (file: String, json: [String: Any], seal: String) {
        for name in try FileManager.default.contentsOfDirectory(atPath: cache + "/photos") where name.hasSuffix(".json") {
            let text = try Trust.read(cache + "/photos/" + name)
            let cut = text.range(of: "\nmac ", options: .backwards)?.lowerBound ?? text.endIndex
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text[..<cut].utf8)) as? [String: Any])
            if json["name"] as? String == photo { return (cache + "/photos/" + name, json, String(text[cut...])) }
        }
        throw Trust.POSIXFailure("no entry for \(photo) in", Array(cache.utf8))
    }

    /// Forges the victim's entry as anyone who can write the cache can without a key: its description
    /// becomes `caption`, and each of its images is replaced in the store by the donor's image of the same
    /// label, the entry's size and content hash made to match (the hash is public). `keepSeal` keeps a
    /// keyed entry's old seal under the new text. Returns the donor's images' bytes.
    @discardableResult
    static func forgeEntry(cache: String, keepSeal: Bool = false) throws -> [[UInt8]] {
        var (file, json, seal) = try entry(in: cache, photo: victim)
        let donorImages = try #require(try entry(in: cache, photo: donor).json["derived"] as? [String: [String: Any]])
        var derived = try #require(json["derived"] as? [String: [String: Any]])
        var forged: [[UInt8]] = []
        for (label, var image) in derived {
            let stored = cache + "/images/" + (image["file"] as! String)
            let bytes = try Trust.read(bytes: Array((cache + "/images/" + (donorImages[label]!["file"] as! String)).utf8))
            try FileManager.default.removeItem(atPath: stored)
            try Trust.write(stored, bytes)
            image["hash"] = ContentDigest.of(bytes).hex
            image["bytes"] = bytes.count
            derived[label] = image
            forged.append(bytes)
        }
        json["derived"] = derived
        var facts = json["facts"] as? [String: Any] ?? [:]
        facts["description"] = ["source": "exif", "value": caption]
        json["facts"] = facts
        let text = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        try FileManager.default.removeItem(atPath: file)
        try Trust.write(file, text + (keepSeal ? seal : ""))
        return forged
    }

    /// A record naming `path` in the output as Waterfall's, as anyone who can read (or only stat) the file
    /// there can write it: its public content hash, identity and time stamps, and a made-up MAC.
    static func forgedRecord(_ output: String, _ path: String) throws -> String {
        var info = stat()
        #expect(lstat(output + "/" + path, &info) == 0)
        let bytes = try Trust.read(bytes: Array((output + "/" + path).utf8))
        let modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        let changed = Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec)
        return #"{"path": "\#(path)", "size": \#(bytes.count), "hash": "\#(ContentDigest.of(bytes).hex)", "#
            + #""device": "\#(info.st_dev)", "inode": "\#(info.st_ino)", "modified": \#(modified), "changed": \#(changed), "#
            + #""mac": "0123456789abcdef0123456789abcdef"}"# + "\n"
    }

    static func append(_ text: String, to path: String) throws {
        if !FileManager.default.fileExists(atPath: path) { try Trust.write(path, "") }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        handle.closeFile()
    }

    /// The site (without `.waterfall`) a clean build of `input` with `key` makes: the reference a build over
    /// a forged cache must equal, byte for byte.
    static func cleanSite(_ input: String, key: String?) throws -> [[UInt8]: String] {
        let work = try TemporaryFolder()
        _ = try build(input, work.path + "/out", cache: work.path + "/cache", key: key)
        return Trust.site(work.path + "/out")
    }

    // MARK: - With a key

    /// A forged entry (a caption, and the donor's pictures in the store with matching public hashes) is
    /// not published: the entry has no valid MAC, so the photo is read and its images made again, in a
    /// fresh output (a CI cache restored) and in the output the cache served.
    @Test(arguments: [false, true])
    func aForgedCacheEntryAndImageAreNotPublishedWithAKey(keepSeal: Bool) throws {
        let input = try Trust.input([Self.victim, Self.donor])
        let work = try TemporaryFolder()
        let cache = work.path + "/cache", served = work.path + "/served", fresh = work.path + "/fresh"
        _ = try Self.build(input.path, served, cache: cache, key: Self.key)
        try Self.forgeEntry(cache: cache, keepSeal: keepSeal)
        let clean = try Self.cleanSite(input.path, key: Self.key)
        for output in [fresh, served] {
            let (run, report) = try Self.build(input.path, output, cache: cache, key: Self.key)
            #expect(Trust.files(in: output, containing: Array(Self.caption.utf8)).isEmpty)
            #expect(Trust.site(output) == clean, "the site differs from a clean build's")
            if output == fresh {  // (then the output the cache served finds the images made again)
                #expect((report["images"] as? [String: Int])?["made"] ?? 0 > 0, "nothing was made again: \(report)")
                #expect(Trust.lines(run, naming: "1 cache entry is not signed with this key").count == 1, "\(run.stderr)")
            }
        }
        // What was made again is signed: the next build takes it from the cache.
        let again = try Self.build(input.path, fresh, cache: cache, key: Self.key)
        #expect((again.report["images"] as? [String: Int])?["made"] == 0, "\(again.report)")
    }

    /// Records forged in the manifest or a journal, naming the user's files with their public hashes and
    /// identities, prove nothing: the files are left as they are, and the build goes on (its own records
    /// still prove the site), saying how many lines it ignored.
    @Test(arguments: [OutputRecords.manifestName, OutputRecords.journalName])
    func forgedRecordsDeleteNoUsersFileWithAKey(recordFile: String) throws {
        let input = try Trust.input([Self.victim, Self.donor])
        let work = try TemporaryFolder()
        let output = work.path + "/out", cache = work.path + "/cache"
        _ = try Self.build(input.path, output, cache: cache, key: Self.key)
        try Trust.write(output + "/CNAME", "photos.example.org\n")
        try Trust.write(output + "/README.md", "# My photos\n")
        let users = Trust.snapshot(output).filter { ["CNAME", "README.md"].contains(String(decoding: $0.key, as: UTF8.self)) }
        try Self.append(try Self.forgedRecord(output, "CNAME") + Self.forgedRecord(output, "README.md"),
                        to: output + "/.waterfall/" + recordFile)
        let (run, _) = try Self.build(input.path, output, cache: cache, key: Self.key)
        #expect(Trust.snapshot(output).filter { users[$0.key] != nil } == users, "the user's files changed")
        #expect(Trust.lines(run, naming: "2 records are not signed with this key").count == 1, "\(run.stderr)")
        Trust.expectSoundSite(output)
        // The manifest was written anew: the next build finds nothing unsigned, and nothing to do.
        let (again, report) = try Self.build(input.path, output, cache: cache, key: Self.key)
        #expect(!again.stderr.contains("not signed") && report["unchanged"] as? Bool == true, "\(again.stderr) \(report)")
    }

    /// A forged record for a path the site is about to write (a new photo's page), where the user keeps a
    /// file of their own, does not let the build replace it: it stops, naming it, and changes nothing.
    @Test func aForgedRecordDoesNotLetTheBuildReplaceAUsersFileWithAKey() throws {
        let input = try Trust.input([Self.victim])
        let work = try TemporaryFolder()
        let output = work.path + "/out", cache = work.path + "/cache"
        _ = try Self.build(input.path, output, cache: cache, key: Self.key)
        let page = "photos/\(Self.donor).html"
        try Trust.write(output + "/" + page, "<p>my own page</p>\n")
        try Self.append(try Self.forgedRecord(output, page), to: output + "/.waterfall/manifest.json")
        try Trust.copy(Trust.photo(Self.donor), to: input.path + "/" + Self.donor)
        let before = Trust.site(output)
        let run = try Self.waterfall(["build", input.path, "-o", output, "--cache-dir", cache, "--quiet"], key: Self.key)
        #expect(run.status == 1)
        #expect(Trust.lines(run, naming: "\(output)/\(page): exists and was not written by Waterfall").count == 1, "\(run.stderr)")
        #expect(Trust.site(output) == before)
    }

    /// A cache and an output made without a key, or with another key: their entries and records are absent.
    /// Over the cache, every image is made again (one line says why); over the output, its files are not
    /// proven to be Waterfall's, so the build stops before writing anything, saying why.
    @Test(arguments: [nil, otherKey])
    func entriesAndRecordsOfAnotherKeyOrNoneAreAbsent(madeWith: String?) throws {
        let input = try Trust.input([Self.victim, Self.donor])
        let work = try TemporaryFolder()
        let output = work.path + "/out", cache = work.path + "/cache"
        _ = try Self.build(input.path, output, cache: cache, key: madeWith)
        let (run, report) = try Self.build(input.path, work.path + "/fresh", cache: cache, key: Self.key)
        #expect(report["cache"] as? [String: Int] == ["headers": 0, "images": 0], "\(report)")
        #expect(Trust.lines(run, naming: "2 cache entries are not signed with this key (made without it, or with another): "
            + "ignored, and made again from the photos").count == 1, "\(run.stderr)")
        let before = Trust.snapshot(output)
        let over = try Self.waterfall(["build", input.path, "-o", output, "--cache-dir", cache], key: Self.key)
        #expect(over.status == 1)
        #expect(Trust.lines(over, naming: "records are not signed with this key (made without it, or with another): they prove nothing")
            .count == 1, "\(over.stderr)")
        #expect(Trust.lines(over, naming: "\(output)/index.html: exists and was not written by Waterfall").count == 1, "\(over.stderr)")
        #expect(Trust.snapshot(output) == before)
    }

    /// The strongest forgery of a file's identity: a stored image rewritten in place (the same inode, so the
    /// site's hard link shows it too) with its size kept and its modification time set back. Without a key
    /// the identity proof passes and the build keeps the forged bytes (as docs/safety.md says); with one,
    /// the change time (which no one can set) gives it away: the build stops, naming the site's file, and a
    /// build from that cache into a fresh output makes the image again.
    @Test(arguments: [nil, key])
    func aStoredImageRewrittenInPlaceWithItsTimeSetBack(key: String?) throws {
        let input = try Trust.input([Self.victim, Self.donor])
        let work = try TemporaryFolder()
        let output = work.path + "/out", cache = work.path + "/cache"
        _ = try Self.build(input.path, output, cache: cache, key: key)
        let derived = try #require(try Self.entry(in: cache, photo: Self.victim).json["derived"] as? [String: [String: Any]])
        let stored = cache + "/images/" + (try #require(derived.values.first?["file"] as? String))
        var before = stat()
        #expect(lstat(stored, &before) == 0)
        var bytes = try Trust.read(bytes: Array(stored.utf8))
        for index in stride(from: bytes.count / 2, to: bytes.count / 2 + 64, by: 1) { bytes[index] ^= 0x5A }
        let descriptor = open(stored, O_WRONLY | O_CLOEXEC)
        #expect(descriptor >= 0)
        #expect(bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } == bytes.count)
        close(descriptor)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, stored, &times, 0) == 0)
        let sitePaths = Trust.files(in: output, equalTo: bytes)
        #expect(!sitePaths.isEmpty, "the site's hard link does not show the rewrite")
        let run = try Self.waterfall(["build", input.path, "-o", output, "--cache-dir", cache, "--quiet"], key: key)
        if key == nil {
            #expect(run.status == 0, "\(run.stderr)")
            #expect(Trust.files(in: output, equalTo: bytes) == sitePaths, "without a key the forged bytes are kept")
        } else {
            #expect(run.status == 1)
            #expect(Trust.lines(run, naming: "\(output)/\(sitePaths[0]): exists and was not written by Waterfall").count == 1,
                    "\(run.stderr)")
            let fresh = work.path + "/fresh"
            _ = try Self.build(input.path, fresh, cache: cache, key: key)
            #expect(Trust.files(in: fresh, equalTo: bytes).isEmpty)
            #expect(Trust.site(fresh) == (try Self.cleanSite(input.path, key: key)))
        }
    }

    /// `resize` keeps the same records: with a key, a forged one does not let it replace a user's file.
    @Test(arguments: [nil, key])
    func resizeReplacesAUsersFileOnAForgedRecordOnlyWithoutAKey(key: String?) throws {
        let work = try TemporaryFolder()
        let output = work.path + "/small"
        try Trust.copy(Trust.photo(Self.victim), to: work.path + "/in/" + Self.victim)
        try Trust.copy(Trust.photo(Self.donor), to: work.path + "/more/" + Self.donor)
        let first = try Self.waterfall(["resize", work.path + "/in", "-o", output, "--width", "64"], key: key)
        #expect(first.status == 0, "\(first.stderr)")
        try Trust.write(output + "/" + Self.donor, "the user's own file\n")
        try Self.append(try Self.forgedRecord(output, Self.donor), to: output + "/.waterfall/manifest.json")
        let run = try Self.waterfall(["resize", work.path + "/more", "-o", output, "--width", "64"], key: key)
        let now = try Trust.read(output + "/" + Self.donor)
        if key == nil {
            #expect(run.status == 0 && now != "the user's own file\n", "without a key the forged record proves the file")
        } else {
            #expect(run.status == 1)
            #expect(now == "the user's own file\n")
            #expect(Trust.lines(run, naming: "\(output)/\(Self.donor): exists and was not written by Waterfall").count == 1,
                    "\(run.stderr)")
        }
    }

    /// A keyed rebuild with nothing changed is found unchanged, as without a key: the MACs and change times
    /// of its own records hold from build to build, a photo added or removed that shares its images with
    /// another included (a link made or removed moves the change time of every path of that image, and the
    /// manifest takes it again).
    @Test func aKeyedRebuildWithNothingChangedIsUnchanged() throws {
        let input = try Trust.input([Self.victim, Self.donor])
        let work = try TemporaryFolder()
        let output = work.path + "/out", cache = work.path + "/cache"
        let copy = input.path + "/copy-of-cup.jpg"
        for step in 0..<7 {
            if step == 2 { try Trust.copy(Trust.photo(Self.donor), to: copy) }
            if step == 5 { try FileManager.default.removeItem(atPath: copy) }
            let (run, report) = try Self.build(input.path, output, cache: cache, key: Self.key)
            #expect(report["unchanged"] as? Bool == [false, true, false, true, true, false, true][step], "step \(step): \(report)")
            #expect(!run.stderr.contains("not signed"), "\(run.stderr)")
        }
    }

    /// A forged plan memo (the inputs digest of the site as it should now be, beside the manifest as it is)
    /// makes a build find a stale site "unchanged" without a key (as docs/safety.md says); with one, the
    /// memo has no valid MAC, and the build makes the site anew.
    @Test(arguments: [nil, key])
    func aForgedPlanMemoSkipsABuildOnlyWithoutAKey(key: String?) throws {
        let input = try Trust.input([Self.victim])
        let work = try TemporaryFolder()
        let output = work.path + "/out", cache = work.path + "/cache"
        _ = try Self.build(input.path, output, cache: cache, key: key)
        try Trust.write(input.path + "/chelsea-portrait.txt", "A caption written since\n")
        // The memo a build of the input as it is now leaves (made elsewhere: only its digest is wanted).
        _ = try Self.build(input.path, work.path + "/elsewhere", cache: work.path + "/c2", key: key)
        let wanted = try Trust.read(work.path + "/elsewhere/.waterfall/plan").split(separator: "\n", omittingEmptySubsequences: false)
        var info = stat()
        #expect(lstat(output + "/.waterfall/manifest.json", &info) == 0)
        let modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        let changed = Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec)
        let stamp = "\(info.st_dev) \(info.st_ino) \(info.st_size) \(modified)" + (key == nil ? "" : " \(changed)")
        let memo = "waterfall-plan-1\n\(wanted[1])\n\(stamp)\n\(wanted[3])\n" + (key == nil ? "" : "\nmac \(String(repeating: "7", count: 32))\n")
        try FileManager.default.removeItem(atPath: output + "/.waterfall/plan")
        try Trust.write(output + "/.waterfall/plan", memo)
        let (_, report) = try Self.build(input.path, output, cache: cache, key: key)
        let published = !Trust.files(in: output, containing: Array("A caption written since".utf8)).isEmpty
        #expect(report["unchanged"] as? Bool == (key == nil), "\(report)")
        #expect(published == (key != nil))
    }

    /// In keyed mode no hash that proves a file is one anyone can compute: the output's records and the
    /// cache's entries hold keyed hashes, never the public content hash of the file (or photo) they name.
    @Test(arguments: [nil, key])
    func keyedRecordsHoldNoPublicHash(key: String?) throws {
        let input = try Trust.input([Self.victim, Self.donor])
        let work = try TemporaryFolder()
        let output = work.path + "/out", cache = work.path + "/cache"
        _ = try Self.build(input.path, output, cache: cache, key: key)
        var proofs: [(hash: String, bytes: [UInt8])] = []
        for line in try Trust.read(output + "/.waterfall/manifest.json").split(separator: "\n").dropFirst() {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard let path = json["path"] as? String else { continue }  // the seal of a keyed manifest
            proofs.append((try #require(json["hash"] as? String), try Trust.read(bytes: Array((output + "/" + path).utf8))))
        }
        for photo in [Self.victim, Self.donor] {
            let json = try Self.entry(in: cache, photo: photo).json
            proofs.append((try #require(json["content"] as? String), try Trust.read(bytes: Array((input.path + "/" + photo).utf8))))
            for image in (json["derived"] as? [String: [String: Any]] ?? [:]).values {
                proofs.append((try #require(image["hash"] as? String),
                               try Trust.read(bytes: Array((cache + "/images/" + (image["file"] as! String)).utf8))))
            }
        }
        #expect(proofs.count > 10)
        let computable = proofs.filter { $0.hash == ContentDigest.of($0.bytes).hex }.count
        #expect(computable == (key == nil ? proofs.count : 0), "\(computable) of \(proofs.count) hashes are the public ones")
    }

    // MARK: - The key itself

    @Test(arguments: [
        ("", "WATERFALL_KEY is empty (a CI secret not given to this job?); give the key, or unset WATERFALL_KEY and leave out "
            + "--key-file to build without one"),
        ("abc123", "WATERFALL_KEY: not a key: a key is 64 hexadecimal digits (32 random bytes), this is 6 characters; make one "
            + "with 'openssl rand -hex 32'"),
        (String(repeating: "z", count: 64), "WATERFALL_KEY: not a key: a key is 64 hexadecimal digits (32 random bytes), this is "
            + "64 characters, not all of them hexadecimal digits; make one with 'openssl rand -hex 32'"),
        (String(repeating: "0", count: 64), "WATERFALL_KEY: not a random key (it uses only 1 of the 16 hexadecimal digits); "
            + "make one with 'openssl rand -hex 32'"),
        (String(repeating: "ab", count: 32), "WATERFALL_KEY: not a random key (it uses only 2 of the 16 hexadecimal digits); "
            + "make one with 'openssl rand -hex 32'"),
    ])
    func aKeyThatIsNotOneIsRefusedInOneLine(text: String, message: String) throws {
        let input = try Trust.input([Self.donor])
        let work = try TemporaryFolder()
        let run = try Self.waterfall(["build", input.path, "-o", work.path + "/out"], key: text)
        #expect(run.status == 64)
        #expect(run.stderr.split(separator: "\n").first.map(String.init) == "waterfall: \(message)")
        #expect(Trust.describe(Array((work.path + "/out").utf8)) == nil)
    }

    /// A key file must lie outside the output and the cache (whoever writes them could read or replace
    /// it), however it is reached; one outside is read, its last newline left out.
    @Test func aKeyFileInsideTheOutputOrTheCacheIsRefused() throws {
        let input = try Trust.input([Self.donor])
        let work = try TemporaryFolder()
        let output = work.path + "/out", cache = work.path + "/cache"
        try Trust.write(output + "/key", Self.key + "\n")
        try Trust.write(cache + "/key", Self.key + "\n")
        try Trust.symlink(output + "/key", at: work.path + "/link-to-key")
        let cases = [(output + "/key", "output", output), (cache + "/key", "cache", cache), (work.path + "/link-to-key", "output", output)]
        for (file, label, folder) in cases {
            let run = try Self.waterfall(["build", input.path, "-o", output, "--cache-dir", cache, "--key-file", file], key: nil)
            #expect(run.status == 64)
            #expect(run.stderr.hasPrefix("waterfall: \(file): the key file is inside the \(label) folder \(folder); keep it outside "
                + "the output and the cache (whoever can write them could read or replace it)\n"), "\(run.stderr)")
            #expect(!run.stderr.contains(Self.key))
        }
        try Trust.write(work.path + "/outside.key", Self.key + "\n")
        let keyed = try Self.waterfall(["build", input.path, "-o", work.path + "/site", "--cache-dir", work.path + "/c2",
                                  "--key-file", work.path + "/outside.key", "--quiet"], key: Self.otherKey)
        #expect(keyed.status == 0, "\(keyed.stderr)")
        // The file's key, not the environment's, signed them: a build with the file's key in the environment reads them.
        let (again, report) = try Self.build(input.path, work.path + "/site", cache: work.path + "/c2", key: Self.key)
        #expect(report["unchanged"] as? Bool == true && !again.stderr.contains("not signed"), "\(again.stderr)")
    }

    // MARK: - Without a key: what docs/safety.md says

    /// Without a key, whoever can write the cache can have a forged caption and forged pictures published
    /// under a photo's name (docs/safety.md says so); the site says nothing of it.
    @Test func withoutAKeyAForgedCacheEntryAndImageArePublished() throws {
        let input = try Trust.input([Self.victim, Self.donor])
        let work = try TemporaryFolder()
        let cache = work.path + "/cache", output = work.path + "/out"
        _ = try Self.build(input.path, work.path + "/first", cache: cache, key: nil)
        let forged = try Self.forgeEntry(cache: cache)
        _ = try Self.build(input.path, output, cache: cache, key: nil)
        #expect(!Trust.files(in: output, containing: Array(Self.caption.utf8)).isEmpty)
        let victimImages = forged.flatMap { Trust.files(in: output, equalTo: $0) }.filter { $0.contains(Self.victim) }
        #expect(!victimImages.isEmpty, "the donor's pictures are not published under the victim's name")
    }

    /// Without a key, whoever can write the output's records can have the build delete a user's file in the
    /// output (docs/safety.md says so).
    @Test func withoutAKeyForgedRecordsDeleteAUsersFile() throws {
        let input = try Trust.input([Self.donor])
        let work = try TemporaryFolder()
        let output = work.path + "/out", cache = work.path + "/cache"
        _ = try Self.build(input.path, output, cache: cache, key: nil)
        try Trust.write(output + "/CNAME", "photos.example.org\n")
        try Self.append(try Self.forgedRecord(output, "CNAME"), to: output + "/.waterfall/manifest.json")
        let (_, report) = try Self.build(input.path, output, cache: cache, key: nil)
        #expect(Trust.describe(Array((output + "/CNAME").utf8)) == nil)
        #expect(report["removed"] as? [String] == ["CNAME"], "\(report)")
    }

    /// What a writable cache or records cannot do, key or not: records naming paths outside the output are
    /// not records, and an entry naming a file outside the cache's store is not an entry; nothing outside
    /// the output and the cache is touched or published.
    @Test(arguments: [nil, key])
    func forgeriesCannotReachOutsideTheOutputAndTheCache(key: String?) throws {
        let input = try Trust.input([Self.victim, Self.donor])
        let work = try TemporaryFolder()
        let output = work.path + "/out", cache = work.path + "/cache"
        _ = try Self.build(input.path, output, cache: cache, key: key)
        let victim = work.path + "/victim.txt", picture = work.path + "/secret.jpg"
        try Trust.write(victim, "not Waterfall's\n")
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: picture)
        let victimBytes = try Trust.read(bytes: Array(victim.utf8))
        var lines = ""
        for path in ["../victim.txt", victim, "./../victim.txt"] {
            lines += try Self.forgedRecord(output, "index.html").replacingOccurrences(of: #""path": "index.html""#, with: #""path": "\#(path)""#)
        }
        try Self.append(lines, to: output + "/.waterfall/manifest.json")
        var (file, json, _) = try Self.entry(in: cache, photo: Self.victim)
        var derived = try #require(json["derived"] as? [String: [String: Any]])
        let secret = try Trust.read(bytes: Array(picture.utf8))
        for (label, var image) in derived {
            image["file"] = "../../secret.jpg"
            image["hash"] = ContentDigest.of(secret).hex
            image["bytes"] = secret.count
            derived[label] = image
        }
        json["derived"] = derived
        try FileManager.default.removeItem(atPath: file)
        try Trust.write(file, String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self))
        _ = try Self.build(input.path, output, cache: cache, key: key)
        #expect(try Trust.read(bytes: Array(victim.utf8)) == victimBytes)
        #expect(Trust.files(in: output, equalTo: secret).isEmpty)
        #expect(Trust.site(output) == (try Self.cleanSite(input.path, key: key)))
    }
}
