#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import WaterfallKit

// Everything lives in WaterfallKit, where the tests can reach it; this only hands over the arguments.
let status = WaterfallCLI.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
