#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A listening TCP socket on one host and port (0: any free port).
struct ServerSocket {
    let descriptor: Int32
    let port: Int

    /// Why it cannot listen, in words.
    struct Refusal: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Binds `host` (an address or a name, IPv4 or IPv6) at `port`; the error says what went wrong in words.
    static func listen(host: String, port: Int) -> Result<ServerSocket, Refusal> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            return .failure(Refusal("cannot find the address '\(host)'"))
        }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return .failure(Refusal("cannot open a socket (\(String(cString: strerror(errno))))")) }
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socket, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let code = errno
            close(socket)
            return .failure(Refusal(code == EADDRINUSE ? "port \(port) on \(host) is in use; choose another with --port N (0 picks a free one)"
                                               : "cannot listen on \(host) port \(port) (\(String(cString: strerror(code))))"))
        }
        guard Glibc.listen(socket, 128) == 0 else {
            close(socket)
            return .failure(Refusal("cannot listen on \(host) port \(port)"))
        }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard bound == 0 else { close(socket); return .failure(Refusal("cannot find the port it listens on")) }
        let chosen = withUnsafeBytes(of: address) { raw -> Int in
            // sin_port and sin6_port sit at the same offset, in network order.
            Int(raw[2]) << 8 | Int(raw[3])
        }
        return .success(ServerSocket(descriptor: socket, port: chosen))
    }
}
