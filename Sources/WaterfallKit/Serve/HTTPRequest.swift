/// One HTTP/1.x request's head, as `serve` takes it: a method, an origin-form target, the version and the
/// header fields (names lower-cased). Only what a static site needs is accepted; anything else is an
/// `HTTPRefusal` with the status to answer.
struct HTTPRequest: Sendable, Equatable {
    var method: String
    /// The path and query as sent (`/a%20b/?x=1`), always starting with `/`.
    var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    var fields: [(name: String, value: String)]

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.minorVersion == rhs.minorVersion
            && lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }

    /// The longest head read (request line and fields together).
    static let maximumHeadBytes = 16 * 1024
    static let maximumFields = 100

    /// The first value of field `name` (lower-case).
    func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// Whether the connection stays open after the answer.
    var keepsAlive: Bool {
        let connection = field("connection")?.lowercased() ?? ""
        return minorVersion >= 1 ? !connection.contains("close") : connection.contains("keep-alive")
    }

    /// The path part of the target, before any `?` or `#`.
    var path: Substring {
        target.prefix { $0 != "?" && $0 != "#" }
    }

    /// Parses a head (the bytes before the blank line, without it).
    static func parse(_ head: ArraySlice<UInt8>) -> Result<HTTPRequest, HTTPRefusal> {
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        guard !lines.isEmpty else { return .failure(.badRequest("an empty request")) }
        let requestLine = lines.removeFirst()
        guard requestLine.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return .failure(.badRequest("a request line that is not ASCII")) }
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard parts.count == 3 else { return .failure(.badRequest("a malformed request line")) }
        let minor: Int
        switch parts[2] {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default: return .failure(HTTPRefusal(status: 505, reason: "only HTTP/1.0 and 1.1 are served"))
        }
        guard parts[1].hasPrefix("/") else { return .failure(.badRequest("a target that is not a path")) }
        guard lines.count <= maximumFields else { return .failure(HTTPRefusal(status: 431, reason: "too many header fields")) }
        var fields: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[..<colon].allSatisfy(isTokenByte) else { return .failure(.badRequest("a malformed header field")) }
            let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            guard value.allSatisfy({ $0 == 0x09 || $0 >= 0x20 && $0 != 0x7F }) else { return .failure(.badRequest("a control character in a field")) }
            fields.append((String(decoding: line[..<colon], as: UTF8.self).lowercased(),
                           String(decoding: value, as: UTF8.self).trimmed))
        }
        return .success(HTTPRequest(method: parts[0], target: parts[1], minorVersion: minor, fields: fields))
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

/// Why a request is not answered with a file: the status and a short reason for the body.
struct HTTPRefusal: Error, Equatable {
    var status: Int
    var reason: String

    static func badRequest(_ reason: String) -> Self { HTTPRefusal(status: 400, reason: reason) }
}
