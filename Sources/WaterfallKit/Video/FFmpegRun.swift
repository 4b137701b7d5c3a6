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

    /// Runs `arguments` (which name `VideoTools.input` and `VideoTools.output`), writing `name` in `folder`,
    /// from the video at `source` while it is still the file of size and time stamp `status` (the one the
    /// build read: what is made is stored under that file's content hash).
    func run(_ arguments: [String], source: String, expecting status: FileStatus, into folder: FolderHandle, as name: String,
             limits: HelperProcess.Limits) -> Result<Int, DeriveError> {
        let input: OpenFile
        do {
            input = try OpenFile.open(source)
        } catch {
            return .failure(DeriveError(.io, error.reason))
        }
        guard input.status == status else { return .failure(DeriveError(.io, "changed during the build; it is read again next time")) }
        folder.remove(name)
        let output: Int32
        do {
            output = try folder.createNew(name)
        } catch {
            return .failure(DeriveError(.write, error.reason))
        }
        defer { close(output) }
        let done = HelperProcess.run(tools.ffmpeg, ["-nostdin", "-hide_banner", "-loglevel", "error"] + arguments,
                                     input: input.descriptor, output: output, limits: limits, stdoutCapacity: 4096)
        var info = stat()
        guard done.succeeded, fstat(output, &info) == 0, info.st_size > 0 else {
            folder.remove(name)
            let why = done.succeeded ? "no frame came out" : VideoProbe.reason(done)
            return .failure(DeriveError(done.timedOut || done.signal != nil ? .limit : .corrupt, "ffmpeg: \(why)"))
        }
        return .success(Int(info.st_size))
    }
}
