import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A `waterfall build` run in the background, and its decoder processes as they appear: so a test can stop
/// the build's decoding at a known point (SIGSTOP on its first decoder), change the input or crash a decoder
/// there, and let it go on.
final class BackgroundBuild: @unchecked Sendable {
    let process = Process()
    private let out = Pipe(), err = Pipe()
    private var outData = Data(), errData = Data()
    private let group = DispatchGroup()

    init(_ arguments: [String]) throws {
        process.executableURL = WaterfallProcess.executable
        process.arguments = ["build"] + arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        DispatchQueue.global().async(group: group) { [out] in self.outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { [err] in self.errData = err.fileHandleForReading.readDataToEndOfFile() }
    }

    /// The build's decoder processes now (its children run with `--decoder-process`).
    var decoders: [pid_t] { Self.children(of: process.processIdentifier).filter { Self.isDecoder($0) } }

    /// Waits (up to a minute, polling every millisecond) for the first decoder, and stops it at once.
    func stopFirstDecoder() throws -> pid_t {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let first = decoders.first {
                #expect(kill(first, SIGSTOP) == 0)
                return first
            }
            usleep(1000)
        }
        throw WatchFailure("no decoder process appeared")
    }

    /// Waits for the build to end: its exit status and what it printed.
    func finish() -> WaterfallProcess.Outcome {
        group.wait()
        process.waitUntilExit()
        return WaterfallProcess.Outcome(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                                        stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    static func children(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    static func isDecoder(_ pid: pid_t) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        return data.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == "--decoder-process" }
    }

    /// Whether a process is gone (a zombie counts as gone: it runs no more).
    static func isGone(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return status.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    struct WatchFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
