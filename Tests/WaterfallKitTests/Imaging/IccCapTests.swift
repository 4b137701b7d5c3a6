import CImageIO
import Foundation
import Testing
@testable import WaterfallKit

/// Issue 26: a 10 KB PNG carrying a 4 MB ICC profile became derived images of 4 MB each. A profile over the
/// cap (1 MiB, icc_cap.h) is left out of every derived image, whatever format carries it (JPEG APP2, PNG
/// iCCP, WebP ICCP, HEIF and AVIF colr), with a warning that names the file; one under it is kept whole.
struct IccCapTests {
    static let cap = 1 << 20
    static let folder = Fixtures.root.appendingPathComponent("formats/icc-cap").path

    /// srgb.icc grown to `size` bytes by a private tag of zeros (make_icc_cap_fixtures.py's padded_profile).
    static func profile(size: Int) throws -> [UInt8] {
        let base = try Fixtures.bytes(Fixtures.root.appendingPathComponent("thumbnails/srgb.icc").path)
        func be32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(base[at + $1]) } }
        func put32(_ value: Int, into bytes: inout [UInt8], at: Int) {
            for k in 0..<4 { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * k)) }
        }
        let count = be32(128)
        var table: [(signature: ArraySlice<UInt8>, offset: Int, length: Int)] = (0..<count).map { k in
            (base[(132 + 12 * k)..<(136 + 12 * k)], be32(136 + 12 * k) + 12, be32(140 + 12 * k))
        }
        var start = base.count + 12
        start += (4 - start % 4) % 4
        table.append((ArraySlice(Array("wfpd".utf8)), start, size - start))
        var out = Array(base[0..<128])
        put32(size, into: &out, at: 0)
        out += [0, 0, 0, 0]
        put32(count + 1, into: &out, at: 128)
        for entry in table {
            var row = Array(entry.signature) + [UInt8](repeating: 0, count: 8)
            put32(entry.offset, into: &row, at: 4)
            put32(entry.length, into: &row, at: 8)
            out += row
        }
        out += base[(132 + 12 * count)...]
        out += [UInt8](repeating: 0, count: start - out.count)
        out += Array("data".utf8) + [UInt8](repeating: 0, count: size - start - 4)
        return out
    }

    static func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// A JPEG with `profile` in ICC_PROFILE APP2 segments right after SOI.
    static func jpeg(with profile: [UInt8]) throws -> [UInt8] {
        let photo = try Fixtures.bytes(Trust.photo("coffee-cup.jpg"))
        let chunk = 65519
        let chunks = stride(from: 0, to: profile.count, by: chunk).map { Array(profile[$0..<min($0 + chunk, profile.count)]) }
        var segments: [UInt8] = []
        for (index, part) in chunks.enumerated() {
            let length = 2 + 14 + part.count
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("ICC_PROFILE".utf8) + [0]
            segments += [UInt8(index + 1), UInt8(chunks.count)] + part
        }
        return Array(photo[0..<2]) + segments + Array(photo[2...])
    }

    /// W05-icc.webp with its ICCP chunk's payload replaced by `profile`.
    static func webp(with profile: [UInt8]) throws -> [UInt8] {
        let bytes = try Fixtures.bytes(Fixtures.root.appendingPathComponent("formats/webp/W05-icc.webp").path)
        var out = Array(bytes[0..<12])
        for chunk in webpChunks(bytes) {
            let payload = chunk.tag == "ICCP" ? profile : Array(chunk.payload)
            out += Array(chunk.tag.utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
        }
        out.replaceSubrange(4..<8, with: le32(out.count - 8))
        return out
    }

    /// colr-prof.heic or .avif with its colr profile replaced by `profile`: the file's boxes on the way
    /// (meta, iprp, ipco, colr) grow by the difference; mdat comes first, so iloc's offsets stay right.
    static func heif(_ name: String, with profile: [UInt8]) throws -> [UInt8] {
        var bytes = try Fixtures.bytes(folder + "/" + name)
        func find(_ type: String, from: Int = 0) -> Int? {
            let pattern = Array(type.utf8)
            return (from..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == pattern }.map { $0 - 4 }
        }
        func size(at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        let colr = try #require(find("colr"))
        let old = size(at: colr) - 12  // after the header and "prof"
        let grown = profile.count - old
        for type in ["meta", "iprp", "ipco"] {
            let at = try #require(find(type))
            bytes.replaceSubrange(at..<(at + 4), with: be32(size(at: at) + grown))
        }
        bytes.replaceSubrange(colr..<(colr + 4), with: be32(profile.count + 12))
        bytes.replaceSubrange((colr + 12)..<(colr + 12 + old), with: profile)
        return bytes
    }

    /// Every format, its profile `size` bytes long, written into `folder`: (file name, path).
    static func sources(profileSize size: Int, in folder: String) throws -> [(name: String, path: String)] {
        let profile = try profile(size: size)
        let files: [(String, [UInt8])] = [
            ("jpeg.jpg", try jpeg(with: profile)), ("webp.webp", try webp(with: profile)),
            ("heic.heic", try heif("colr-prof.heic", with: profile)), ("avif.avif", try heif("colr-prof.avif", with: profile)),
        ]
        return try files.map { name, bytes in
            try Trust.write(folder + "/" + name, bytes)
            return (name, folder + "/" + name)
        }
    }

    static let tileAndView = [ThumbnailRequest.width(120), .longEdge(400)]

    /// Under the cap the profile is kept, byte for byte, in every format (the cap is not too low).
    @Test func aProfileUnderTheCapIsKept() throws {
        let folder = try TemporaryFolder()
        for source in try Self.sources(profileSize: 600 << 10, in: folder.path) {
            let made = try Thumbnailer().make(from: source.path, to: folder.path + "/out-" + source.name, request: .width(120))
            #expect(made.colorProfileLength == 600 << 10 && made.warning == nil, "\(source.name)")
            #expect(iccProfile(folder.path + "/out-" + source.name).count == 600 << 10, "\(source.name)")
        }
    }

    /// Over it, every format's derived image goes without, and says why on one line.
    @Test func aProfileOverTheCapIsLeftOutWithAWarning() throws {
        let folder = try TemporaryFolder()
        var sources = try Self.sources(profileSize: Self.cap + 1, in: folder.path)
        sources.append(("profile-4mb.png", Self.folder + "/profile-4mb.png"))
        for source in sources {
            let made = try Thumbnailer().make(from: source.path, to: folder.path + "/out-" + source.name, request: .width(120))
            #expect(made.colorProfileLength == 0, "\(source.name)")
            #expect(iccProfile(folder.path + "/out-" + source.name).isEmpty, "\(source.name)")
            let warning = try #require(made.warning, "\(source.name)")
            #expect(warning.hasSuffix("ICC colour profile is over the 1 MiB limit: left out of its images, which show as sRGB"))
            #expect(!warning.contains("\n"))
            let size = try FileManager.default.attributesOfItem(atPath: folder.path + "/out-" + source.name)[.size] as! Int
            #expect(size < 100_000, "\(source.name): \(size) bytes")
        }
    }

    @Test func theWarningGivesTheProfilesSize() throws {
        let folder = try TemporaryFolder()
        let made = try Thumbnailer().make(from: Self.folder + "/profile-4mb.png", to: folder.path + "/out", request: .width(60))
        #expect(made.warning == "its 3.8 MiB ICC colour profile is over the 1 MiB limit: left out of its images, which show as sRGB")
    }

    /// The build: exit 0, one warning line per such photo naming it, every photo published, and no derived
    /// image heavier than a photo's worth.
    @Test func aBuildWarnsOncePerPhotoAndPublishesItWithoutTheProfile() throws {
        let input = try Trust.input(["coffee-cup.jpg"])
        try Trust.makeFolders(input.path + "/Album")
        let sources = try Self.sources(profileSize: 4_000_000, in: input.path + "/Album")
        try Trust.copy(Self.folder + "/profile-4mb.png", to: input.path + "/Album/profile-4mb.png")
        let output = try TemporaryFolder()
        let run = try Watchdog.run(["build", input.path, "-o", output.path, "--formats", "avif,webp,jpeg"])
        #expect(run.exited && run.status == 0, "\(run.stderr)")
        for name in sources.map(\.name) + ["profile-4mb.png"] {
            let path = input.path + "/Album/" + name
            let lines = Trust.lines(run, naming: path)
            #expect(lines.count == 1 && lines[0].hasPrefix("waterfall: warning: \(path): its ")
                    && lines[0].hasSuffix("ICC colour profile is over the 1 MiB limit: left out of its images, which show as sRGB"),
                    "\(name): \(lines)")
        }
        #expect(run.stderr.split(separator: "\n").last?.hasPrefix("6 photos, 0 skipped") == true, "\(run.stderr)")
        let images = try Fixtures.siteFiles(in: output.path).filter { $0.hasPrefix("images/") || $0.contains("/images/") }
        #expect(images.count >= 6 * 6, "\(images)")  // two sizes or more, three formats, six photos
        for image in images {
            let size = try FileManager.default.attributesOfItem(atPath: output.path + "/" + image)[.size] as! Int
            #expect(size < 1_000_000, "\(image): \(size) bytes")
        }
        Trust.expectSoundSite(output.path)
    }
}
