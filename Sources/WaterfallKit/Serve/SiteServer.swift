import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `serve`'s web server: the output folder over HTTP/1.1 on one address, for previewing a site. GET and
/// HEAD only, with the right type for every file a site holds, ranges (a video seeks), `304`s and, when
/// `reload` is given, pages that reload after each build. It answers nothing outside the folder and no
/// dot name (`SiteFiles`); connections, request heads and idle time are bounded.
final class SiteServer: Sendable {
    let files: SiteFiles
    let reload: LiveReload?
    /// The names a request's Host may give, nil for any: a server on this machine's loopback address answers
    /// only to its own names, so a web page cannot rebind a name of its own to it and read the preview.
    let hosts: Set<String>?
    private let streams = Atomic<Int>(0)
    let listener: Int32
    /// The port it listens on (the one the system chose, for port 0).
    let port: Int
    private let open = Atomic<Int>(0)

    /// The most connections answered at once; more are told 503.
    static let maximumConnections = 64
    /// Pages larger than this are served without the reload script.
    static let maximumInjectedPage = 16 << 20

    /// The most pages listening for builds at once.
    static let maximumStreams = 64

    init(files: SiteFiles, reload: LiveReload?, listener: Int32, port: Int, hosts: Set<String>?) {
        self.files = files
        self.reload = reload
        self.hosts = hosts
        self.listener = listener
        self.port = port
    }

    /// Accepts connections for ever, each on a thread of its own.
    func run() -> Never {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno != EINTR && errno != ECONNABORTED { usleep(10_000) }  // out of descriptors: wait a moment
                continue
            }
            let count = open.add(1, ordering: .relaxed).newValue
            guard count <= Self.maximumConnections * 2 else {
                close(client)  // far too many: not even a word
                open.subtract(1, ordering: .relaxed)
                continue
            }
            DetachedThread.start { [self] in
                let connection = HTTPConnection(socket: client)
                if count <= Self.maximumConnections {
                    serve(connection)
                } else {
                    answer(HTTPRefusal(status: 503, reason: "too many connections"), on: connection, keepAlive: false)
                }
                connection.finish()
                open.subtract(1, ordering: .relaxed)
            }
        }
    }

    /// Answers a connection's requests until it closes, falls silent or is refused.
    private func serve(_ connection: HTTPConnection) {
        for _ in 0..<HTTPConnection.maximumRequests {
            guard let next = connection.nextRequest() else { return }
            switch next {
            case .failure(let refusal):
                answer(refusal, on: connection, keepAlive: false)
                return
            case .success(let request):
                guard answer(request, on: connection), request.keepsAlive else { return }
            }
        }
    }

    private func answer(_ refusal: HTTPRefusal, on connection: HTTPConnection, keepAlive: Bool, head: Bool = false) {
        let (response, body) = HTTPResponse.refusal(refusal)
        connection.send(response.head(keepAlive: keepAlive) + (head ? [] : body))
    }

    /// One request's answer; false when the connection should close.
    private func answer(_ request: HTTPRequest, on connection: HTTPConnection) -> Bool {
        let head = request.method == "HEAD"
        guard request.method == "GET" || head else {
            answer(HTTPRefusal(status: 405, reason: "only GET and HEAD are served"), on: connection, keepAlive: request.keepsAlive)
            return request.keepsAlive
        }
        if let hosts, !(request.field("host").map { hosts.contains($0.lowercased()) } ?? (request.minorVersion == 0)) {
            answer(HTTPRefusal(status: 421, reason: "this preview answers to \(hosts.sorted().joined(separator: ", ")) only"),
                   on: connection, keepAlive: false)
            return false
        }
        if let reload, request.path == LiveReload.path {
            // A stream is no longer one of the connections answered at once: it has a bound of its own.
            open.subtract(1, ordering: .relaxed)
            defer { open.add(1, ordering: .relaxed) }
            guard streams.add(1, ordering: .relaxed).newValue <= Self.maximumStreams else {
                streams.subtract(1, ordering: .relaxed)
                answer(HTTPRefusal(status: 503, reason: "too many pages listening"), on: connection, keepAlive: false)
                return false
            }
            streamEvents(reload, on: connection)
            streams.subtract(1, ordering: .relaxed)
            return false
        }
        switch files.find(request.path) {
        case .failure(let refusal):
            answer(refusal, on: connection, keepAlive: request.keepsAlive, head: head)
            return request.keepsAlive
        case .success(.folder(let location)):
            let response = HTTPResponse(status: 301, fields: [("Location", location), ("Content-Length", "0")])
            return connection.send(response.head(keepAlive: request.keepsAlive)) && request.keepsAlive
        case .success(.file(let file, let name)):
            return send(file, named: name, for: request, on: connection) && request.keepsAlive
        }
    }
}
