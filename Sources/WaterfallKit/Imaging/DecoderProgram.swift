import CImageIO
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The program a decoder process runs: the `waterfall` executable itself, started with `argument`, whose main
/// then only serves decoding jobs (`serve`).
public struct DecoderProgram: Sendable, Equatable {
    public var path: String

    public init(path: String) { self.path = path }

    /// The one argument that makes `waterfall` a decoder process.
    public static let argument = "--decoder-process"

    /// This very executable: what the `waterfall` command runs its decoders as.
    public static var this: DecoderProgram {
        #if os(Linux)
        DecoderProgram(path: "/proc/self/exe")
        #else
        DecoderProgram(path: CommandLine.arguments[0])
        #endif
    }

    /// The `waterfall` executable beside this process's: itself for the command, and for the tests (which run
    /// the library in a test runner) the one the same build made.
    public static var standard: DecoderProgram {
        guard let executable = executablePath() else { return this }
        let folder = FolderPath.parent(of: executable)
        return DecoderProgram(path: FolderPath.join(folder, "waterfall"))
    }

    /// Serves decoding jobs on descriptor 3 until the build closes it: the decoder process's whole life.
    public static func serve() -> Int32 { wf_decoder_serve(3) }

    private static func executablePath() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return CommandLine.arguments.first
        #endif
    }
}
