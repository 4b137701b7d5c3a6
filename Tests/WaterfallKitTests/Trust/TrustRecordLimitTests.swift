import Foundation
import Testing
@testable import WaterfallKit
#if canImport(Glibc)
import Glibc
#endif

/// Issue 26: every record file Waterfall reads back is read with a limit fitted to what it can hold; over it,
/// the record is ignored as damaged, with one line. A 3 GB sparse manifest used to cost 4.4 GB of memory
/// (and a 10 GB one aborted): each build here runs with its address space limited, so a record read whole
/// fails the test as an abort.
struct TrustRecordLimitTests {
    /// Far more than a build of two photos needs (some 200 MB for the debug binary), far less than a
    /// record read whole.
    static let addressSpace = 768 << 20

    /// Two photos built into `out` inside a work folder.
    static func built() throws -> (work: TemporaryFolder, run: [String]) {
        let work = try TemporaryFolder()
        try Trust.copy(Trust.photo("coffee-cup.jpg"), to: work.path + "/in/a.jpg")
        try Trust.copy(Trust.photo("hubble-tall.jpg"), to: work.path + "/in/b.jpg")
        let command = ["build", "in", "-o", "out", "--quiet"]
        let first = try ByteArgumentProcess.run(command, in: work.path, addressSpace: addressSpace)
        #expect(first.status == 0, "\(first.stderr)")
        return (work, command)
    }

    /// Replaces the file at `path` with a sparse file of `size` bytes (zeros, no newline).
    static func sparse(_ path: String, size: Int) throws {
        unlink(path)
        try Trust.write(path, [])
        guard truncate(path, off_t(size)) == 0 else { throw Trust.POSIXFailure("truncate", Array(path.utf8)) }
    }

    /// Each record file, 3 GB of nothing: not read at all, one line, and the build goes on (the manifest is
    /// what proves the site's files Waterfall's: without it they are in the way, and nothing is written).
    @Test(arguments: [
        (".waterfall/manifest.json", "larger than the 1024 MiB a record file may hold; ignored as damaged"),
        (".waterfall/journal", "larger than the 1024 MiB a record file may hold; ignored as damaged"),
        (".waterfall/manifest", "larger than the 16 MiB Waterfall 0.1's manifest may hold; ignored as damaged"),
        (".waterfall/plan", "larger than the 4 KiB a plan memo may hold; ignored as damaged"),
        (".waterfall/cache/photos.index", "larger than the 1024 MiB a cache index may hold; ignored as damaged (the entries are read one by one)"),
        (".waterfall/cache/sidecars.memo", "larger than the 256 MiB a memo of sidecars may hold; ignored as damaged (every XMP sidecar is read again)"),
        (".waterfall/cache/version", "larger than the 64 bytes a cache's version may hold; the cache is ignored as damaged"),
        (".waterfall/cache/photos/ENTRY", "larger than the 1 MiB a cache entry may hold; ignored as damaged"),
    ])
    func aHugeRecordIsIgnoredUnread(record: String, reason: String) throws {
        let (work, command) = try Self.built()
        var file = "out/" + record
        if record.hasSuffix("ENTRY") {
            let entries = try FileManager.default.contentsOfDirectory(atPath: work.path + "/out/.waterfall/cache/photos").sorted()
            file = "out/.waterfall/cache/photos/" + entries[0]
            // Without the index, each entry is read.
            unlink(work.path + "/out/.waterfall/cache/photos.index")
        }
        let site = Trust.site(work.path + "/out")
        try Self.sparse(work.path + "/" + file, size: 3 << 30)
        let run = try ByteArgumentProcess.run(command, in: work.path, addressSpace: Self.addressSpace)
        #expect(!run.signalled, "signal \(run.status): \(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "waterfall: warning: \(file): \(reason)", "\(run.stderr)")
        if record == ".waterfall/manifest.json" {
            #expect(run.status == 1)
            #expect(lines.dropFirst().first?.hasPrefix("waterfall: out/index.html: exists and was not written by Waterfall") == true)
            #expect(Trust.changes(site, Trust.site(work.path + "/out")).isEmpty, "a file was replaced")
        } else {
            #expect(run.status == 0 && lines.count == 1, "\(run.stderr)")
            unlink(work.path + "/" + file)  // what is left of it (0.1's manifest stays): not read again by the checks
            Trust.expectSoundSite(work.path + "/out")
        }
    }

