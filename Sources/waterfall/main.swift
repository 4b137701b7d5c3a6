#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import WaterfallKit

// A decoder process (DecoderPool): the same binary, asked to read photos handed over on descriptor 3.
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == DecoderProgram.argument {
    exit(DecoderProgram.serve())
}

// A parent may hand down a signal mask that blocks SIGTERM and SIGINT (test runners, some CI agents);
// `build --watch` must still stop when asked.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stopSignals, signal) }
pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)

// A closed pipe on stdout (`--report json | head -c 0`) is an error to report, not a reason to die.
signal(SIGPIPE, SIG_IGN)

// Everything else lives in WaterfallKit, where the tests can reach it; this only hands over the arguments,
// as bytes: a path need not be UTF-8, and `CommandLine.arguments` would replace such bytes.
let arguments = (1..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) } ?? []
}
let status = WaterfallCLI.run(bytes: arguments, decoder: .this)
exit(status.rawValue)
