#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One client's socket: request heads read with a size limit and a time limit, answers written whole.
/// Bodies are not taken: a request that announces one is answered 413 and the connection closed.
final class HTTPConnection {
    let socket: Int32
    private var buffer: [UInt8] = []

    /// How long a client may stay silent (mid-request or between requests) or refuse to read.
    static let idleSeconds = 10
    /// The most requests one connection may make.
    static let maximumRequests = 1000

    init(socket: Int32) {
        self.socket = socket
        var limit = timeval(tv_sec: Self.idleSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(socket) }

    /// Ends the connection so the client reads the last answer: closing a socket with unread request
    /// bytes would reset it and lose the answer, so what the client still sends is read (a second at
    /// most, 256 KiB at most) and dropped first.
    func finish() {
        shutdown(socket, Int32(SHUT_WR))
        var limit = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 4096)
        var left = 256 * 1024
        while left > 0 {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            left -= count
        }
    }

    /// The next request; nil when the client closed the connection or fell silent; a refusal for one that
    /// cannot be taken (after which the connection closes).
    func nextRequest() -> Result<HTTPRequest, HTTPRefusal>? {
        // One deadline for the whole head, not for each read: a byte every few seconds cannot hold a
        // connection for hours.
        let deadline = Self.now() + Self.idleSeconds
        while true {
            if let end = Self.headEnd(in: buffer) {
                let head = buffer[..<end.head]
                buffer.removeFirst(end.next)
                return HTTPRequest.parse(head).flatMap { request in
                    let lengths = request.fields.filter { $0.name == "content-length" }
                    guard request.field("transfer-encoding") == nil && lengths.allSatisfy({ $0.value == "0" }) && lengths.count <= 1 else {
                        return .failure(HTTPRefusal(status: 413, reason: "requests with a body are not taken"))
                    }
                    return .success(request)
                }
            }
            guard buffer.count < HTTPRequest.maximumHeadBytes else {
                return .failure(HTTPRefusal(status: 431, reason: "a request head over \(HTTPRequest.maximumHeadBytes) bytes"))
            }
            let left = deadline - Self.now()
            guard left > 0 else { return buffer.isEmpty ? nil : .failure(HTTPRefusal(status: 408, reason: "the request head took too long")) }
            var limit = timeval(tv_sec: left, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    /// Seconds on the monotonic clock.
    private static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec
    }

    /// Where the head ends (before the blank line) and the next request begins.
    private static func headEnd(in bytes: [UInt8]) -> (head: Int, next: Int)? {
        var index = 0
        while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            let next = newline + 1
            if next < bytes.count && bytes[next] == UInt8(ascii: "\n") { return (newline, next + 1) }
            if next + 1 < bytes.count && bytes[next] == UInt8(ascii: "\r") && bytes[next + 1] == UInt8(ascii: "\n") {
                return (newline, next + 2)
            }
            index = next
        }
        return nil
    }

    /// Writes all of `bytes`; false when the client is gone or stopped reading.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in sendAll(raw) }
    }

    func sendAll(_ raw: UnsafeRawBufferPointer) -> Bool {
        var sent = 0
        while sent < raw.count {
            let count = systemSend(socket, raw.baseAddress! + sent, raw.count - sent)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Sends `count` bytes of `file` from `offset`, a block at a time.
    func send(_ file: OpenFile, from offset: Int, count: Int) -> Bool {
        var block = [UInt8](repeating: 0, count: 1 << 16)
        var position = offset, left = count
        while left > 0 {
            let read = block.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, min(left, $0.count), off_t(position)) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { return false }
            guard block.withUnsafeBytes({ sendAll(UnsafeRawBufferPointer(rebasing: $0[..<read])) }) else { return false }
            position += read
            left -= read
        }
        return true
    }
}

/// `send` without SIGPIPE for a client that is gone.
private func systemSend(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.send(socket, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    Darwin.send(socket, bytes, count, 0)
    #endif
}
