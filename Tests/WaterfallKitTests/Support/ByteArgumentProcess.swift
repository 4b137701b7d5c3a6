import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real `waterfall` binary run with its arguments as bytes: Foundation's Process can only hand over valid
/// UTF-8, and a path that is not UTF-8 must reach the program as it is. Through `/bin/sh`, which may first
/// change folder and limit the address space (`ulimit -v`), so that a runaway allocation fails the run (an
/// abort, a signal) instead of the machine.
enum ByteArgumentProcess {
    static func run(_ arguments: [[UInt8]], in directory: String = ".", addressSpace: Int? = nil) throws -> WaterfallProcess.Outcome {
        let scratch = try TemporaryFolder()
        let out = scratch.path + "/stdout", err = scratch.path + "/stderr"
        let script = #"cd -- "$1" || exit 126; [ -n "$2" ] && { ulimit -v "$2" || exit 126; }; shift 2; exec "$@""#
        let limit = addressSpace.map { String($0 / 1024) } ?? ""
        let argv = [Array("sh".utf8), Array("-c".utf8), Array(script.utf8), Array("sh".utf8), Array(directory.utf8), Array(limit.utf8),
                    Array(WaterfallProcess.executable.path.utf8)] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        } + [nil]
        defer { cArguments.forEach { $0?.deallocate() } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw Trust.POSIXFailure("posix_spawn", Array("/bin/sh".utf8)) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return WaterfallProcess.Outcome(status: signal == 0 ? (status >> 8) & 0xFF : signal, signalled: signal != 0,
                                        stdout: try Trust.read(out), stderr: try Trust.read(err))
    }

    /// Text arguments, as bytes.
    static func run(_ arguments: [String], in directory: String = ".", addressSpace: Int? = nil) throws -> WaterfallProcess.Outcome {
        try run(arguments.map { Array($0.utf8) }, in: directory, addressSpace: addressSpace)
    }
}
