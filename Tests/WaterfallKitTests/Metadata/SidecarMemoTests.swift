import Foundation
import Testing
@testable import WaterfallKit

/// The memo of XMP sidecars' readings (`SidecarMemo`) in real builds: a no-change rebuild sends no sidecar to a
/// decoder (the report's `sidecarsRead`), any edit (even one that keeps the size and sets the modification
/// time back) is read again, a removed sidecar's metadata is gone, a warning is said every build, and a
/// damaged, foreign or forged memo is ignored.
struct SidecarMemoTests {
    static let plain = Fixtures.root.appendingPathComponent("metadata/gallery/plain.jpg").path
    static let key = "8f3c2a9b7e6d5f4a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a"
    static let otherKey = "2df6c11ac599b41b64c317820adbc8c79929bd148b94f1f4f3092fac22dff630"

    static func sidecar(title: String, extra: String = "") -> [UInt8] {
        Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:title><rdf:Alt>"
            + "<rdf:li xml:lang=\"x-default\">\(title)</rdf:li></rdf:Alt></dc:title>\(extra)</rdf:Description></rdf:RDF></x:xmpmeta>").utf8)
    }

    /// Two photos with a sidecar each (darktable's spelling and Lightroom's), written more than
    /// `SidecarMemo.settledNanoseconds` ago: a sidecar changed just before it is read is not memoised.
    static func gallery() throws -> (input: TemporaryFolder, output: TemporaryFolder) {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(plain, as: "a.jpg")
        try input.copy(plain, as: "b.jpg")
        try input.write("a.jpg.xmp", sidecar(title: "Alpha one"))
        try input.write("b.xmp", sidecar(title: "Beta one"))
        Thread.sleep(forTimeInterval: 2.2)
        return (input, output)
    }

    /// A build expected to succeed: its run and its report.
    @discardableResult
    static func build(_ input: TemporaryFolder, _ output: TemporaryFolder, cache: TemporaryFolder? = nil, key: String? = nil,
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> (run: WaterfallProcess.Outcome, report: [String: Any]) {
        var environment = ProcessInfo.processInfo.environment
        environment["WATERFALL_KEY"] = key
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path, "--report", "json"]
                                               + (cache.map { ["--cache-dir", $0.path] } ?? []), environment: environment)
        #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
        let report = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
        return (run, report)
    }

    static func page(_ output: TemporaryFolder, _ photo: String) throws -> String {
        String(decoding: try Fixtures.bytes(output.path + "/photos/\(photo).html"), as: UTF8.self)
    }

    static func memoPath(_ output: TemporaryFolder) -> String { output.path + "/.waterfall/cache/" + SidecarMemo.fileName }

    /// Writes `bytes` over the file in place (same inode), as an editor that does not rename does.
    static func overwrite(_ path: String, _ bytes: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
    }

    @Test func aNoChangeRebuildParsesNoSidecar() throws {
        let (input, output) = try Self.gallery()
        #expect(try Self.build(input, output).report["sidecarsRead"] as? Int == 2)
        #expect(FileManager.default.fileExists(atPath: Self.memoPath(output)))
        let again = try Self.build(input, output)
        #expect(again.report["sidecarsRead"] as? Int == 0, "\(again.run.stdout)")
        #expect(try Self.page(output, "a.jpg").contains("Alpha one"))
        #expect(try Self.page(output, "b.jpg").contains("Beta one"))
    }

    /// The edit keeps the size, the inode and the modification time: only the change time says it.
    @Test func anEditIsReadEvenWithItsOldModificationTime() throws {
        let (input, output) = try Self.gallery()
        try Self.build(input, output)
        let path = input.path + "/a.jpg.xmp"
        var before = stat()
        #expect(stat(path, &before) == 0)
        try Self.overwrite(path, Self.sidecar(title: "Alpha two"))
        let times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, times, 0) == 0)
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(after.st_ino == before.st_ino && after.st_size == before.st_size)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        let edited = try Self.build(input, output)
        #expect(edited.report["sidecarsRead"] as? Int == 1, "\(edited.run.stdout)")
        let html = try Self.page(output, "a.jpg")
        #expect(html.contains("Alpha two") && !html.contains("Alpha one"))
        // The other photo's page is rendered again too (the site's inputs changed), from the memo.
        #expect(try Self.page(output, "b.jpg").contains("Beta one"))
    }

    @Test func aRemovedSidecarsMetadataIsGone() throws {
        let (input, output) = try Self.gallery()
        try Self.build(input, output)
        try FileManager.default.removeItem(atPath: input.path + "/b.xmp")
        let run = try Self.build(input, output)
        #expect(run.report["sidecarsRead"] as? Int == 0)
        #expect(!(try Self.page(output, "b.jpg")).contains("Beta one"))
        #expect(try Self.page(output, "a.jpg").contains("Alpha one"))
        let memo = String(decoding: try Fixtures.bytes(Self.memoPath(output)), as: UTF8.self)
        #expect(!memo.contains("b.xmp") && memo.contains("a.jpg.xmp"))
    }

    /// A reading that warns is not memoised: its warning is said every build.
    @Test func aSidecarThatWarnsWarnsEveryBuild() throws {
        let (input, output) = try Self.gallery()
        let keywords = "<dc:subject><rdf:Bag>" + (0..<600).map { "<rdf:li>k\($0)</rdf:li>" }.joined() + "</rdf:Bag></dc:subject>"
        try input.copy(Self.plain, as: "c.jpg")
        try input.write("c.jpg.xmp", Self.sidecar(title: "Gamma", extra: keywords))
        Thread.sleep(forTimeInterval: 2.2)
        let line = "\(input.path)/c.jpg: only the first 500 of its 600 XMP keywords are used"
        for build in 1...2 {
            let run = try Self.build(input, output)
            #expect(run.run.stderr.contains(line), "build \(build): \(run.run.stderr)")
            #expect(run.report["sidecarsRead"] as? Int == (build == 1 ? 3 : 1), "build \(build)")
        }
        #expect(try Self.page(output, "c.jpg").contains("Gamma"))
    }

    /// Each damage costs the parse of every sidecar, never a wrong page or a failed build.
    @Test func aDamagedMemoIsIgnored() throws {
        let (input, output) = try Self.gallery()
        try Self.build(input, output)
        let path = Self.memoPath(output)
        let damages: [(String, ([UInt8]) -> [UInt8])] = [
            ("truncated", { Array($0.prefix($0.count / 2)) }),
            ("a flipped byte", { bytes in
                var bytes = bytes
                let title = try! #require(Self.find(Array("Alpha one".utf8), in: bytes))
                bytes[title] ^= 0x20
                return bytes
            }),
            ("another magic", { Array("waterfall-sidecars-0".utf8) + $0.dropFirst(20) }),
            ("empty", { _ in [] }),
        ]
        for (damage, change) in damages {
            let good = try Fixtures.bytes(path)
            try FileManager.default.removeItem(atPath: path)
            try Data(change(good)).write(to: URL(fileURLWithPath: path))
            let run = try Self.build(input, output)
            #expect(run.report["sidecarsRead"] as? Int == 2, "\(damage)")
            #expect(try Self.page(output, "a.jpg").contains("Alpha one"), "\(damage)")
            #expect(try Fixtures.bytes(path) == good, "\(damage): the memo is written again")
        }
        // One over the size limit (sparse) is not read, with a line.
        let descriptor = open(path, O_WRONLY)
        #expect(ftruncate(descriptor, off_t(SidecarMemo.maximumBytes + 1)) == 0)
        close(descriptor)
        let huge = try Self.build(input, output)
        #expect(huge.report["sidecarsRead"] as? Int == 2)
        #expect(huge.run.stderr.contains("\(path): larger than the 256 MiB a memo of sidecars may hold; ignored as damaged"), "\(huge.run.stderr)")
        // It was replaced: the next build says nothing of it and parses nothing.
        let next = try Self.build(input, output)
        #expect(!next.run.stderr.contains("memo") && next.report["sidecarsRead"] as? Int == 0, "\(next.run.stderr)")
    }

    /// One cache, an output for each key (an output's records are keyed too).
    @Test func keyedModeIgnoresAMemoMadeWithoutTheKeyOrForged() throws {
        let (input, plain) = try Self.gallery()
        let cache = try TemporaryFolder(), keyed = try TemporaryFolder(), other = try TemporaryFolder()
        func sidecarsRead(_ output: TemporaryFolder, _ key: String?) throws -> Int? {
            try Self.build(input, output, cache: cache, key: key).report["sidecarsRead"] as? Int
        }
        #expect(try sidecarsRead(plain, nil) == 2)
        // Made without the key, then with another: not trusted.
        #expect(try sidecarsRead(keyed, Self.key) == 2)
        #expect(try sidecarsRead(keyed, Self.key) == 0)
        #expect(try sidecarsRead(other, Self.otherKey) == 2)
        #expect(try sidecarsRead(keyed, Self.key) == 2)
        // A title changed in the memo by whoever lacks the key: the MAC fails, the sidecar is read.
        let path = cache.path + "/" + SidecarMemo.fileName
        var bytes = try Fixtures.bytes(path)
        let title = try #require(Self.find(Array("Alpha one".utf8), in: bytes))
        bytes.replaceSubrange(title..<(title + 9), with: Array("Forged!!!".utf8))
        try FileManager.default.removeItem(atPath: path)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fresh = try TemporaryFolder()  // so the pages are written again
        #expect(try sidecarsRead(fresh, Self.key) == 2)
        #expect(try Self.page(fresh, "a.jpg").contains("Alpha one"))
        #expect(!(try Self.page(fresh, "a.jpg")).contains("Forged"))
    }

    /// A memo that checks out but holds a reading not all from an XMP sidecar (a forged `NAME.txt` title,
    /// which would come first) is no memo, and the next build replaces it.
    @Test func aReadingNotFromASidecarMakesNoMemo() throws {
        let folder = try TemporaryFolder()
        let cache = try CacheFolder.open(root: try FolderHandle.open(folder.path, create: true))
        let stamp = SidecarMemo.Stamp(device: 1, inode: 2, size: 3, modified: 4, changed: 5)
        var reading = PhotoMetadata(.xmpSidecar, title: "T", keywords: ["a", "b"], rating: 3)
        let good = [SidecarMemo.Item(name: "a.jpg.xmp", stamp: stamp, reading: reading),
                    SidecarMemo.Item(name: "b.xmp", stamp: stamp, reading: nil)]
        var warnings: [String] = []
        SidecarMemo.write(good, to: cache, temporary: "wf-test", mac: nil)
        let read = SidecarMemo.read(from: cache, mac: nil, warnings: &warnings)
        #expect(read.reading(for: "a.jpg.xmp", stamp: stamp) == .some(reading))
        #expect(read.reading(for: "b.xmp", stamp: stamp) == .some(nil))
        #expect(read.reading(for: "a.jpg.xmp", stamp: SidecarMemo.Stamp(device: 1, inode: 2, size: 3, modified: 4, changed: 6)) == nil)
        reading.description = PhotoMetadata.Sourced(value: "D", source: .text)
        SidecarMemo.write([SidecarMemo.Item(name: "a.jpg.xmp", stamp: stamp, reading: reading)], to: cache, temporary: "wf-test", mac: nil)
        let forged = SidecarMemo.read(from: cache, mac: nil, warnings: &warnings)
        #expect(forged.items.isEmpty && forged.isDamaged)
        #expect(warnings.isEmpty)
        // A build that saw no sidecar still replaces it.
        BuildCache(folder: cache).writeSidecars([])
        let replaced = SidecarMemo.read(from: cache, mac: nil, warnings: &warnings)
        #expect(replaced.items.isEmpty && !replaced.isDamaged)
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
