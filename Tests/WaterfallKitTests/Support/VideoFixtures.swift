import Foundation
import Testing

/// Videos made for the tests by FFmpeg's own `ffmpeg` (test patterns, tones), and turned or falsified by
/// Tests/Tools/mp4box.py: nothing committed, every case built from its recipe.
enum VideoFixtures {
    static let toolsFolder = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tools")

    /// Runs ffmpeg (quiet, overwriting) with `arguments`; the last one is the output.
    static func ffmpeg(_ arguments: [String]) throws {
        try run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-nostdin"] + arguments)
    }

    /// A test pattern of `seconds` at `size` (`320x240`), 25 frames a second, encoded with `codec`
    /// (`-c:v …` and any other output options), with a 440 Hz tone when `sound` is given (`aac`, `libopus`).
    @discardableResult
    static func pattern(_ path: String, size: String = "320x240", seconds: Double = 3, codec: [String] = ["-c:v", "libx264"],
                        sound: String? = nil, extra: [String] = []) throws -> String {
        var arguments = ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25:duration=\(seconds)"]
        if let sound { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-c:a", sound] }
        try ffmpeg(arguments + codec + ["-pix_fmt", "yuv420p", "-threads", "1"] + extra + [path])
        return path
    }

    /// `mp4box.py rotate` or `declare`.
    static func box(_ arguments: [String]) throws {
        try run("/usr/bin/python3", [toolsFolder.appendingPathComponent("mp4box.py").path] + arguments)
    }

    /// ffprobe's `-show_entries` answer for `path` as `key=value` lines.
    static func probe(_ path: String, _ entries: String) throws -> String {
        try run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", entries, "-of", "default=nw=1", path])
    }

    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(message: "\(program) \(arguments.joined(separator: " ")): \(String(decoding: errors, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self)
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
