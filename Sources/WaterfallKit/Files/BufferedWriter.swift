#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Writes text to an open file in blocks, so a large file (a manifest of 400,000 lines) is never held in
/// memory whole.
struct BufferedWriter {
    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private static let blockSize = 1 << 16

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
        buffer.reserveCapacity(Self.blockSize)
    }

    mutating func append(_ text: String) throws(FileSystemError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.blockSize { try flush() }
    }

    mutating func flush() throws(FileSystemError) {
        var offset = 0
        while offset < buffer.count {
            let count = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw FileSystemError.system(path, "cannot write") }
            offset += count
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
