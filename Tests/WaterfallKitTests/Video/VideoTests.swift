import Foundation
import Testing
@testable import WaterfallKit

/// Videos through the real binary and FFmpeg's real programs: sizes as a browser shows them, what is
/// published (and what is not: metadata), posters, hostile files, limits, rebuilds.
@Suite(.serialized) struct VideoTests {
    /// `inspect --json` of one file, as an object.
    static func inspect(_ path: String) throws -> [String: Any] {
        let run = try WaterfallProcess.run(["inspect", "--json", path])
        let list = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [[String: Any]]
        return list[0]
    }

    /// The build's report, after it ran with `--report FILE`.
    static func build(_ input: String, _ output: String, _ extra: [String] = [],
                      environment: [String: String]? = nil) throws -> (report: [String: Any], run: WaterfallProcess.Outcome) {
        let report = output + ".report.json"
        let run = try WaterfallProcess.run(["build", input, "-o", output, "--quiet", "--report", report] + extra, environment: environment)
        let data = try Data(contentsOf: URL(fileURLWithPath: report))
        return (try JSONSerialization.jsonObject(with: data) as! [String: Any], run)
    }

    struct SizeCase: Sendable, CustomStringConvertible {
        var name: String
        var make: @Sendable (String) throws -> Void
        var display: (Int, Int)
        var stored: (Int, Int)
        var codec: String
        var rotation = 0
        var description: String { name }
    }

    static let sizeCases: [SizeCase] = [
        SizeCase(name: "plain.mp4", make: { try VideoFixtures.pattern($0, sound: "aac") }, display: (320, 240), stored: (320, 240), codec: "h264"),
        SizeCase(name: "quicktime.mov", make: { try VideoFixtures.pattern($0, extra: ["-f", "mov"]) }, display: (320, 240), stored: (320, 240), codec: "h264"),
        SizeCase(name: "web.webm", make: { try VideoFixtures.pattern($0, codec: ["-c:v", "libvpx-vp9"], sound: "libopus") },
                 display: (320, 240), stored: (320, 240), codec: "vp9"),
        SizeCase(name: "camera.avi", make: { try VideoFixtures.pattern($0, codec: ["-c:v", "mpeg4"]) }, display: (320, 240), stored: (320, 240), codec: "mpeg4"),
        // The web's Ogg, a camcorder's transport stream, a DVD's program stream, Windows Media, Flash.
        SizeCase(name: "web.ogv", make: { try VideoFixtures.pattern($0, codec: ["-c:v", "libtheora"]) }, display: (320, 240), stored: (320, 240), codec: "theora"),
        SizeCase(name: "camcorder.mts", make: { try VideoFixtures.pattern($0, codec: ["-c:v", "mpeg2video", "-f", "mpegts"]) },
                 display: (320, 240), stored: (320, 240), codec: "mpeg2video"),
        SizeCase(name: "disc.mpg", make: { try VideoFixtures.pattern($0, codec: ["-c:v", "mpeg2video", "-f", "vob"]) },
                 display: (320, 240), stored: (320, 240), codec: "mpeg2video"),
        SizeCase(name: "windows.wmv", make: { try VideoFixtures.pattern($0, codec: ["-c:v", "wmv2"]) }, display: (320, 240), stored: (320, 240), codec: "wmv2"),
        SizeCase(name: "flash.flv", make: { try VideoFixtures.pattern($0, codec: ["-c:v", "flv1"]) }, display: (320, 240), stored: (320, 240), codec: "flv1"),
        // A phone's portrait video is stored landscape with a display matrix.
        SizeCase(name: "turned-90.mp4", make: { try VideoFixtures.pattern($0); try VideoFixtures.box(["rotate", $0, "90"]) },
                 display: (240, 320), stored: (320, 240), codec: "h264", rotation: 90),
        SizeCase(name: "turned-180.mov", make: { try VideoFixtures.pattern($0, extra: ["-f", "mov"]); try VideoFixtures.box(["rotate", $0, "180"]) },
                 display: (320, 240), stored: (320, 240), codec: "h264", rotation: 180),
        SizeCase(name: "turned-270.mp4", make: { try VideoFixtures.pattern($0); try VideoFixtures.box(["rotate", $0, "270"]) },
                 display: (240, 320), stored: (320, 240), codec: "h264", rotation: 270),
        // Anamorphic: pixels twice as wide as they are tall.
        SizeCase(name: "anamorphic.mp4", make: { try VideoFixtures.pattern($0, extra: ["-vf", "setsar=2/1"]) },
                 display: (640, 240), stored: (320, 240), codec: "h264"),
        SizeCase(name: "anamorphic-turned.mp4", make: { try VideoFixtures.pattern($0, extra: ["-vf", "setsar=2/1"]); try VideoFixtures.box(["rotate", $0, "90"]) },
                 display: (240, 640), stored: (320, 240), codec: "h264", rotation: 90),
    ]

