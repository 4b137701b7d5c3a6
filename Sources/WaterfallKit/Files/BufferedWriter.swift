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

    mutating func append<Bytes: Collection>(bytes: Bytes) throws(FileSystemError) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.blockSize { try flush() }
    }

    mutating func flush() throws(FileSystemError) {
        if let code = buffer.withUnsafeBytes({ Self.writeAll($0, to: descriptor) }) {
            throw FileSystemError.system(path, "cannot write", code)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// write(2) until every byte is written (it may write fewer, or be interrupted); errno on failure.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : ENOSPC }
            offset += count
        }
        return nil
    }
}
