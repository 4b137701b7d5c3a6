#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One `ffmpeg` run from a video Waterfall opened to a new file it created (`createNew`: exclusively, never
/// through a link), under limits that grow with the video's length. The file is removed when the run fails.
struct FFmpegRun {
    var tools: VideoTools

    /// Generous for a phone's clip, finite for anything: a file cannot keep a helper busy for ever, whatever
    /// duration it claims (four hours at the most).
    static func limits(seconds videoSeconds: Double, perSecond: Double) -> HelperProcess.Limits {
        let budget = min(60 + perSecond * max(0, min(videoSeconds, 6 * 3600)), 4 * 3600)
        return .init(memoryBytes: 3 << 30, cpuSeconds: UInt32(2 * budget), seconds: budget)
    }

    /// Runs `arguments` (which name `VideoTools.input` and `VideoTools.output`) on the open video `source` (the
    /// very descriptor the build read and hashed), writing `name` in `folder`. A failure to write (a full disk)
    /// is a `.write` error, the storage's and not the video's.
    func run(_ arguments: [String], source: OpenFile, into folder: FolderHandle, as name: String,
             limits: HelperProcess.Limits) -> Result<Int, DeriveError> {
        folder.remove(name)
        let output: Int32
        do {
            output = try folder.createNew(name)
        } catch {
            return .failure(DeriveError(.write, error.description))
        }
        defer { close(output) }
        let done = HelperProcess.run(tools.ffmpeg, ["-nostdin", "-hide_banner", "-loglevel", "error"] + arguments,
                                     input: source.descriptor, output: output, limits: limits, stdoutCapacity: 4096)
        var info = stat()
        guard done.succeeded, fstat(output, &info) == 0, info.st_size > 0 else {
            folder.remove(name)
            if let storage = Self.storageFailure(done.stderr) {
                return .failure(DeriveError(.write, "\(folder.display(name)): cannot write: \(storage)"))
            }
            let why = done.succeeded ? "ffmpeg: no frame came out" : Self.reason(done)
            return .failure(DeriveError(done.timedOut || done.signal != nil ? .limit : .corrupt, why))
        }
        return .success(Int(info.st_size))
    }

    /// Why the run failed, in words: ffmpeg's last line is often only the step that gave up ("Error marking
    /// filters as finished") when an earlier one says what is wrong with the file.
    static func reason(_ done: HelperProcess.Outcome) -> String {
        if !done.timedOut && done.signal == nil {
            if done.stderr.contains(": partial file") { return "the video is cut short (ffmpeg: partial file)" }
            if done.stderr.contains("Invalid data found when processing input") {
                return "its frames are damaged (ffmpeg: Invalid data found when processing input)"
            }
        }
        return "ffmpeg: " + VideoProbe.reason(done)
    }

    /// The storage error ffmpeg met writing its output, in its words (it runs in the C locale: English).
    static func storageFailure(_ stderr: String) -> String? {
        FileSystemError.storageErrors.lazy.map { String(cString: strerror($0)) }.first { stderr.contains($0) }
    }
}
