import Testing
@testable import WaterfallKit

/// The decisions made from a video's facts: how it is published, at what size, with what words.
struct VideoFactsTests {
    static func facts(_ container: String, _ codec: String, _ pixels: String = "yuv420p", sound: String? = nil) -> VideoFacts {
        VideoFacts(container: container, codec: codec, pixelFormat: pixels, audioCodec: sound, durationMilliseconds: 7_200,
                   codedWidth: 1920, codedHeight: 1080, rotation: 0)
    }

    static let iso = "mov,mp4,m4a,3gp,3g2,mj2", matroska = "matroska,webm"

    @Test func whatBrowsersPlayIsPublishedAsItIs() {
        typealias Mode = VideoRequest.Mode
        let cases: [(VideoFacts, Mode)] = [
            (Self.facts(Self.iso, "h264", sound: "aac"), .copyMP4),
            (Self.facts(Self.iso, "h264"), .copyMP4),
            (Self.facts(Self.iso, "hevc", "yuv420p10le", sound: "aac"), .copyMP4),  // an iPhone's HDR video
            (Self.facts(Self.iso, "h264", "yuv422p"), .convert),  // 4:2:2: no browser decodes it
            (Self.facts(Self.iso, "h264", "yuv420p10le"), .convert),
            (Self.facts(Self.iso, "h264", sound: "pcm_s16le"), .convert),
            (Self.facts(Self.iso, "prores"), .convert),
            (Self.facts(Self.iso, "mpeg4"), .convert),
            (Self.facts(Self.matroska, "vp9", sound: "opus"), .copyWebM),
            (Self.facts(Self.matroska, "av1"), .copyWebM),
            (Self.facts(Self.matroska, "vp8", sound: "vorbis"), .copyWebM),
            (Self.facts(Self.matroska, "h264", sound: "aac"), .convert),  // H.264 in MKV: converted, not remuxed
            (Self.facts(Self.matroska, "vp9", sound: "aac"), .convert),
            (Self.facts("avi", "h264"), .convert),
        ]
        for (facts, mode) in cases { #expect(VideoRequest.mode(for: facts) == mode, "\(facts.container) \(facts.codec) \(facts.pixelFormat)") }
    }

    @Test func aConvertedVideoFitsVideoSizeWithEvenSides() {
        let convert = VideoRequest(for: Self.facts("avi", "mpeg4"), maxEdge: 1280, ffmpeg: "f")
        #expect(convert.publishedSize(display: 1920, 1080) == (1280, 720))
        #expect(convert.publishedSize(display: 1080, 1920) == (720, 1280))
        #expect(convert.publishedSize(display: 641, 361) == (642, 362))  // never larger than it is, but even
        #expect(convert.publishedSize(display: 5000, 3) == (1280, 2))
        let copy = VideoRequest(for: Self.facts(Self.iso, "h264"), maxEdge: 1280, ffmpeg: "f")
        #expect(copy.publishedSize(display: 1920, 1080) == (1920, 1080))
        #expect(copy.key != VideoRequest(for: Self.facts(Self.iso, "h264"), maxEdge: 1280, ffmpeg: "g").key)  // FFmpeg's version counts
        #expect(convert.key != VideoRequest(for: Self.facts("avi", "mpeg4"), maxEdge: 640, ffmpeg: "f").key)
        #expect(copy.key == VideoRequest(for: Self.facts(Self.iso, "h264"), maxEdge: 640, ffmpeg: "f").key)  // a copy has no size
    }

    @Test func durationsAndDatesReadAsAPhotoPagesDo() {
        func text(_ milliseconds: Int) -> String? {
            var facts = Self.facts(Self.iso, "h264")
            facts.durationMilliseconds = milliseconds
            return facts.durationText
        }
        #expect(text(0) == nil && text(200) == "0:01" && text(7_200) == "0:07" && text(59_600) == "1:00")
        #expect(text(723_000) == "12:03" && text(3_723_000) == "1:02:03")
        #expect(PhotoFacts.recordingDate("2024-05-17T08:30:12.000000Z")! == ("2024-05-17 08:30:12", 20_240_517_083_012))
        for bad in ["", "2024-05-17", "2024-13-17T08:30:12Z", "yesterday at noon, roughly", "2024-05-17T25:30:12Z"] {
            #expect(PhotoFacts.recordingDate(bad) == nil, "\(bad)")
        }
    }

    @Test func ffprobesAnswerIsCheckedNotTrusted() throws {
        func header(_ json: String) throws -> Result<ImageHeader, ImageReadError> {
            VideoProbe.header(from: try JSONParser.parse(json), maxPixels: 100_000_000)
        }
        let turned = try header(#"{"streams": [{"codec_type": "video", "codec_name": "h264", "width": 1920, "height": 1080, "pix_fmt": "yuv420p", "side_data_list": [{"rotation": -90}]}], "format": {"format_name": "mov,mp4,m4a,3gp,3g2,mj2", "duration": "7.2"}}"#)
        #expect(turned.map { [$0.width, $0.height, $0.video!.rotation, $0.video!.durationMilliseconds] } == .success([1080, 1920, 90, 7_200]))
        let cover = try header(#"{"streams": [{"codec_type": "video", "codec_name": "mjpeg", "width": 600, "height": 600, "disposition": {"attached_pic": 1}}, {"codec_type": "audio", "codec_name": "aac"}]}"#)
        #expect(cover.failureValue?.reason == "no video stream (sound only)")
        let huge = try header(#"{"streams": [{"codec_type": "video", "codec_name": "h264", "width": 60000, "height": 60000}]}"#)
        #expect(huge.failureValue?.kind == .tooLarge)
        let zero = try header(#"{"streams": [{"codec_type": "video", "codec_name": "h264", "width": 0, "height": 10}]}"#)
        #expect(zero.failureValue?.kind == .corrupt)
        let odd = try header(#"{"streams": [{"codec_type": "video", "codec_name": "h264", "width": 100, "height": 50, "sample_aspect_ratio": "0:1"}], "format": {"duration": "1e400"}}"#)
        #expect(odd.map { [$0.width, $0.height, $0.video!.rotation, $0.video!.durationMilliseconds] } == .success([100, 50, 0, 0]))
        // Turns: read from the matrix; anything but a plain quarter turn is refused, ffprobe's rounded or
        // undefined angle never trusted (a degenerate matrix gave Int.min, which once trapped on negation).
        func turn(_ side: String) throws -> Int? {
            try? header(#"{"streams": [{"codec_type": "video", "codec_name": "h264", "width": 100, "height": 50, "side_data_list": [\#(side)]}]}"#)
                .map { $0.video!.rotation }.get()
        }
        func matrix(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> String {
            #"{"displaymatrix": "\n00000000: \#(a) \#(b) 0\n00000001: \#(c) \#(d) 0\n00000002: 0 0 1073741824\n", "rotation": -90}"#
        }
        #expect(try turn(matrix(0, 65536, -65536, 0)) == 90 && (try turn(matrix(-65536, 0, 0, -65536))) == 180)
        #expect(try turn(matrix(0, -65536, 65536, 0)) == 270 && (try turn(matrix(65536, 0, 0, 65536))) == 0)
        #expect(try turn(matrix(457, 65534, -65534, 457)) == nil && (try turn(matrix(-65536, 0, 0, 65536))) == nil)
        #expect(try turn(#"{"rotation": -9223372036854775808}"#) == nil && (try turn(#"{"rotation": 33}"#)) == nil)
        #expect(try turn(#"{"rotation": -270}"#) == 270)
        #expect(try header(#"{"streams": []}"#).failureValue?.reason == "no streams")
    }
}
