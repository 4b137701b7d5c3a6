#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `waterfall serve [INPUT] [-o OUTPUT] [--port N] [--host H]`: builds, serves the site for a preview,
/// builds again on every change, and reloads the open pages after each build.
struct ServeCommand {
    static let name = "serve"

    static let help = """
        Usage: waterfall serve [INPUT] [-o OUTPUT] [--port N] [--host ADDRESS] [--no-reload]
                               [any option of 'waterfall build']

        Builds the gallery of INPUT into OUTPUT (default _site) as 'waterfall build' does, serves it
        at http://127.0.0.1:8000/ for a preview, and builds again whenever INPUT, the theme or the
        config changes, as --watch does. Pages open in a browser reload after each build (a small
        script added to the pages as they are served; the built site never holds it). Ctrl-C stops.

        Options:
          --port N             the port (default 8000; 0 picks a free one)
          --host ADDRESS       the address to listen on (default 127.0.0.1: this machine only);
                               another only when you want others to reach it, e.g. 0.0.0.0
          --no-reload          serve the pages as they are, without the reload script
          -h, --help           show this help

        """

    var build: BuildCommand
    var port = 8000
    var host = "127.0.0.1"
    var reloads = true

    static func parse(_ arguments: [[UInt8]]) throws -> ServeCommand? {
        var rest: [[UInt8]] = []
        var port = 8000, host = "127.0.0.1", reloads = true
        var index = 0
        func value(_ flag: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError("\(flag) needs a value", command: name) }
            return String(decoding: arguments[index], as: UTF8.self)
        }
        while index < arguments.count {
            switch String(decoding: arguments[index], as: UTF8.self) {
            case "--port":
                let text = try value("--port")
                guard let number = Int(text), (0...65535).contains(number) else {
                    throw UsageError("--port needs a number from 0 to 65535 (got '\(text)')", command: name)
                }
                port = number
            case "--host": host = try value("--host")
            case "--no-reload": reloads = false
            case "--help", "-h": return nil
            case "--watch", "--shard", "--report":
                throw UsageError("serve watches and serves the whole site; \(String(decoding: arguments[index], as: UTF8.self)) is for build",
                                 command: name)
            case let other where other.hasPrefix("-") && other.count > 1:
                let flag = String(other.prefix { $0 != "=" })
                let known = ArgumentScanner.options(in: help + BuildCommand.help)
                guard known.contains(flag) else {
                    let suggestion = Suggestion.nearest(to: flag, among: known).map { "; did you mean \($0)?" } ?? ""
                    throw UsageError("unknown option \(flag)" + suggestion, command: name)
                }
                rest.append(arguments[index])
            default: rest.append(arguments[index])
            }
            index += 1
        }
        guard var build = try BuildCommand.parse(rest) else { return nil }
        build.watch = true
        return ServeCommand(build: build, port: port, host: host, reloads: reloads)
    }

    func run(console: Console, paths: ArgumentPaths, decoder: DecoderProgram) throws -> ExitCode {
        let socket: ServerSocket
        switch ServerSocket.listen(host: host, port: port) {
        case .failure(let refusal):
            console.error(refusal.message)
            return .failure
        case .success(let bound): socket = bound
        }
        signal(SIGINT) { _ in
            let text = Array("\nwaterfall: stopped\n".utf8)
            _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            _exit(0)
        }
        let reload = reloads ? LiveReload(run: String(UInt64.random(in: 0...UInt64.max), radix: 36)) : nil
        let shown = host.contains(":") ? "[\(host)]" : host
        let output: String
        do {
            output = try paths.usable(build.output, creating: true)
        } catch {
            console.error("\(error)")
            return .failure
        }
        // Served from the start: until the first build has written the site, a page asked for says so.
        let server = SiteServer(files: SiteFiles(rootPath: output), reload: reload, listener: socket.descriptor, port: socket.port,
                                hosts: Self.hosts(for: host, port: socket.port))
        DetachedThread.start { server.run() }
        console.out("Serving \(output) at http://\(shown):\(socket.port)/ (Ctrl-C stops)\n")
        return try build.run(console: console, paths: paths, decoder: decoder) { _ in reload?.built() }
    }

    /// The Host values a server on a loopback address answers to (this machine's own names, with and
    /// without the port); nil for another address, which the user chose to share.
    static func hosts(for host: String, port: Int) -> Set<String>? {
        guard host == "localhost" || host == "::1" || host.hasPrefix("127.") else { return nil }
        let names = ["localhost", "127.0.0.1", "[::1]", host.contains(":") ? "[\(host)]" : host]
        return Set(names.flatMap { [$0, "\($0):\(port)"] })
    }
}
