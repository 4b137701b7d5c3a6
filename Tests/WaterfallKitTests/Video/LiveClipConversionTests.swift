import Foundation
import Testing
@testable import WaterfallKit

/// A Live Photo's clip that is not H.264 (an iPhone's HEVC) is published as H.264 within the view size, so
/// that every browser plays it; an H.264 clip stays copied. Through the real binary, FFmpeg and ffprobe, on
/// the committed fixtures (Tests/Tools/make_live_photo_fixtures.py: Fixtures/live-hevc).
@Suite(.serialized) struct LiveClipConversionTests {
    static let fixtures = Fixtures.root.appendingPathComponent("live-hevc").path
    /// The published clips, by their stills' names (IMG_0010 pairs by name, Still_C with Clip_D by identifier).
    static let clips = ["images/video/IMG_0010.HEIC.mp4", "images/video/Still_C.JPG.mp4"]

    static func build(_ input: String, _ output: String, _ extra: [String] = []) throws -> [String: Int] {
        let (run, images) = try WaterfallProcess.buildReportingImages([input, "-o", output] + extra)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        return images
    }

    static func streams(_ path: String) throws -> String {
        try VideoFixtures.probe(path, "stream=codec_type,codec_name,pix_fmt,width,height")
    }

    /// The video stream's packets, hashed: equal when a stream was copied.
    static func videoPackets(_ path: String) throws -> String {
        try VideoFixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0", "-c", "copy", "-f", "md5", "-"])
    }

    @Test func anHEVCClipIsPublishedAsH264() throws {
        let one = try TemporaryFolder(), two = try TemporaryFolder()
        let made = try Self.build(Self.fixtures, one.path)
        _ = try Self.build(Self.fixtures, two.path)
        for clip in Self.clips {
            let streams = try Self.streams(one.path + "/" + clip)
            #expect(streams.contains("codec_name=h264\ncodec_type=video\nwidth=64\nheight=48\npix_fmt=yuv420p"), "\(clip): \(streams)")
            #expect(streams.contains("codec_name=aac\ncodec_type=audio"), "\(clip): \(streams)")
            let bytes = try Fixtures.bytes(one.path + "/" + clip)
            #expect(!String(decoding: bytes, as: UTF8.self).contains("1F3C8B2A-"), "\(clip): the identifier is published")
            // Deterministic: another build makes the same bytes.
            let other = try Fixtures.bytes(two.path + "/" + clip)
            #expect(bytes == other, "\(clip) differs between two builds")
        }
        // A rebuild makes nothing (a clip paired across names included).
        let again = try Self.build(Self.fixtures, one.path)
        #expect((made["made"] ?? 0) > 0 && again["made"] == 0, "\(made) \(again)")
    }

    /// The view size bounds a converted clip, and is in its key; an H.264 clip is copied whatever it is.
    @Test func theViewSizeBoundsAConvertedClip() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for name in ["IMG_0010.HEIC", "IMG_0010.MOV"] { try input.copy(Self.fixtures + "/" + name, as: name) }
        for name in ["IMG_0001.HEIC", "IMG_0001.MOV"] { try input.copy(LivePhotoTests.fixtures + "/" + name, as: name) }
        _ = try Self.build(input.path, output.path, ["--view-size", "32"])
        let small = try Self.streams(output.path + "/images/video/IMG_0010.HEIC.mp4")
        #expect(small.contains("codec_name=h264\ncodec_type=video\nwidth=32\nheight=24"), "\(small)")
        let copied = output.path + "/images/video/IMG_0001.HEIC.mp4"
        #expect(try Self.streams(copied).contains("width=64\nheight=48"))
        let source = try Self.videoPackets(input.path + "/IMG_0001.MOV")
        #expect(try Self.videoPackets(copied) == source, "an H.264 clip was not copied")

        let again = try Self.build(input.path, output.path)
        #expect(again["made"] ?? 0 > 0, "\(again)")
        #expect(try Self.streams(output.path + "/images/video/IMG_0010.HEIC.mp4").contains("width=64\nheight=48"))
    }

    /// A clip whose still is gone is a video of its own again: its HEVC copied as any video's.
    @Test func aClipThatNoLongerPairsIsCopied() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for name in ["Still_C.JPG", "Clip_D.MOV"] { try input.copy(Self.fixtures + "/" + name, as: name) }
        _ = try Self.build(input.path, output.path)
        #expect(try Self.streams(output.path + "/images/video/Still_C.JPG.mp4").contains("codec_name=h264"))
        try FileManager.default.removeItem(atPath: input.path + "/Still_C.JPG")
        _ = try Self.build(input.path, output.path)
        let own = output.path + "/images/video/Clip_D.MOV.mp4"
        let site = try Fixtures.siteFiles(in: output.path)
        #expect(try Self.streams(own).contains("codec_name=hevc"), "\(site)")
        let source = try Self.videoPackets(input.path + "/Clip_D.MOV")
        #expect(try Self.videoPackets(own) == source)
    }

    /// The decision, in one place: a Live Photo's clip is copied only as 8-bit 4:2:0 H.264 with AAC or no
    /// sound in MP4 or MOV.
    @Test func whichLiveClipsAreConverted() {
        func facts(_ codec: String, _ pixels: String = "yuv420p", sound: String? = "aac", container: String = "mov,mp4,m4a,3gp,3g2,mj2") -> VideoFacts {
            VideoFacts(container: container, codec: codec, pixelFormat: pixels, audioCodec: sound, durationMilliseconds: 2000,
                       codedWidth: 64, codedHeight: 48, rotation: 0)
        }
        #expect(VideoRequest.mode(for: facts("h264"), live: true) == .copyMP4)
        #expect(VideoRequest.mode(for: facts("h264", sound: nil), live: true) == .copyMP4)
        #expect(VideoRequest.mode(for: facts("hevc"), live: true) == .live)
        #expect(VideoRequest.mode(for: facts("hevc")) == .copyMP4)  // a video of its own stays copied
        #expect(VideoRequest.mode(for: facts("hevc", "yuv420p10le"), live: true) == .live)
        #expect(VideoRequest.mode(for: facts("h264", "yuv420p10le"), live: true) == .live)
        #expect(VideoRequest.mode(for: facts("h264", sound: "pcm_s16le"), live: true) == .live)
        #expect(VideoRequest.mode(for: facts("vp9", sound: "opus", container: "matroska,webm"), live: true) == .live)
    }
}
