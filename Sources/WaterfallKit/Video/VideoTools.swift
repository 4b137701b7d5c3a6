import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// FFmpeg's programs, which read every video (`VideoProbe`, `PosterFrame`, `VideoPublisher`). Programs
/// rather than FFmpeg's libraries in the C target: each runs as its own process under limits on time and
/// memory (`HelperProcess`), so a hostile or broken video costs one skipped file, never the build; and the
/// poster and the published file need FFmpeg's whole pipeline (seeking, filters, muxers), which its
/// programs already are. A probe costs some 40 ms of start-up, once per new video (the cache keeps it).
struct VideoTools: Sendable {
    let ffprobe: String
    let ffmpeg: String
    private let versionCache: VersionCache

    /// Found on `PATH` (`/usr/bin:/bin` when it is not set), both or neither.
    static func find(path: String? = nil) -> VideoTools? {
        let search = path ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        let folders = search.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        func locate(_ name: String) -> String? {
            folders.lazy.map { FolderPath.join($0, name) }.first { access($0, X_OK) == 0 }
        }
        guard let ffprobe = locate("ffprobe"), let ffmpeg = locate("ffmpeg") else { return nil }
        return VideoTools(ffprobe: ffprobe, ffmpeg: ffmpeg, versionCache: VersionCache())
    }

    /// Why videos are skipped when the programs are missing.
    static let missing = "a video, and FFmpeg's ffprobe and ffmpeg are not installed (apt-get install ffmpeg)"

    /// `ffmpeg version 5.1.9-0+deb12u1`: part of every video output's key, so another FFmpeg makes them again.
    /// Asked once per build, when a video first needs it.
    var version: String {
        versionCache.value {
            let run = HelperProcess.run(ffmpeg, ["-hide_banner", "-version"], limits: Self.quick, stdoutCapacity: 4096)
            let first = String(decoding: run.stdout, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
            return run.succeeded ? (first ?? "ffmpeg") : "ffmpeg (\(run.failure))"
        }
    }

    /// Limits for a program that only reads headers.
    static let quick = HelperProcess.Limits(memoryBytes: 1 << 30, cpuSeconds: 20, seconds: 30)

    /// The demuxers a video may be read with: a file that claims to be a playlist, a concatenation script or
    /// an image sequence (which name other files) is not read as one. FFmpeg opens nothing but the file it is
    /// given (`file` is the only protocol allowed, and the mov demuxer's external references are off by
    /// default).
    static let inputOptions = ["-protocol_whitelist", "file", "-format_whitelist", "mov,matroska,avi,ogg,mpegts,mpeg,asf,flv"]

    /// The input: the file Waterfall opened and checked, handed over as descriptor 3.
    static let input = "/dev/fd/3"
    /// The output: a file Waterfall created (exclusively, never through a link), as descriptor 4.
    static let output = "/dev/fd/4"
}

/// The FFmpeg version, asked once.
private final class VersionCache: Sendable {
    private let state = Mutex<String?>(nil)

    func value(_ make: () -> String) -> String {
        if let known = state.withLock({ $0 }) { return known }
        let made = make()
        state.withLock { $0 = made }
        return made
    }
}
