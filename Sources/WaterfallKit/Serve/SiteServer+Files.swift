#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

extension SiteServer {
    /// A file's answer: 304 when the client holds this version, 206 for a range, 200 otherwise; a page
    /// with the reload script when `reload` is set.
    func send(_ file: OpenFile, named name: String, for request: HTTPRequest, on connection: HTTPConnection) -> Bool {
        let type = MediaType.of(name)
        let modified = HTTPResponse.httpDate(time_t(file.status.modified / 1_000_000_000))
        var page: [UInt8]?
        if reload != nil, type.hasPrefix("text/html"), file.size <= Self.maximumInjectedPage, let bytes = try? file.read(upTo: file.size) {
            page = LiveReload.inject(into: bytes)
        }
        // A page's version includes the build, so a page reloaded after a build is never a stale 304.
        let tag = "\"\(file.size)-\(file.status.modified)" + (reload.map { page != nil ? "-\($0.stamp)" : "" } ?? "") + "\""
        var fields = [("Content-Type", type), ("Last-Modified", modified), ("ETag", tag), ("Cache-Control", "no-cache")]
        if Self.holds(request, tag: tag, modified: modified) {
            return connection.send(HTTPResponse(status: 304, fields: fields).head(keepAlive: request.keepsAlive))
        }
        let head = request.method == "HEAD"
        if let page {
            fields.append(("Content-Length", "\(page.count)"))
            return connection.send(HTTPResponse(status: 200, fields: fields).head(keepAlive: request.keepsAlive) + (head ? [] : page))
        }
        fields.append(("Accept-Ranges", "bytes"))
        let ifRange = request.field("if-range")
        let range = ifRange == nil || ifRange == tag || ifRange == modified ? ByteRange(field: request.field("range"), size: file.size) : .whole
        switch range {
        case .unsatisfiable:
            fields += [("Content-Range", "bytes */\(file.size)"), ("Content-Length", "0")]
            return connection.send(HTTPResponse(status: 416, fields: fields).head(keepAlive: request.keepsAlive))
        case .whole:
            fields.append(("Content-Length", "\(file.size)"))
            guard connection.send(HTTPResponse(status: 200, fields: fields).head(keepAlive: request.keepsAlive)) else { return false }
            return head || connection.send(file, from: 0, count: file.size)
        case .part(let lower, let upper):
            fields += [("Content-Range", "bytes \(lower)-\(upper)/\(file.size)"), ("Content-Length", "\(upper - lower + 1)")]
            guard connection.send(HTTPResponse(status: 206, fields: fields).head(keepAlive: request.keepsAlive)) else { return false }
            return head || connection.send(file, from: lower, count: upper - lower + 1)
        }
    }

    /// Whether the client's copy is this version (If-None-Match, else If-Modified-Since).
    static func holds(_ request: HTTPRequest, tag: String, modified: String) -> Bool {
        if let match = request.field("if-none-match") {
            return match == "*" || match.split(separator: ",").contains { (candidate: Substring) in
                let value = String(candidate).trimmed
                return (value.hasPrefix("W/") ? String(value.dropFirst(2)) : value) == tag
            }
        }
        return request.field("if-modified-since") == modified
    }

    /// Server-sent events: the build stamp now, then again each time it changes, with a comment every
    /// 15 s so a closed page is noticed; returns when the client is gone.
    func streamEvents(_ reload: LiveReload, on connection: HTTPConnection) {
        let fields = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")]
        var sent = reload.stamp
        guard connection.send(HTTPResponse(status: 200, fields: fields).head(keepAlive: true) + Array("data: \(sent)\n\n".utf8)) else { return }
        var quiet = 0
        while true {
            usleep(250_000)
            let now = reload.stamp
            if now != sent {
                guard connection.send(Array("data: \(now)\n\n".utf8)) else { return }
                sent = now
                quiet = 0
            } else {
                quiet += 1
                if quiet == 60 {
                    guard connection.send(Array(": still here\n\n".utf8)) else { return }
                    quiet = 0
                }
            }
        }
    }
}
