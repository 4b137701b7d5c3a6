import Foundation
import Testing

/// Runs the real `waterfall` binary, the one `swift build` put beside the test bundle.
struct WaterfallProcess {
    struct Outcome {
        /// The exit status, or the signal's number when `exited` is false.
        var status: Int32
        /// Whether the process died of a signal (a trap, a crash) rather than exiting: `status` is then the signal.
        var signalled = false
        /// False when a signal ended the process (a crash), rather than exit.
        var exited: Bool { !signalled }
        var stdout: String
        var stderr: String
    }

    static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [beside, beside.deletingLastPathComponent()].map { $0.appendingPathComponent("waterfall") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    static func run(_ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil) throws -> Outcome {
        try runKilling(arguments, in: directory, timeout: nil, environment: environment).outcome
    }

    /// The run, killed after `timeout` seconds (when given); `killed` says whether it had to be.
    static func runKilling(_ arguments: [String], in directory: String? = nil,
                           timeout: Double?, environment: [String: String]? = nil) throws -> (outcome: Outcome, killed: Bool) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let finished = Flag(), killed = Flag()
        if let timeout {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if !finished.isSet {
                    killed.set()
                    kill(pid, SIGKILL)
                }
            }
        }
        // Read both pipes before waiting, so a large report cannot fill a pipe and stall the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        finished.set()
        let outcome = Outcome(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                              stdout: String(decoding: outData, as: UTF8.self),
                              stderr: String(decoding: errData, as: UTF8.self))
        return (outcome, killed.isSet)
    }

    /// A flag set from another thread.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }
}

extension WaterfallProcess {
    /// `waterfall build ARGUMENTS --quiet --report json`, expected to succeed: the run and its report's
    /// image counts (made, kept).
    static func buildReportingImages(_ arguments: [String]) throws -> (run: Outcome, images: [String: Int]) {
        let run = try run(["build"] + arguments + ["--quiet", "--report", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return (run, report["images"] as? [String: Int] ?? [:])
    }
}
