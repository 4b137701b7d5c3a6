import Foundation
import Testing
@testable import WaterfallKit

/// The cache's index (`photos.index`) gives back exactly the entries it was written with, and only while
/// `photos/` is as it was then; a damaged, torn or other index is not read.
struct CacheIndexTests {
    static func entries() -> [BuildCache.Entry] {
        var plain = BuildCache.Entry(name: "a/IMG_1.jpg", size: 7204, modified: 1_796_063_917_504_733_096,
                                     content: "ec2ecac93b2e6a714d062351a727cad7",
                                     header: ImageHeader(format: .jpeg, pixelWidth: 160, pixelHeight: 120, orientation: Orientation(rawValue: 6)))
        plain.derived["500"] = BuildCache.Derived(key: "derive-4|500x0|q82|false", file: "4417c09faaddabab.jpg", bytes: 6206,
                                                  hash: ContentDigest(hex: "2d0050fabe034fb170db768e176c1091"), width: 160, height: 120, format: .jpeg,
                                                  averageColor: AverageColor(red: 1, green: 2, blue: 255))
        plain.derived["view.avif"] = BuildCache.Derived(key: "derive-4|2048x2048|avif3|q60|s6 from derive-4|500x0", file: "0123456789abcdef.avif",
                                                        bytes: 1, hash: nil, width: 1, height: 1_000_000, format: .avif)
        var odd = BuildCache.Entry(name: "é\n\u{301}/\"x\\.png", size: -1, modified: -5, content: "",
                                   header: ImageHeader(format: .png, pixelWidth: 1, pixelHeight: 1, frames: 12))
        odd.facts.summary = "Canon · ƒ/4"
        odd.facts.metadata = PhotoMetadata(.xmp, title: "T", description: "D\u{0}", keywords: ["a", "é"], rating: -1, creator: "C",
                                           rights: "R", taken: PhotoMetadata.Taken(text: "2024-05-17 08:30:12", number: 20_240_517_083_012))
        odd.facts.metadata.creator?.source = .iptc
        odd.facts.contentIdentifier = "AAAA-BBBB"
        odd.derived["500"] = plain.derived["500"]
        var clip = BuildCache.Entry(name: "a/clip.mov", size: 1 << 33, modified: 9, content: "ab",
                                    header: ImageHeader(format: .video, pixelWidth: 1080, pixelHeight: 1920))
        clip.header.video = VideoFacts(container: "mov,mp4,m4a,3gp,3g2,mj2", codec: "hevc", pixelFormat: "yuv420p10le",
                                       audioCodec: "aac", durationMilliseconds: 12_345, codedWidth: 1920, codedHeight: 1080,
                                       rotation: 90, creationTime: "2024-05-17T08:30:12.000000Z",
                                       contentIdentifier: "1F3C8B2A-0001-4C6E-9D1B-7A2E5F0C3D41")
        clip.derived["video"] = BuildCache.Derived(key: "video-1|copy-mp4|ffmpeg", file: "0123456789abcdef.mp4", bytes: 1 << 33,
                                                   hash: nil, width: 1080, height: 1920, format: .mp4)
        var silent = clip
        silent.name = "b/silent.webm"
        silent.header.video?.audioCodec = nil
        silent.header.video?.creationTime = nil
        silent.header.video?.contentIdentifier = nil
        return [plain, odd, BuildCache.Entry(name: "b", size: 0, modified: 0, content: "c",
                                             header: ImageHeader(format: .gif, pixelWidth: 3, pixelHeight: 4)), clip, silent]
    }

    static func items() -> [CacheIndex.Item] {
        entries().enumerated().map { CacheIndex.Item(entry: $1, file: CacheIndex.FileStamp(inode: UInt64($0) + 7, size: 300, modified: -$0)) }
    }

    func cache(_ folder: TemporaryFolder) throws -> CacheFolder {
        try CacheFolder.open(root: try FolderHandle.open(folder.path, create: true))
    }

    @Test func readsBackWhatItWrote() throws {
        let folder = try TemporaryFolder()
        let cache = try cache(folder)
        CacheIndex.write(Self.items(), to: cache, temporary: "wf-test-index")
        #expect(CacheIndex.read(from: cache)?.entries == Self.items())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/tmp").isEmpty)
    }

