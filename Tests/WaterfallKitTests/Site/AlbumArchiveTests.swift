import Foundation
import Testing
@testable import WaterfallKit
#if canImport(Glibc)
import Glibc
#endif

/// `zip: true`: every album with photos of its own gets `ALBUM/originals/NAME.zip` of its originals, linked
/// from its pages. The real binary on real folders; the archives are read back with Python's zipfile, a
/// reader that owes nothing to libarchive, which wrote them.
@Suite(.serialized)
struct AlbumArchiveTests {
    struct Entry: Decodable {
        var name: String
        /// The name folded as a case-insensitive, normalising file system would compare it (NFC, casefold).
        var folded: String
        var flags: Int
        var method: Int
        var size: Int
        var mode: Int
        var time: [Int]
        /// The entry's bytes (base64), when asked for.
        var data: String?
        /// Whether the entry equals the file named beside it on the command line, read a block at a time.
        var equal: Bool?
    }

    struct Listing: Decodable {
        var entries: [Entry]
        /// The first entry whose CRC does not match its bytes (zipfile's testzip, when no entry was read: reading
        /// one checks its CRC), nil when none.
        var bad: String?
    }

    static let reader = #"""
        import base64, json, sys, unicodedata, zipfile
        path, data, pairs = sys.argv[1], sys.argv[2] == "1", dict(a.split("=", 1) for a in sys.argv[3:])
        def same(z, info, other):
            with z.open(info) as a, open(other, "rb") as b:
                while True:
                    x, y = a.read(1 << 20), b.read(1 << 20)
                    if x != y: return False
                    if not x: return True
        with zipfile.ZipFile(path) as z:
            entries = []
            for i in z.infolist():
                e = {"name": i.filename, "folded": unicodedata.normalize("NFC", i.filename).casefold(), "flags": i.flag_bits,
                     "method": i.compress_type, "size": i.file_size, "mode": i.external_attr >> 16, "time": list(i.date_time)}
                if data: e["data"] = base64.b64encode(z.read(i)).decode()
                if i.filename in pairs: e["equal"] = same(z, i, pairs[i.filename])
                entries.append(e)
            # Reading an entry to its end checks its CRC (zipfile raises when it is wrong): testzip only when no
            # entry was read.
            print(json.dumps({"entries": entries, "bad": z.testzip() if not data and not pairs else None}))
        """#

    /// The archive at `path` as zipfile reads it: entries' bytes when `data`, each entry of `compare` checked
    /// against its file.
    static func read(_ path: String, data: Bool = true, compare: [String: String] = [:]) throws -> Listing {
        let output = try VideoFixtures.run("/usr/bin/python3", ["-c", reader, path, data ? "1" : "0"] + compare.map { "\($0.key)=\($0.value)" })
        return try JSONDecoder().decode(Listing.self, from: Data(output.utf8))
    }

    static func build(_ arguments: [String], environment: [String: String]? = nil) throws -> WaterfallProcess.Outcome {
        let run = try WaterfallProcess.run(["build"] + arguments, environment: environment)
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        return run
    }

    static func photo(_ name: String) -> String { Fixtures.inRepository("SampleGallery/" + name) }

    /// The file's inode, modification and change times: any write or rename moves one of them.
    static func stamp(_ path: String) -> [Int] {
        var info = stat()
        guard lstat(path, &info) == 0 else { return [] }
        return [Int(info.st_ino), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec)]
    }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    // MARK: - What an archive holds

    @Test func anArchiveHoldsItsAlbumsOwnOriginalsByteForByte() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let files = [
            "cameraman.jpg": "cameraman.jpg", "coffee-cup.jpg": "coffee-cup.jpg", "Trips/chelsea-the-cat.jpg": "chelsea-the-cat.jpg",
            "Trips/gravel.png": "gravel.png", "Trips/Rome/brick-wall.jpg": "brick-wall.jpg", "Only/Inner/hubble-tall.jpg": "Space/Hubble/hubble-tall.jpg",
        ]
        for (name, source) in files { try input.copy(Self.photo(source), as: name) }
        try input.write("coffee-cup.txt", Array("Coffee\nA caption is not an original".utf8))
        try VideoFixtures.pattern(input.path + "/clip.mp4", size: "160x120", seconds: 1)
        try Self.build([input.path, "-o", output.path, "--zip", "--quiet"])

        let top = input.url.lastPathComponent
        let archives = [
            "originals/\(top).zip": ["cameraman.jpg", "clip.mp4", "coffee-cup.jpg"],
            "Trips/originals/Trips.zip": ["chelsea-the-cat.jpg", "gravel.png"],
            "Trips/Rome/originals/Rome.zip": ["brick-wall.jpg"],
            "Only/Inner/originals/Inner.zip": ["hubble-tall.jpg"],
        ]
        // Only the archives: no original is published beside them (originals is "none"), and an album of
        // sub-albums alone has none.
        #expect(try Fixtures.siteFiles(in: output.path).filter { $0.contains("originals/") }.sorted() == archives.keys.sorted())
        for (path, names) in archives {
            let listing = try Self.read(output.path + "/" + path)
            #expect(listing.bad == nil)
            #expect(listing.entries.map(\.name) == names, "\(path)")
            let folder = SitePath.folder(of: SitePath.folder(of: path))
            for entry in listing.entries {
                let original = try Fixtures.bytes(input.path + "/" + SitePath.join(folder, entry.name))
                #expect(Data(base64Encoded: entry.data ?? "").map(Array.init) == original, "\(path): \(entry.name)")
                #expect(entry.method == 0 && entry.mode == 0o100644 && entry.time == [1980, 1, 1, 0, 0, 0], "\(entry)")
            }
            // Linked from every gallery page of its album, with its size and photo count.
            let page = try Self.text(output.path + "/" + SitePath.join(folder, "index.html"))
            let size = ByteCount.size(try Fixtures.bytes(output.path + "/" + path).count)
            let count = names.count == 1 ? "1 photo" : "\(names.count) photos"
            #expect(page.contains("<a href=\"originals/\(FolderPath.lastComponent(of: path))\" download>Download album "
                                  + "<span>(\(count), \(size) ZIP)</span></a>"), "\(folder)/index.html")
        }
        #expect(try !Self.text(output.path + "/Only/index.html").contains("wf-download"))
        #expect(try !Self.text(output.path + "/photos/cameraman.jpg.html").contains("wf-download"))
    }

    /// The same photos give the same archive: another build, cache, time zone, locale and key, and with the
    /// originals copied into the store rather than linked.
    @Test func theSameAlbumGivesTheSameBytesWhereverItIsBuilt() throws {
        let input = try TemporaryFolder()
        for name in ["cameraman.jpg", "coffee-cup.jpg"] { try input.copy(Self.photo(name), as: "Trips/" + name) }
        try input.copy(Self.photo("gravel.png"), as: "Trips/caf\u{E9} \u{65E5}\u{672C}.png")
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        environment["LC_ALL"] = "C"
        var other = environment
        other["TZ"] = "XYZ-14"  // UTC+14: Kiribati's Line Islands, where 1 January comes first
        other["LC_ALL"] = "C.UTF-8"
        other["WATERFALL_KEY"] = "5f2b8c1d9e3a47b6a0c4e8f1d2b3a4c5968778695a4b3c2d1e0f1a2b3c4d5e6f"
        var archives: [[UInt8]] = []
        for (environment, extra) in [(environment, []), (other, []), (environment, ["--originals", "copy"])] {
            let output = try TemporaryFolder(), cache = try TemporaryFolder()
            try Self.build([input.path, "-o", output.path, "--cache-dir", cache.path + "/cache", "--zip", "--quiet"] + extra,
                           environment: environment)
            archives.append(try Fixtures.bytes(output.path + "/Trips/originals/Trips.zip"))
        }
        #expect(archives[0] == archives[1] && archives[0] == archives[2])
        // UTF-8 names are flagged as UTF-8 (bit 11), whatever the locale; ASCII names need no flag.
        let output = try TemporaryFolder()
        try Self.build([input.path, "-o", output.path, "--zip", "--quiet"], environment: other)
        let entries = try Self.read(output.path + "/Trips/originals/Trips.zip", data: false).entries
        #expect(entries.map(\.name) == ["caf\u{E9} \u{65E5}\u{672C}.png", "cameraman.jpg", "coffee-cup.jpg"])
        #expect(entries.map { $0.flags & 0x800 != 0 } == [true, false, false])
    }

    /// An archive is written again only when what it holds changes: a rebuild with nothing new, a change to
    /// another album, the album's order or title, keep the file there (same inode and times).
    @Test func anArchiveIsWrittenAgainOnlyWhenItsAlbumChanges() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for name in ["cameraman.jpg", "coffee-cup.jpg"] { try input.copy(Self.photo(name), as: name) }
        for name in ["chelsea-the-cat.jpg", "gravel.png"] { try input.copy(Self.photo(name), as: "Trips/" + name) }
        let arguments = [input.path, "-o", output.path, "--zip", "--quiet"]
        let top = output.path + "/originals/\(input.url.lastPathComponent).zip", trips = output.path + "/Trips/originals/Trips.zip"
        try Self.build(arguments)
        var stamps = [Self.stamp(top), Self.stamp(trips)]

        try Self.build(arguments)
        #expect([Self.stamp(top), Self.stamp(trips)] == stamps, "a build with nothing new")

        try input.write("Trips/waterfall.json", Array(#"{"title": "Away", "sort": "date", "reverse": true}"#.utf8))
        try input.write("waterfall.json", Array(#"{"footerText": "Mine", "perPage": 1}"#.utf8))
        let settings = try Self.build(arguments + ["--report", "json"])
        #expect(settings.stdout.contains("\"pagesRendered\": ") && !settings.stdout.contains("\"pagesRendered\": 0,"))
        #expect([Self.stamp(top), Self.stamp(trips)] == stamps, "new titles, order and pages")

        try input.copy(Self.photo("brick-wall.jpg"), as: "Trips/brick-wall.jpg")
        try Self.build(arguments)
        #expect(Self.stamp(top) == stamps[0], "another album's new photo")
        #expect(Self.stamp(trips) != stamps[1])
        #expect(try Self.read(trips, data: false).entries.map(\.name) == ["brick-wall.jpg", "chelsea-the-cat.jpg", "gravel.png"])
        stamps = [Self.stamp(top), Self.stamp(trips)]

        // As a fresh build writes it.
        let fresh = try TemporaryFolder()
        try Self.build([input.path, "-o", fresh.path, "--zip", "--quiet"])
        #expect(try Fixtures.bytes(trips) == Fixtures.bytes(fresh.path + "/Trips/originals/Trips.zip"))

        // Without zip, the archives go (they are Waterfall's, unchanged), and the pages' links with them.
        try Self.build([input.path, "-o", output.path, "--quiet"])
        #expect(try Fixtures.siteFiles(in: output.path).filter { $0.hasSuffix(".zip") }.isEmpty)
        #expect(try !Self.text(output.path + "/index.html").contains("wf-download"))
    }

    /// An album whose originals come to more than zipMaxBytes gets no archive, with a line naming it and the
    /// sizes, on every build; the build goes on, and the other albums get theirs.
    @Test func anAlbumOverTheLimitGetsNoArchiveAndTheBuildSaysSo() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Self.photo("brick-wall.jpg"), as: "brick-wall.jpg")
        for name in ["coffee-cup.jpg", "cameraman.jpg"] { try input.copy(Self.photo(name), as: "Big/" + name) }
        let big = try ["coffee-cup.jpg", "cameraman.jpg"].reduce(0) { $0 + (try Fixtures.bytes(Self.photo($1)).count) }
        let small = try Fixtures.bytes(Self.photo("brick-wall.jpg")).count
        #expect(small < big)
        let limit = big - 1
        try input.write("waterfall.json", Array(#"{"zip": true, "zipMaxBytes": \#(limit)}"#.utf8))
        let warning = "waterfall: warning: Big: no archive of its originals: its 2 photos come to \(ByteCount.size(big)) (\(big) bytes), "
            + "over zipMaxBytes (\(limit) bytes)\n"
        for _ in 1...2 {  // the second build finds the site as the first left it, and says so again
            let run = try Self.build([input.path, "-o", output.path, "--quiet"])
            #expect(run.stderr == warning)
            #expect(try Fixtures.siteFiles(in: output.path).filter { $0.hasSuffix(".zip") } == ["originals/\(input.url.lastPathComponent).zip"])
            #expect(try !Self.text(output.path + "/Big/index.html").contains("wf-download"))
        }
        try input.write("waterfall.json", Array(#"{"zip": true, "zipMaxBytes": \#(big)}"#.utf8))
        #expect(try Self.build([input.path, "-o", output.path, "--quiet"]).stderr.isEmpty)
        #expect(try Self.read(output.path + "/Big/originals/Big.zip", data: false).entries.count == 2)
        // Over it again: the archive the last build wrote goes.
        try input.write("waterfall.json", Array(#"{"zip": true, "zipMaxBytes": \#(limit)}"#.utf8))
        #expect(try Self.build([input.path, "-o", output.path, "--quiet"]).stderr == warning)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/Big/originals/Big.zip"))
    }

    // MARK: - Names

    /// Names a shell, an unpacker or another file system would trip on become flat, visible, unique entries;
    /// every photo is in the archive once, as its bytes; a name that is not UTF-8 is skipped (as everywhere).
    @Test func hostileNamesBecomeSafeEntries() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let base = try Fixtures.bytes(Self.photo("coffee-cup.jpg"))
        let names: [[UInt8]] = [
            "-rf.jpg", "a\nb.jpg", "a_b.jpg", "A.jpg", "a.jpg", "\u{E9}.jpg", "e\u{301}.jpg", "back\\..\\slash.jpg", "a..b.jpg",
            "tab\there.jpg", "\u{65E5}\u{672C}.jpg", "nel\u{85}.jpg",
        ].map { Array($0.utf8) } + [Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)]
        // Each file its own bytes: the photo, then its name after the end of the image (which decoders ignore).
        for name in names { try Trust.write(bytes: Array((input.path + "/").utf8) + name, base + name) }
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--zip", "--quiet"])
        #expect(run.status == 0 && run.stderr.contains("caf\\xE9.jpg: skipped: the name is not valid UTF-8"), "\(run.stderr)")

        let entries = try Self.read(output.path + "/originals/\(input.url.lastPathComponent).zip").entries
        #expect(entries.count == names.count - 1)
        for entry in entries {
            let scalars = entry.name.unicodeScalars
            #expect(!scalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "/" || $0 == "\\" }, "\(entry.name)")
            #expect(!entry.name.hasPrefix(".") && !entry.name.isEmpty, "\(entry.name)")
            #expect((entry.flags & 0x800 != 0) == !entry.name.unicodeScalars.allSatisfy(\.isASCII), "\(entry.name)")
        }
        #expect(Set(entries.map(\.folded)).count == entries.count, "two entries would be one file on macOS or Windows")
        // Every photo once, as its bytes.
        let contents = Set(entries.compactMap { Data(base64Encoded: $0.data ?? "").map(Array.init) })
        #expect(contents == Set(names.dropLast().map { base + $0 }))
        func entry(holding name: String) -> String? {
            entries.first { Data(base64Encoded: $0.data ?? "").map(Array.init) == base + Array(name.utf8) }?.name
        }
        // Names that need nothing changed keep theirs, and claim them first.
        for name in ["-rf.jpg", "a_b.jpg", "A.jpg", "a..b.jpg", "\u{65E5}\u{672C}.jpg"] { #expect(entry(holding: name) == name) }
        #expect(entry(holding: "back\\..\\slash.jpg") == "back_.._slash.jpg")
        #expect(entry(holding: "tab\there.jpg") == "tab_here.jpg")
        #expect(entry(holding: "nel\u{85}.jpg") == "nel_.jpg")
        #expect(entry(holding: "a\nb.jpg")?.wholeMatch(of: /a_b~[0-9a-f]{8}\.jpg/) != nil)
        #expect(entry(holding: "a.jpg")?.wholeMatch(of: /a~[0-9a-f]{8}\.jpg/) != nil)
        #expect([entry(holding: "\u{E9}.jpg"), entry(holding: "e\u{301}.jpg")].compactMap { $0 }.filter { $0.contains("~") }.count == 1)
    }

    @Test func aNameIsSanitizedForAnyUnpacker() {
        let cases: [(String, String)] = [
            ("..", "_.."), ("../x.jpg", "_.._x.jpg"), ("/etc/passwd", "_etc_passwd"), ("\\..\\x.jpg", "_.._x.jpg"), ("", "_"),
            (".hidden.jpg", "_.hidden.jpg"), ("a\u{0}b\u{7F}c\u{9B}d.jpg", "a_b_c_d.jpg"), ("caf\u{E9}.jpg", "caf\u{E9}.jpg"),
            ("-rf.jpg", "-rf.jpg"),
        ]
        for (name, safe) in cases { #expect(AlbumArchive.sanitized(name) == safe, "\(name.debugDescription)") }
        // Names left as they are claim first (the real `a_b.jpg` keeps its name); then byte order (`B.JPG` before `b.jpg`).
        func tag(_ identity: String) -> String { "~" + BuildCache.digest(identity).prefix(8) }
        #expect(AlbumArchive.entryNames(["a\nb.jpg", "a_b.jpg", "B.JPG", "b.jpg"], identities: ["x/a\nb.jpg", "x/a_b.jpg", "x/B.JPG", "x/b.jpg"])
                == ["a_b\(tag("x/a\nb.jpg")).jpg", "a_b.jpg", "B.JPG", "b\(tag("x/b.jpg")).jpg"])
    }

    // MARK: - Limits and failures

    /// A 2 GiB original (a photo, then a sparse tail that decoders never read) is zipped by a build whose
    /// address space is capped at half that: nothing reads a whole file into memory, or maps it. (The build
    /// needs some 190 MiB of address space, most of it its libraries; the cap leaves room for the threads of
    /// a large machine.)
    @Test func aHugeOriginalIsZippedInBoundedMemory() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let size = (2 << 30) + 4097, cap = 1 << 30
        let path = try input.copy(Self.photo("cameraman.jpg"), as: "huge.jpg")
        #expect(truncate(path, off_t(size)) == 0)
        let run = try VideoFixtures.run("/usr/bin/prlimit", ["--as=\(cap)", "--", WaterfallProcess.executable.path,
                                                             "build", input.path, "-o", output.path, "--zip", "--jobs", "2", "--quiet"])
        #expect(run.isEmpty)
        let archive = output.path + "/originals/\(input.url.lastPathComponent).zip"
        let listing = try Self.read(archive, data: false, compare: ["huge.jpg": path])
        #expect(listing.bad == nil && listing.entries.count == 1)
        #expect(listing.entries.first?.size == size && listing.entries.first?.equal == true)
        #expect(try FileManager.default.attributesOfItem(atPath: archive)[.size] as? Int ?? 0 > size)
    }

    /// A full disk while an archive is written stops the build with one line and leaves the last site as it
    /// was, nothing left in the staging folder (as root, on a small tmpfs); with room again, the archive is made.
    @Test(.enabled(if: SmallDisk.canMount, "needs root to mount a small tmpfs"))
    func aFullDiskWhileZippingLeavesTheLastSite() throws {
        let input = try TemporaryFolder(), cache = try TemporaryFolder()
        let names = ["retina-fundus.jpg", "gravel.png", "coffee-cup.jpg"]
        for name in names { try input.copy(Self.photo(name), as: name) }
        let originals = try names.reduce(0) { $0 + (try Fixtures.bytes(Self.photo($1)).count) }
        let disk = try SmallDisk(kilobytes: 4096)
        let site = disk.path + "/site", arguments = [input.path, "-o", site, "--cache-dir", cache.path + "/cache", "--quiet"]
        try Self.build(arguments)
        // Room for half the archive, beside the site.
        var volume = statvfs()
        #expect(statvfs(disk.path, &volume) == 0)
        let filler = disk.path + "/filler"
        try Data(count: Int(volume.f_bavail) * Int(volume.f_frsize) - originals / 2).write(to: URL(fileURLWithPath: filler))
        let before = Trust.snapshot(site) { $0.starts(with: Array(".waterfall".utf8)) }

        let full = try WaterfallProcess.run(["build"] + arguments + ["--zip"])
        #expect(full.status == 1 && !full.signalled, "\(full.stderr)")
        #expect(full.stderr.split(separator: "\n").count == 1 && full.stderr.contains("No space left on device")
                && full.stderr.hasSuffix("the build stopped, and the last site was left as it was\n"), "\(full.stderr)")
        #expect(Trust.snapshot(site) { $0.starts(with: Array(".waterfall".utf8)) } == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site + "/.waterfall/tmp").isEmpty)

        try FileManager.default.removeItem(atPath: filler)
        try Self.build(arguments + ["--zip"])
        #expect(try Self.read(site + "/originals/\(input.url.lastPathComponent).zip", data: false).entries.count == 3)
    }

    /// An original edited in place with its time stamp set back is trusted by its size and time, as every
    /// unchanged photo is; but what the archive would hold is hashed as it is zipped, so the archive is not
    /// written from other bytes: the build stops, the last site stands, and the next build reads the photo again.
    @Test func anOriginalThatIsNotWhatWasReadStopsTheArchive() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for name in ["cameraman.jpg", "coffee-cup.jpg"] { try input.copy(Self.photo(name), as: name) }
        let arguments = [input.path, "-o", output.path, "--zip", "--quiet"]
        try Self.build(arguments)
        let path = input.path + "/cameraman.jpg"
        var info = stat()
        #expect(stat(path, &info) == 0)
        var edited = try Fixtures.bytes(path)
        edited[edited.count - 10] ^= 0xFF  // before the end-of-image marker: still a photo
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: edited)
        try handle.close()
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        try input.copy(Self.photo("gravel.png"), as: "gravel.png")  // the album changes: its archive is written again
        let before = Trust.snapshot(output.path) { $0.starts(with: Array(".waterfall".utf8)) }

        let stopped = try WaterfallProcess.run(["build"] + arguments)
        #expect(stopped.status == 1, "\(stopped.stderr)")
        #expect(stopped.stderr.hasPrefix("waterfall: \(path): is not what it was when it was read")
                && stopped.stderr.split(separator: "\n").count == 1, "\(stopped.stderr)")
        #expect(Trust.snapshot(output.path) { $0.starts(with: Array(".waterfall".utf8)) } == before)

        try Self.build(arguments)
        let entries = try Self.read(output.path + "/originals/\(input.url.lastPathComponent).zip").entries
        #expect(entries.first { $0.name == "cameraman.jpg" }.flatMap { Data(base64Encoded: $0.data ?? "") }.map(Array.init) == edited)
    }
}