    @Test(arguments: sizeCases) func inspectReportsTheDisplaySize(_ example: SizeCase) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/" + example.name
        try example.make(path)
        let found = try Self.inspect(path)
        #expect(found["format"] as? String == "video", "\(found)")
        #expect(found["codec"] as? String == example.codec)
        #expect(found["width"] as? Int == example.display.0 && found["height"] as? Int == example.display.1, "\(found)")
        #expect(found["pixelWidth"] as? Int == example.stored.0 && found["pixelHeight"] as? Int == example.stored.1)
        #expect(found["rotation"] as? Int == example.rotation)
        let duration = try #require(found["duration"] as? Double)
        #expect(abs(duration - 3) < 0.1)
    }

    /// The gallery's boxes are the display sizes, the posters are made at them, the photo page plays the
    /// video sized as its view image, and the tile says how long it is.
    @Test func aGalleryShowsAndPlaysItsVideos() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a-photo.jpg")
        try VideoFixtures.pattern(input.path + "/clip.mp4", sound: "aac")
        try VideoFixtures.pattern(input.path + "/portrait.mp4")
        try VideoFixtures.box(["rotate", input.path + "/portrait.mp4", "90"])
        try input.write("portrait.txt", Array("Held upright\nA phone's portrait video.\n".utf8))
        let (report, run) = try Self.build(input.path, output.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(report["photos"] as? Int == 3 && (report["skipped"] as? [Any])?.isEmpty == true, "\(report)")
        let portraitView = HeaderReader().read(path: output.path + "/images/view/portrait.mp4.jpg")
        #expect(portraitView.map { [$0.width, $0.height] } == .success([240, 320]))
        let page = try String(contentsOfFile: output.path + "/photos/portrait.mp4.html", encoding: .utf8)
        #expect(page.contains(#"<video controls preload="metadata" playsinline poster="../images/view/portrait.mp4.jpg" width="240" height="320""#), "\(page)")
        #expect(page.contains(#"<source src="../images/video/portrait.mp4" type="video/mp4">"#))
        // Its caption from its sidecar, as a photo's; previous and next links.
        #expect(page.contains("A phone&#39;s portrait video.") || page.contains("A phone's portrait video."), "\(page)")
        #expect(page.contains(#"rel="prev""#) && page.contains("<title>Held upright"))
        let gallery = try String(contentsOfFile: output.path + "/index.html", encoding: .utf8)
        #expect(gallery.contains(#"<span class="wf-duration">0:03</span>"#))
        #expect(gallery.components(separatedBy: "wf-video-mark").count == 3)  // two videos, not the photo
        #expect(gallery.contains(#"width="240" height="320""#))
        // The published portrait keeps its matrix: a browser turns it as the poster is turned.
        let published = try VideoFixtures.probe(output.path + "/images/video/portrait.mp4", "stream=codec_name:stream_side_data=rotation")
        #expect(published.contains("codec_name=h264") && published.contains("rotation=-90"), "\(published)")
    }

    /// What a browser plays is published as it is, in a new container with none of the old one's metadata;
    /// anything else is converted once to H.264 and AAC within `videoSize`.
    @Test func publishesPlayableVideosAsTheyAreAndConvertsTheRest() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        // A phone's position, as ffmpeg writes it (3GPP loci and the QuickTime key), and a title.
        try VideoFixtures.pattern(input.path + "/here.mp4", sound: "aac",
                                  extra: ["-metadata", "location=+48.8583+002.2945/", "-metadata", "title=Secret place"])
        try VideoFixtures.pattern(input.path + "/web.webm", codec: ["-c:v", "libvpx-vp9"], sound: "libopus",
                                  extra: ["-metadata", "title=Secret place"])
        try VideoFixtures.pattern(input.path + "/old.avi", size: "640x360", codec: ["-c:v", "mpeg4"], sound: "pcm_s16le")
        try input.write("waterfall.json", Array(#"{"videoSize": 320}"#.utf8))
        let (report, run) = try Self.build(input.path, output.path)
        #expect(run.status == 0 && report["photos"] as? Int == 3, "\(run.stderr)")
        let here = try Fixtures.bytes(output.path + "/images/video/here.mp4")
        let source = try Fixtures.bytes(input.path + "/here.mp4")
        #expect(Self.contains(source, "loci") && Self.contains(source, "Secret place"))  // the test would prove nothing otherwise
        for marker in ["loci", "\u{A9}xyz", "Secret place", "Lavf"] {
            let published = Self.contains(here, marker)
            #expect(!published, "\(marker) published")
        }
        let titled = Self.contains(try Fixtures.bytes(output.path + "/images/video/web.webm"), "Secret place")
        #expect(!titled)
        #expect(try VideoFixtures.probe(output.path + "/images/video/here.mp4", "stream=codec_name")
            == "codec_name=h264\ncodec_name=aac\n")
        #expect(try VideoFixtures.probe(output.path + "/images/video/web.webm", "stream=codec_name")
            == "codec_name=vp9\ncodec_name=opus\n")
        // Converted: H.264 and AAC, 320 wide as videoSize asks, the page's box the same shape.
        #expect(try VideoFixtures.probe(output.path + "/images/video/old.avi.mp4", "stream=codec_name,width,height")
            == "codec_name=h264\nwidth=320\nheight=180\ncodec_name=aac\n")
        let page = try String(contentsOfFile: output.path + "/photos/old.avi.html", encoding: .utf8)
        #expect(page.contains(#"width="640" height="360""#) && page.contains(#"src="../images/video/old.avi.mp4" type="video/mp4""#))
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// A video that starts black gets a poster from a little way in, not its black first frame.
    @Test func thePosterIsNotABlackFirstFrame() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try VideoFixtures.ffmpeg(["-f", "lavfi", "-i", "color=black:size=320x240:rate=25:duration=1", "-f", "lavfi", "-i",
                                  "testsrc2=size=320x240:rate=25:duration=5", "-filter_complex", "[0][1]concat=n=2:v=1:a=0",
                                  "-c:v", "libx264", "-pix_fmt", "yuv420p", input.path + "/fade.mp4"])
        let (_, run) = try Self.build(input.path, output.path)
        #expect(run.status == 0, "\(run.stderr)")
        let page = try String(contentsOfFile: output.path + "/photos/fade.mp4.html", encoding: .utf8)
        let channels = try #require(Self.posterColour(page))
        #expect(channels.reduce(0, +) > 150, "poster colour \(channels)")
    }

    /// The red, green and blue of the mean colour a video's page shows under its poster.
    static func posterColour(_ page: String) -> [Int]? {
        page.range(of: #"--wf-color: #[0-9a-f]{6}"#, options: .regularExpression).map { range in
            let hex = page[range].suffix(6)
            return stride(from: 0, to: 6, by: 2).map { Int(hex.dropFirst($0).prefix(2), radix: 16)! }
        }
    }

    /// Every bad video is skipped with one line naming it, and the rest of the gallery is built.
    @Test func hostileVideosAreSkippedWithAReason() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: "a-photo.jpg")
        let good = try VideoFixtures.pattern(input.path + "/good.mp4")
        try input.write("empty.mp4", [])
        try input.write("truncated.mp4", Array(try Fixtures.bytes(good).prefix(2000)))
        // Cut after its header (a copy that stopped): ffprobe reads it, its frames are missing.
        let whole = try Fixtures.bytes(Fixtures.inRepository("SampleGallery/Phone/hubble-pan.mp4"))
        try input.write("cut-short.mp4", Array(whole.prefix(whole.count / 10)))
        try VideoFixtures.ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", input.path + "/sound-only.mp4"])
        try input.write("notes.mov", Array("not a movie\n".utf8))
        // Sizes its headers claim but its stream does not have: the stream's own size is the one used.
        try input.copy(good, as: "claims-huge.mp4")
        try VideoFixtures.box(["declare", input.path + "/claims-huge.mp4", "60000", "60000"])
        // A live recording's WebM: no duration, no index.
        try VideoFixtures.pattern(input.path + "/live.webm", codec: ["-c:v", "libvpx-vp9"], extra: ["-live", "1", "-f", "webm"])
        // Damaged at random, seeded: read or refused, never a crash or a hang.
        var generator = SplitMix64(seed: 15)
        for number in 0..<6 {
            var bytes = try Fixtures.bytes(good)
            for _ in 0..<(20 << number) { bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next()) }
            try input.write("fuzzed-\(number).mp4", bytes)
        }
        let (outcome, killed) = try WaterfallProcess.runKilling(["build", input.path, "-o", output.path, "--quiet"], timeout: 300)
        #expect(!killed && outcome.exited && outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        for (name, reason) in [("empty.mp4", "empty file"), ("truncated.mp4", "ffprobe cannot read it"),
                               ("sound-only.mp4", "no video stream (sound only)"), ("notes.mov", "not an image format"),
                               ("cut-short.mp4", "the video is cut short (ffmpeg: partial file)")] {
            #expect(lines.contains { $0.contains("/\(name): skipped: \(reason)") }, "\(name): \(outcome.stderr)")
        }
        for line in lines { #expect(!line.isEmpty && !line.contains("\r")) }
        #expect(FileManager.default.fileExists(atPath: output.path + "/images/video/good.mp4"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/images/video/live.webm"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/photos/a-photo.jpg.html"))
        let huge = HeaderReader().read(path: output.path + "/images/view/claims-huge.mp4.jpg")
        #expect(huge.map { [$0.width, $0.height] } == .success([320, 240]))
        let live = try String(contentsOfFile: output.path + "/index.html", encoding: .utf8)
        #expect(live.contains("wf-video-mark"))
    }

    /// A display matrix that is not a plain quarter turn is refused: FFmpeg would turn the poster one way
    /// and a browser the video another.
    @Test(arguments: [
        ["457", "65534", "0", "-65534", "457", "0", "0", "0", "1073741824"],  // 89.6°
        ["-65536", "0", "0", "0", "65536", "0", "0", "0", "1073741824"],  // mirrored
        ["0", "65536", "0", "0", "65536", "0", "0", "0", "1073741824"],  // degenerate: no angle at all
        ["131072", "0", "0", "0", "131072", "0", "0", "0", "1073741824"],  // scaled
    ]) func oddDisplayMatricesAreRefused(_ matrix: [String]) throws {
        let folder = try TemporaryFolder()
        let path = try VideoFixtures.pattern(folder.path + "/odd.mp4")
        try VideoFixtures.box(["matrix", path] + matrix)
        let run = try WaterfallProcess.run(["inspect", path])
        #expect(run.exited && run.status == 1)
        #expect(run.stderr == "waterfall: \(path): a display matrix that is not a plain quarter turn (mirrored, scaled or at another angle)\n",
                "\(run.stderr)")
    }

    /// Cover art stored as the first "video" stream is neither the poster nor the published video.
    @Test func coverArtIsNotTheVideo() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder(), work = try TemporaryFolder()
        let plain = try VideoFixtures.pattern(work.path + "/plain.mp4", sound: "aac")
        try VideoFixtures.ffmpeg(["-f", "lavfi", "-i", "color=red:size=64x64", "-frames:v", "1", work.path + "/cover.jpg"])
        try VideoFixtures.ffmpeg(["-i", work.path + "/cover.jpg", "-i", plain, "-map", "0", "-map", "1", "-c", "copy",
                                  "-disposition:v:0", "attached_pic", input.path + "/covered.mp4"])
        try VideoFixtures.box(["udta-first", input.path + "/covered.mp4"])
        #expect(try VideoFixtures.probe(input.path + "/covered.mp4", "stream=codec_name").hasPrefix("codec_name=mjpeg\n"))
        let (_, run) = try Self.build(input.path, output.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try VideoFixtures.probe(output.path + "/images/video/covered.mp4", "stream=codec_name") == "codec_name=h264\ncodec_name=aac\n")
        let page = try String(contentsOfFile: output.path + "/photos/covered.mp4.html", encoding: .utf8)
        #expect(Self.posterColour(page).map { !($0[0] > 200 && $0[1] < 40) } == true, "the poster is the red cover: \(page)")
    }

    /// A converted video keeps its frames as timed: a gap in its timestamps is not filled with copies (a
    /// small file claiming hours would otherwise cost hours of encoding).
    @Test func aGapIsNotFilledWithCopiesOfAFrame() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try VideoFixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "27",
                                  "-vf", "setpts='if(gte(N,26),120/TB,PTS)'", "-fps_mode", "passthrough", "-c:v", "libx264",
                                  "-pix_fmt", "yuv422p", input.path + "/gap.mkv"])
        let (_, run) = try Self.build(input.path, output.path)
        #expect(run.status == 0, "\(run.stderr)")
        let frames = try VideoFixtures.run("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                                 "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                                                                 output.path + "/images/video/gap.mkv.mp4"])
        #expect(Int(frames.trimmingCharacters(in: .whitespacesAndNewlines)).map { $0 <= 30 } == true, "\(frames) frames")
    }

    /// A video replaced while the build reads it is not stored under the old file's hash: skipped, and read
    /// afresh by the next build.
    /// Containers no browser plays (or not every one: Ogg) are converted once to H.264 in MP4, as AVI is.
    @Test func camerasAndOldFormatsArePublishedAsMP4() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let names = ["web.ogv", "camcorder.mts", "disc.mpg", "windows.wmv", "flash.flv"]
        for example in Self.sizeCases where names.contains(example.name) { try example.make(input.path + "/" + example.name) }
        let (report, run) = try Self.build(input.path, output.path)
        #expect(run.status == 0 && (report["skipped"] as? [Any])?.isEmpty == true, "\(run.stderr)")
        for name in names {
            #expect(try VideoFixtures.probe(output.path + "/images/video/\(name).mp4", "stream=codec_name").contains("codec_name=h264"), "\(name)")
        }
    }

    /// A QuickTime reference movie keeps its frames in another file: FFmpeg never opens it, and the skip says why.
    @Test func aMovieWhoseFramesAreElsewhereIsSkippedSayingSo() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        let movie = try VideoFixtures.pattern(input.path + "/reference.mov", extra: ["-f", "mov"])
        try VideoFixtures.box(["external", movie, "/Volumes/Elsewhere/it's a clip.mov"])
        let (report, run) = try Self.build(input.path, output.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("reference.mov: skipped: its frames are in another file (an external data reference to "
            + "/Volumes/Elsewhere/it's a clip.mov), which Waterfall does not open\n"), "\(run.stderr)")
        #expect((report["skipped"] as? [Any])?.count == 1)
    }

    @Test func aVideoChangedDuringTheBuildIsNotStoredAsTheOldOne() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder(), tools = try TemporaryFolder()
        let clip = try VideoFixtures.pattern(input.path + "/clip.mp4")
        try VideoFixtures.ffmpeg(["-f", "lavfi", "-i", "color=blue:size=320x240:rate=25:duration=4", "-c:v", "libx264",
                                  "-pix_fmt", "yuv420p", tools.path + "/blue.mp4"])
        // An ffprobe that swaps the file for another once it has read it, as a sync tool might.
        let swapper = """
            #!/bin/sh
            /usr/bin/ffprobe "$@"; status=$?
            cp '\(tools.path)/blue.mp4' '\(clip)'
            exit $status

            """
        try tools.write("ffprobe", Array(swapper.utf8))
        try VideoFixtures.run("/bin/chmod", ["+x", tools.path + "/ffprobe"])
        try VideoFixtures.run("/bin/ln", ["-s", "/usr/bin/ffmpeg", tools.path + "/ffmpeg"])
        let (_, swapped) = try Self.build(input.path, output.path, environment: ["PATH": tools.path + ":/usr/bin:/bin"])
        #expect(swapped.stderr.contains("clip.mp4: skipped: changed while it was read; it is read again next time"), "\(swapped.stderr)")
        let (_, again) = try Self.build(input.path, output.path)
        #expect(again.status == 0, "\(again.stderr)")
        let page = try String(contentsOfFile: output.path + "/photos/clip.mp4.html", encoding: .utf8)
        #expect(Self.posterColour(page).map { $0[0] < 30 && $0[1] < 30 && $0[2] > 200 } == true, "the poster is the new file's: \(page)")
    }

    /// A helper dies with the build: a killed build leaves no FFmpeg running.
    @Test func helpersDieWithTheBuild() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder(), tools = try TemporaryFolder()
        try VideoFixtures.pattern(input.path + "/clip.mp4")
        // An ffmpeg that takes its time, saying who it is first.
        let slow = """
            #!/bin/sh
            case "$*" in *-version*) exec /usr/bin/ffmpeg "$@";; esac
            echo $$ > '\(tools.path)/pid'
            exec sleep 60

            """
        try tools.write("ffmpeg", Array(slow.utf8))
        try VideoFixtures.run("/bin/chmod", ["+x", tools.path + "/ffmpeg"])
        try VideoFixtures.run("/bin/ln", ["-s", "/usr/bin/ffprobe", tools.path + "/ffprobe"])
        let process = Process()
        process.executableURL = WaterfallProcess.executable
        process.arguments = ["build", input.path, "-o", output.path, "--quiet"]
        process.environment = ["PATH": tools.path + ":/usr/bin:/bin"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        var helper: Int32?
        for _ in 0..<400 where helper == nil {
            usleep(25_000)
            helper = (try? String(contentsOfFile: tools.path + "/pid", encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        let pid = try #require(helper, "the slow ffmpeg never started")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        var gone = false
        for _ in 0..<200 where !gone {
            usleep(25_000)
            gone = kill(pid, 0) != 0
        }
        if !gone { kill(pid, SIGKILL) }
        #expect(gone, "ffmpeg (pid \(pid)) outlived the build")
    }

    /// The pixel limit holds for videos; without FFmpeg a video is skipped, saying how to get it.
    @Test func limitsAndAMissingFFmpeg() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder(), bare = try TemporaryFolder()
        try VideoFixtures.pattern(input.path + "/clip.mp4")
        try input.write("waterfall.json", Array(#"{"maxPixels": 10000}"#.utf8))
        let (_, run) = try Self.build(input.path, output.path)
        #expect(run.stderr.contains("clip.mp4: skipped: 320×240 is 76800 pixels, over the 10000-pixel limit"), "\(run.stderr)")
        try FileManager.default.removeItem(atPath: input.path + "/waterfall.json")
        let (_, missing) = try Self.build(input.path, bare.path, environment: ["PATH": "/nonexistent"])
        #expect(missing.stderr.contains("clip.mp4: skipped: a video, and FFmpeg's ffprobe and ffmpeg are not installed"), "\(missing.stderr)")
    }

    /// Videos shard like photos: shards fill their caches, the merged cache serves a build that makes nothing.
    @Test func videosShardAndMerge() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder(), work = try TemporaryFolder()
        for name in ["a.mp4", "b.mp4", "c.webm", "d.avi"] {
            try VideoFixtures.pattern(input.path + "/" + name, codec: name.hasSuffix("webm") ? ["-c:v", "libvpx-vp9"]
                                      : name.hasSuffix("avi") ? ["-c:v", "mpeg4"] : ["-c:v", "libx264"])
        }
        var made = 0
        for shard in 1...2 {
            let run = try WaterfallProcess.run(["build", input.path, "--shard", "\(shard)/2", "--cache-dir", work.path + "/cache-\(shard)",
                                                "--quiet", "--report", "json"])
            #expect(run.status == 0, "\(run.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
            made += (report["images"] as? [String: Int])?["made"] ?? 0
        }
        #expect(made == 20)  // three tile widths of a 320-px frame, a view image and the video each
        try VideoFixtures.run("/bin/sh", ["-c", "mkdir -p '\(work.path)/cache' && cp -R '\(work.path)'/cache-1/. '\(work.path)'/cache-2/. '\(work.path)/cache/'"])
        let (report, run) = try Self.build(input.path, output.path, ["--cache-dir", work.path + "/cache"])
        #expect(run.status == 0 && (report["images"] as? [String: Int]) == ["made": 0, "kept": 20], "\(report) \(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: output.path + "/images/video/d.avi.mp4"))
        #expect(try String(contentsOfFile: output.path + "/index.html", encoding: .utf8).contains("4 videos"))
    }

    /// An album's count says photos and videos apart.
    @Test func countsSayPhotosAndVideos() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: input.path + "/Trip", withIntermediateDirectories: true)
        try VideoFixtures.pattern(input.path + "/Trip/clip.mp4")
        for index in 1...2 { try input.copy(Fixtures.conformance("exif-orientation/Landscape_\(index).jpg"), as: "Trip/IMG_\(index).jpg") }
        try input.copy(Fixtures.conformance("exif-orientation/Landscape_3.jpg"), as: "top.jpg")
        let (_, run) = try Self.build(input.path, output.path)
        #expect(run.status == 0, "\(run.stderr)")
        let top = try String(contentsOfFile: output.path + "/index.html", encoding: .utf8)
        #expect(top.contains("3 photos and 1 video") && top.contains("2 photos and 1 video"), "\(top)")
        #expect(SitePages.count(1, videos: 1) == "1 video" && SitePages.count(0) == "No photos" && SitePages.count(7, videos: 1) == "6 photos and 1 video")
    }

    /// A rebuild makes nothing; the same videos give the same site, byte for byte, from a fresh cache.
    /// An HDR video (HLG, as an iPhone records it; PQ) is made SDR wherever its frames are decoded: its
    /// poster's colours are the frame's as mastered, not BT.2020's read as BT.709 (flat and pale: this frame's
    /// mean would be #6e3e22), and its conversion is tagged BT.709.
    @Test(arguments: ["arib-std-b67", "smpte2084"]) func anHDRVideoIsShownInSDR(transfer: String) throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        // #c85028 as an SDR frame, written as 10-bit BT.2020 HDR by zimg, in Matroska: converted to H.264.
        try VideoFixtures.ffmpeg(["-f", "lavfi", "-i", "color=c=0xC85028:s=128x96:d=2:r=10,format=gbrp",
                                  "-vf", "zscale=tin=bt709:min=gbr:pin=bt709:rin=full:t=\(transfer):p=bt2020:m=bt2020nc:r=tv:npl=100,format=yuv420p10le",
                                  "-c:v", "libx265", "-x265-params", "log-level=error", "-color_primaries", "bt2020",
                                  "-color_trc", transfer, "-colorspace", "bt2020nc", input.path + "/hdr.mkv"])
        let inspected = try WaterfallProcess.run(["inspect", "--json", input.path + "/hdr.mkv"])
        #expect(inspected.stdout.contains("\"hdr\": \"\(transfer)\""), "\(inspected.stdout)")
        _ = try Self.build(input.path, output.path)
        let page = try String(contentsOfFile: output.path + "/index.html", encoding: .utf8)
        let hex = try #require(page.firstMatch(of: /--wf-color:#([0-9a-f]{6})/)?.1)
        let colour = stride(from: 0, to: 6, by: 2).map { Int(hex.dropFirst($0).prefix(2), radix: 16)! }
        #expect(zip(colour, [200, 80, 40]).allSatisfy { abs($0 - $1) <= 24 }, "#\(hex)")
        #expect(try VideoFixtures.probe(output.path + "/images/video/hdr.mkv.mp4", "stream=color_transfer,color_primaries")
                    == "color_transfer=bt709\ncolor_primaries=bt709\n")
    }

    /// x264's bytes follow its thread count, which it takes from the cores it may use unless told: a video
    /// converted on one core and on every core here must be the same file.
    @Test func aConvertedVideoIsTheSameFileOnAnyNumberOfCores() throws {
        let input = try TemporaryFolder(), work = try TemporaryFolder()
        try VideoFixtures.pattern(input.path + "/old.avi", size: "640x360", codec: ["-c:v", "mpeg4"])
        var videos: [[UInt8]] = []
        for (name, cores) in [("one", "0"), ("all", "0-\(ProcessInfo.processInfo.activeProcessorCount - 1)")] {
            let site = work.path + "/" + name
            try VideoFixtures.run("/usr/bin/taskset", ["-c", cores, WaterfallProcess.executable.path, "build", input.path, "-o", site,
                                                       "--quiet", "--cache-dir", work.path + "/cache-" + name])
            videos.append(try Fixtures.bytes(site + "/images/video/old.avi.mp4"))
        }
        #expect(!videos[0].isEmpty && videos[0] == videos[1], "\(videos[0].count) and \(videos[1].count) bytes")
    }

    @Test func rebuildsKeepAndAFreshBuildIsTheSame() throws {
        let input = try TemporaryFolder(), first = try TemporaryFolder(), second = try TemporaryFolder()
        try VideoFixtures.pattern(input.path + "/clip.mp4", sound: "aac")
        try VideoFixtures.pattern(input.path + "/old.avi", codec: ["-c:v", "mpeg4"])
        let (made, _) = try Self.build(input.path, first.path)
        #expect((made["images"] as? [String: Int])?["made"] == 10, "\(made)")  // three tile widths, a view image and the video each
        let (again, _) = try Self.build(input.path, first.path)
        #expect((again["images"] as? [String: Int]) == ["made": 0, "kept": 10], "\(again)")
        #expect(again["pagesRendered"] as? Int == 0)
        _ = try Self.build(input.path, second.path)
        let files = try Fixtures.siteFiles(in: first.path)
        #expect(files == (try Fixtures.siteFiles(in: second.path)))
        for file in files {
            #expect(try Fixtures.bytes(first.path + "/" + file) == (try Fixtures.bytes(second.path + "/" + file)), "\(file)")
        }
    }
}
