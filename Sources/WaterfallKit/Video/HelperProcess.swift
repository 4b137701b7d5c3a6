import CImageIO
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A helper program (`ffprobe`, `ffmpeg`) run under limits (`wf_process_run`): a file it reads costs at most
/// its time and memory limits, and whatever it does, the build goes on. It gets an empty environment, no
/// standard input, and of Waterfall's open files only the two it is given: `input` as descriptor 3 and
/// `output` as 4 (so it reads and writes files Waterfall opened and checked itself, never a path).
struct HelperProcess {
    struct Limits: Sendable {
        var memoryBytes: UInt64
        var cpuSeconds: UInt32
        var seconds: Double
    }

    struct Outcome: Sendable {
        var started: Bool
        /// Why it could not be started (errno), when it was not.
        var startError: Int32
        var exitStatus: Int32?
        var signal: Int32?
        var timedOut: Bool
        var stdout: [UInt8]
        /// Every byte it wrote to stdout, kept or not.
        var stdoutTotal: Int
        var stderr: String

        var succeeded: Bool { exitStatus == 0 && !timedOut }

        /// Why it failed, in a few words: for a message naming the file.
        var failure: String {
            if !started { return "could not be started (\(String(cString: strerror(startError))))" }
            if timedOut { return "took too long and was stopped" }
            if let signal { return signal == SIGKILL || signal == SIGXCPU ? "ran out of time or memory" : "crashed (signal \(signal))" }
            let last = stderr.split(whereSeparator: \.isNewline).last.map(String.init)?.trimmed ?? ""
            return last.isEmpty ? "failed (exit status \(exitStatus ?? -1))" : String(last.prefix(200))
        }
    }

    static func run(_ program: String, _ arguments: [String], input: Int32? = nil, output: Int32? = nil, limits: Limits,
                    stdoutCapacity: Int = 1 << 20, stderrCapacity: Int = 16 << 10) -> Outcome {
        let words = ([program] + arguments).map { strdup($0) }
        defer { words.forEach { free($0) } }
        var argv: [UnsafePointer<CChar>?] = words.map { UnsafePointer($0) } + [nil]
        var environment: [UnsafePointer<CChar>?] = [nil]
        var out = [CChar](repeating: 0, count: max(1, stdoutCapacity))
        var err = [CChar](repeating: 0, count: max(1, stderrCapacity))
        var result = wf_process_result()
        argv.withUnsafeMutableBufferPointer { argvBuffer in
            environment.withUnsafeMutableBufferPointer { environmentBuffer in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    err.withUnsafeMutableBufferPointer { errBuffer in
                        var process = wf_process()
                        process.argv = UnsafePointer(argvBuffer.baseAddress)
                        process.environment = UnsafePointer(environmentBuffer.baseAddress)
                        process.input_fd = input ?? -1
                        process.output_fd = output ?? -1
                        process.memory_bytes = limits.memoryBytes
                        process.cpu_seconds = limits.cpuSeconds
                        process.timeout_ms = UInt32(min(limits.seconds * 1000, Double(UInt32.max - 1)))
                        process.out = outBuffer.baseAddress
                        process.out_capacity = stdoutCapacity
                        process.err = errBuffer.baseAddress
                        process.err_capacity = stderrCapacity
                        wf_process_run(&process, &result)
                    }
                }
            }
        }
        return Outcome(
            started: result.started != 0, startError: Int32(result.errno_value),
            exitStatus: result.started != 0 && result.exited != 0 ? Int32(result.exit_status) : nil,
            signal: result.started != 0 && result.exited == 0 && result.timed_out == 0 ? Int32(result.signal_number) : nil,
            timedOut: result.timed_out != 0,
            stdout: out.prefix(Int(result.out_length)).map { UInt8(bitPattern: $0) }, stdoutTotal: Int(result.out_total),
            stderr: String(decoding: err.prefix(Int(result.err_length)).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