    /// A record file under its size limit that holds no record: a manifest of 300 MB of zeros with no newline
    /// (one line: not gathered), and a journal with one line of 1 MiB among records.
    @Test func aLineLongerThanAnyRecordIsNotGathered() throws {
        let (work, command) = try Self.built()
        try Self.sparse(work.path + "/out/.waterfall/manifest.json", size: 300 << 20)
        let manifest = try ByteArgumentProcess.run(command, in: work.path, addressSpace: Self.addressSpace)
        #expect(!manifest.signalled, "signal \(manifest.status): \(manifest.stderr)")
        #expect(manifest.stderr.hasPrefix("waterfall: warning: out/.waterfall/manifest.json: 1 line longer than 64 KiB, which no "
            + "record is; it is ignored as damaged\nwaterfall: out/index.html: exists and was not written by Waterfall"), "\(manifest.stderr)")

        let (again, _) = try Self.built()
        let record = #"{"path": "stale.html", "size": 1, "hash": "", "device": "1", "inode": "1", "modified": 1}"# + "\n"
        try Trust.write(again.path + "/out/.waterfall/journal", record + String(repeating: "x", count: 1 << 20) + "\n" + record)
        let journal = try ByteArgumentProcess.run(command, in: again.path, addressSpace: Self.addressSpace)
        #expect(journal.status == 0, "\(journal.stderr)")
        #expect(journal.stderr == "waterfall: warning: out/.waterfall/journal: 1 line longer than 64 KiB, which no record is; it is ignored "
            + "as damaged\n")
        Trust.expectSoundSite(again.path + "/out")
    }

    /// A cache index whose heading is right (the stamp of `photos/` is public) and whose entry count is as
    /// large as its bytes allow. Room for that many entries is never made (at 224 bytes an entry, two million
    /// took 448 MB at once and aborted the build under the limit); more than a cache may hold is ignored as
    /// damaged, with a line.
    @Test(arguments: [(2_000_000, ""), (8_000_000, "waterfall: warning: out/.waterfall/cache/photos.index: more than 2000000 entries; "
        + "ignored as damaged (the entries are read one by one)\n")])
    func aCacheIndexCannotAskForRoomItsBytesCannotFill(count: Int, message: String) throws {
        let (work, command) = try Self.built()
        let cache = work.path + "/out/.waterfall/cache"
        var info = stat()
        #expect(stat(cache + "/photos", &info) == 0)
        var bytes = Array("\(Versions.cacheIndex)\n".utf8)
        for word in [UInt64(info.st_dev), UInt64(info.st_ino),
                     UInt64(info.st_mtim.tv_sec) * 1_000_000_000 + UInt64(info.st_mtim.tv_nsec),
                     UInt64(info.st_ctim.tv_sec) * 1_000_000_000 + UInt64(info.st_ctim.tv_nsec), 0, UInt64(count)] {
            withUnsafeBytes(of: word.littleEndian) { bytes += $0 }
        }
        bytes += [UInt8](repeating: 0, count: count)  // a count may be no more than the bytes left
        var checksum: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { checksum = (checksum ^ UInt64(byte)) &* 0x100_0000_01b3 }
        withUnsafeBytes(of: checksum.littleEndian) { bytes += $0 }
        try Trust.write(cache + "/photos.index", bytes)
        let run = try ByteArgumentProcess.run(command, in: work.path, addressSpace: 384 << 20)
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        #expect(run.stderr == message)
    }

    /// Millions of short lines that look like records stop at the limit: the manifest's are all dropped
    /// (one line; a journal's records still count), a journal over what the manifest leaves room for is not
    /// added at all. (With a small
    /// limit: six million records is a 500 MB file.)
    @Test func recordsOverTheLimitAreIgnoredAsDamaged() throws {
        let work = try TemporaryFolder()
        let line = { (index: Int) in #"{"path": "p/\#(index)", "size": 1, "hash": "", "device": "1", "inode": "\#(index)", "modified": 1}"# + "\n" }
        try Trust.write(work.path + "/.waterfall/manifest.json", (0..<10).map(line).joined())
        try Trust.write(work.path + "/.waterfall/journal", (10..<16).map(line).joined())
        let state = try FolderHandle.open(work.path + "/.waterfall", create: false)
        var warnings: [String] = []
        let fits = OutputRecords.read(from: state, warnings: &warnings, maximumRecords: 16)
        #expect(fits.count == 16 && warnings.isEmpty)
        let journalOver = OutputRecords.read(from: state, warnings: &warnings, maximumRecords: 15)
        #expect(journalOver.count == 10)
        #expect(warnings == ["\(work.path)/.waterfall/journal: more than 15 records with the manifest's; ignored as damaged"])
        warnings = []
        let manifestOver = OutputRecords.read(from: state, warnings: &warnings, maximumRecords: 9)
        #expect(manifestOver.count == 6, "the journal's records still count")
        #expect(warnings == ["\(work.path)/.waterfall/manifest.json: more than 9 records; ignored as damaged"])
    }
}
