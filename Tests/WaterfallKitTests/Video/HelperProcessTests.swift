import Foundation
import Testing
@testable import WaterfallKit

/// The helper programs' runner: output captured and capped, limits enforced, nothing inherited.
struct HelperProcessTests {
    static let roomy = HelperProcess.Limits(memoryBytes: 1 << 30, cpuSeconds: 10, seconds: 10)

    @Test func capturesOutputAndExitStatus() {
        let done = HelperProcess.run("/bin/sh", ["-c", "printf hello; printf oops >&2; exit 3"], limits: Self.roomy)
        #expect(done.started && done.exitStatus == 3 && !done.timedOut)
        #expect(String(decoding: done.stdout, as: UTF8.self) == "hello" && done.stderr == "oops")
        #expect(done.failure == "oops")
    }

    @Test func keepsOnlyWhatFitsButReadsEverything() {
        let done = HelperProcess.run("/bin/sh", ["-c", "head -c 1000000 /dev/zero"], limits: Self.roomy, stdoutCapacity: 1000)
        #expect(done.succeeded && done.stdout.count == 1000 && done.stdoutTotal == 1_000_000)
    }

    @Test func stopsAProgramThatTakesTooLong() {
        let start = ContinuousClock.now
        let done = HelperProcess.run("/bin/sh", ["-c", "sleep 30 & sleep 30"],
                                     limits: .init(memoryBytes: 1 << 30, cpuSeconds: 60, seconds: 0.5))
        #expect(done.timedOut && !done.succeeded)
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(done.failure == "took too long and was stopped")
    }

    @Test func capsMemory() {
        // python3 asking for 2 GB under a 512 MB address space fails with MemoryError, not the machine.
        let done = HelperProcess.run("/usr/bin/env", [], limits: Self.roomy)
        #expect(done.succeeded && done.stdout.isEmpty)  // an empty environment
        let big = HelperProcess.run("/bin/sh", ["-c", "exec /usr/bin/python3 -c 'x = bytearray(2 << 30)'"],
                                    limits: .init(memoryBytes: 512 << 20, cpuSeconds: 10, seconds: 20))
        #expect(big.started && !big.succeeded && big.stderr.contains("MemoryError"))
    }

    /// stderr's last words are kept (they say why), stdout's first bytes (they are the answer).
    @Test func keepsTheEndOfItsErrors() {
        let done = HelperProcess.run("/bin/sh", ["-c", "printf '%050000d\\n' 0 >&2; echo 'the reason' >&2; exit 1"], limits: Self.roomy,
                                     stderrCapacity: 1000)
        #expect(done.failure == "the reason" && done.stderr.count == 1000)
    }

    /// A child forked on a thread that blocks signals (as dispatch's threads may) starts with none blocked,
    /// so it can be stopped like any program.
    @Test func startsWithNoSignalBlocked() {
        var all = sigset_t(), old = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &old)
        let done = HelperProcess.run("/usr/bin/grep", ["SigBlk", "/proc/self/status"], limits: Self.roomy)  // not a shell: it resets its own
        pthread_sigmask(SIG_SETMASK, &old, nil)
        #expect(String(decoding: done.stdout, as: UTF8.self) == "SigBlk:\t0000000000000000\n")
    }

    @Test func reportsAProgramThatCannotStart() {
        let done = HelperProcess.run("/nonexistent/ffmpeg", [], limits: Self.roomy)
        #expect(!done.started && done.failure.contains("No such file"))
    }

    @Test func givesTheChildOnlyItsTwoFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("helper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputPath = folder.appendingPathComponent("in").path, outputPath = folder.appendingPathComponent("out").path
        try Data("payload".utf8).write(to: URL(fileURLWithPath: inputPath))
        let input = open(inputPath, O_RDONLY | O_CLOEXEC), output = open(outputPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        let stray = open(inputPath, O_RDONLY)  // not close-on-exec: still not handed over
        defer { close(input); close(output); close(stray) }
        let done = HelperProcess.run("/bin/sh", ["-c", "cat <&3 >&4; ls /proc/self/fd"], input: input, output: output, limits: Self.roomy)
        #expect(done.succeeded)
        #expect(try String(contentsOfFile: outputPath, encoding: .utf8) == "payload")
        let open = String(decoding: done.stdout, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }.filter { $0 > 4 }
        #expect(open.count <= 1, "descriptors beyond 0-4: \(open)")  // ls's own listing descriptor
    }
}