    /// The entries' own files say the same as the index, a video's facts included; a video without its
    /// facts (or facts on a photo) is no entry.
    @Test func entriesReadBackFromTheirJSON() throws {
        for entry in Self.entries() where entry.size >= 0 && entry.modified >= 0 {
            let text = entry.json.rendered()
            #expect(BuildCache.Entry(json: try JSONParser.parse(text)) == entry, "\(text)")
        }
        let clip = Self.entries().first { $0.header.isVideo }!
        var bare = clip
        bare.header.video = nil
        #expect(BuildCache.Entry(json: try JSONParser.parse(bare.json.rendered())) == nil)
        var turned = clip
        turned.header.video?.rotation = 45
        #expect(BuildCache.Entry(json: try JSONParser.parse(turned.json.rendered())) == nil)
    }

    @Test func anEntryAddedToPhotosSinceMakesItStale() throws {
        let folder = try TemporaryFolder()
        let cache = try cache(folder)
        CacheIndex.write(Self.items(), to: cache, temporary: "wf-test-index")
        #expect(CacheIndex.read(from: cache) != nil)
        // As a merge by copying would: a shard's entry lands in photos/.
        _ = try folder.write("photos/0000000000000001.json", Array("{}".utf8))
        #expect(CacheIndex.read(from: cache) == nil)
    }

    @Test func anEntryRemovedFromPhotosSinceMakesItStale() throws {
        let folder = try TemporaryFolder()
        let cache = try cache(folder)
        _ = try folder.write("photos/0000000000000001.json", Array("{}".utf8))
        CacheIndex.write(Self.items(), to: cache, temporary: "wf-test-index")
        #expect(CacheIndex.read(from: cache) != nil)
        try FileManager.default.removeItem(atPath: folder.path + "/photos/0000000000000001.json")
        #expect(CacheIndex.read(from: cache) == nil)
    }

    @Test func aDamagedOrTornIndexIsNotRead() throws {
        let folder = try TemporaryFolder()
        let cache = try cache(folder)
        CacheIndex.write(Self.items(), to: cache, temporary: "wf-test-index")
        let good = try Fixtures.bytes(folder.path + "/" + CacheIndex.fileName)
        let now = try #require(CacheIndex.Stamp(cache.photos))
        #expect(CacheIndex.decode(good, expecting: now) == Self.items())
        for position in stride(from: 0, to: good.count, by: max(1, good.count / 97)) {
            var damaged = good
            damaged[position] ^= 0x20
            #expect(CacheIndex.decode(damaged, expecting: now) == nil, "byte \(position) flipped")
            #expect(CacheIndex.decode(Array(good[..<position]), expecting: now) == nil, "cut at \(position)")
        }
        // Another layout's index (the same bytes under another magic line) is not this one.
        var other = good
        other[CacheIndex.magic.count - 2] = UInt8(ascii: "9")
        #expect(CacheIndex.decode(other, expecting: now) == nil)
        // The same index for a folder in another state is not read.
        var later = now
        later.modified += 1
        #expect(CacheIndex.decode(good, expecting: later) == nil)
    }

    /// A build writes the index; a build after entries changed behind its back (one deleted, as a merge
    /// or a hand might) reads them one by one, and gives the same site as a fresh build.
    @Test func buildsWriteItAndDoNotTrustItOnceStale() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder(), cache = try TemporaryFolder()
        for index in 1...3 { _ = try input.copy(Fixtures.conformance("exif-orientation/Landscape_\(index).jpg"), as: "IMG_\(index).jpg") }
        let build = ["build", input.path, "--cache-dir", cache.path, "--quiet"]
        #expect(try WaterfallProcess.run(build + ["-o", output.path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: cache.path + "/" + CacheIndex.fileName))
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache.path + "/photos").sorted()
        #expect(entries.count == 3)
        try FileManager.default.removeItem(atPath: cache.path + "/photos/" + entries[0])
        #expect(try WaterfallProcess.run(build + ["-o", output.path]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path + "/photos").count == 3)
        let fresh = try TemporaryFolder()
        #expect(try WaterfallProcess.run(["build", input.path, "--quiet", "-o", fresh.path]).status == 0)
        let files = try Fixtures.siteFiles(in: fresh.path)
        #expect(try Fixtures.siteFiles(in: output.path) == files)
        for file in files { #expect(try Fixtures.bytes(output.path + "/" + file) == Fixtures.bytes(fresh.path + "/" + file), "\(file)") }
    }
}
