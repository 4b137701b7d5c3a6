#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// An answer's status line and fields, written before its body.
struct HTTPResponse {
    var status: Int
    var fields: [(String, String)] = []

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 416: "Range Not Satisfiable"
        case 421: "Misdirected Request"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Error"
        }
    }

    /// The head's bytes, ending with the blank line; every answer says when it was made and that its type
    /// is not to be guessed.
    func head(keepAlive: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\nDate: \(Self.httpDate(time(nil)))\r\n"
        for (name, value) in fields { text += "\(name): \(value)\r\n" }
        text += "X-Content-Type-Options: nosniff\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        return Array(text.utf8)
    }

    /// A short plain-text answer for a refusal.
    static func refusal(_ refusal: HTTPRefusal) -> (HTTPResponse, [UInt8]) {
        let body = Array("\(refusal.status) \(reason(refusal.status)): \(refusal.reason)\n".utf8)
        var fields = [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "\(body.count)")]
        if refusal.status == 405 { fields.append(("Allow", "GET, HEAD")) }
        return (HTTPResponse(status: refusal.status, fields: fields), body)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110's IMF-fixdate), in English whatever the locale.
    static func httpDate(_ seconds: time_t) -> String {
        var value = seconds, parts = tm()
        gmtime_r(&value, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
