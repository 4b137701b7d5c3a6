#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// An flock held until this is released (or the process ends).
final class FileLock: Sendable {
    private let descriptor: Int32
    init(descriptor: Int32) { self.descriptor = descriptor }
    deinit { close(descriptor) }
}
