import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Helpers for the Trust regression tests (issue 10): hostile files Foundation cannot make (raw byte names,
/// FIFOs, links), snapshots of whole folders taken without following links, and a watchdog around the
/// real binary so that a hang fails the test instead of stalling the suite.
enum Trust {
    static let gallery = BuildCommandTests.gallery
    static let conformance = Fixtures.root.appendingPathComponent("conformance").path
    static let thumbnails = Fixtures.root.appendingPathComponent("thumbnails").path
    /// The default theme in the source tree.
    static let templates = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Templates").path

    static func photo(_ name: String) -> String { gallery + "/" + name }

    // MARK: - Making hostile files

    static func cPath(_ bytes: [UInt8]) -> [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }

    /// A file at a path given as bytes (a name need not be UTF-8), parents made as needed.
    static func write(bytes path: [UInt8], _ contents: [UInt8]) throws {
        if let slash = path.lastIndex(of: UInt8(ascii: "/")), slash > 0 { try makeFolders(bytes: Array(path[..<slash])) }
        let descriptor = open(cPath(path), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXFailure("open", path) }
        defer { close(descriptor) }
        var offset = 0
        while offset < contents.count {
            let count = contents.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            guard count > 0 else { throw POSIXFailure("write", path) }
            offset += count
        }
    }

    static func write(_ path: String, _ contents: [UInt8]) throws { try write(bytes: Array(path.utf8), contents) }
    static func write(_ path: String, _ text: String) throws { try write(bytes: Array(path.utf8), Array(text.utf8)) }

    /// Copies `source` to the byte path `path`.
    static func copy(_ source: String, to path: [UInt8]) throws { try write(bytes: path, Fixtures.bytes(source)) }
    static func copy(_ source: String, to path: String) throws { try copy(source, to: Array(path.utf8)) }

    static func makeFolders(bytes path: [UInt8]) throws {
        var prefix: [UInt8] = []
        for (index, component) in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).enumerated() {
            if index > 0 { prefix.append(UInt8(ascii: "/")) }
            prefix += component
            if component.isEmpty { continue }
            if mkdir(cPath(prefix), 0o755) != 0 && errno != EEXIST { throw POSIXFailure("mkdir", prefix) }
        }
    }

    static func makeFolders(_ path: String) throws { try makeFolders(bytes: Array(path.utf8)) }

    static func fifo(_ path: String) throws {
        guard mkfifo(path, 0o644) == 0 else { throw POSIXFailure("mkfifo", Array(path.utf8)) }
    }

    static func symlink(_ target: String, at path: String) throws {
        guard Glibc.symlink(target, path) == 0 else { throw POSIXFailure("symlink", Array(path.utf8)) }
    }

    struct POSIXFailure: Error, CustomStringConvertible {
        var description: String
        init(_ call: String, _ path: [UInt8]) {
            description = "\(call)(\(String(decoding: path, as: UTF8.self))): \(String(cString: strerror(errno)))"
        }
    }

    /// A folder holding the given fixture photos (`Album/name.jpg` copies `gallery/name.jpg` there).
    static func input(_ photos: [String]) throws -> TemporaryFolder {
        let input = try TemporaryFolder()
        for name in photos { try copy(photo(String(name.split(separator: "/").last!)), to: input.path + "/" + name) }
        return input
    }

    // MARK: - Looking

    /// What is at a path, not following links: "file SIZE HASH", "link TARGET", "folder", "fifo", "other".
    static func describe(_ path: [UInt8]) -> String? {
        var info = stat()
        guard lstat(cPath(path), &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            let bytes = (try? read(bytes: path)) ?? []
            return "file \(bytes.count) \(fnv(bytes))"
        case S_IFLNK:
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlink(cPath(path), &buffer, buffer.count)
            return "link " + String(decoding: buffer[..<max(0, length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        case S_IFDIR: return "folder"
        case S_IFIFO: return "fifo"
        default: return "other"
        }
    }

    static func read(bytes path: [UInt8]) throws -> [UInt8] {
        let descriptor = open(cPath(path), O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXFailure("open", path) }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = block.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw POSIXFailure("read", path) }
            if count == 0 { return result }
            result += block[..<count]
        }
    }

    static func read(_ path: String) throws -> String { String(decoding: try read(bytes: Array(path.utf8)), as: UTF8.self) }

    /// How two snapshots differ, in a line: the paths added, removed and changed (a few of each).
    static func differences(_ now: [[UInt8]: String], _ then: [[UInt8]: String]) -> String {
        func names(_ paths: [[UInt8]]) -> String {
            "\(paths.count) " + paths.prefix(4).map { String(decoding: $0, as: UTF8.self) }.sorted().joined(separator: ", ")
        }
        let added = now.keys.filter { then[$0] == nil }, removed = then.keys.filter { now[$0] == nil }
        let changed = now.keys.filter { then[$0] != nil && then[$0] != now[$0] }
        return "added \(names(added)); removed \(names(removed)); changed \(names(changed))"
    }

    /// Every entry under `root` (its path relative to root, as bytes), described as `describe` does,
    /// never following a link. `skipping` leaves out entries (and what is below them) by relative path.
    static func snapshot(_ root: String, skipping: ([UInt8]) -> Bool = { _ in false }) -> [[UInt8]: String] {
        var found: [[UInt8]: String] = [:]
        func walk(_ relative: [UInt8]) {
            let full = Array(root.utf8) + (relative.isEmpty ? [] : [UInt8(ascii: "/")] + relative)
            guard let stream = opendir(cPath(full)) else { return }
            defer { closedir(stream) }
            var names: [[UInt8]] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if name == [0x2E] || name == [0x2E, 0x2E] { continue }
                names.append(name)
            }
            for name in names {
                let path = relative.isEmpty ? name : relative + [UInt8(ascii: "/")] + name
                if skipping(path) { continue }
                let description = describe(Array(root.utf8) + [UInt8(ascii: "/")] + path) ?? "gone"
                found[path] = description
                if description == "folder" { walk(path) }
            }
        }
        walk([])
        return found
    }

    /// The paths (as text) that differ between two snapshots: short enough for a failure message.
    static func changes(_ before: [[UInt8]: String], _ after: [[UInt8]: String]) -> [String] {
        Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
            .map { "\(String(decoding: $0, as: UTF8.self)): \(before[$0] ?? "none") -> \(after[$0] ?? "none")" }.sorted()
    }

    /// A snapshot of a built site: everything but the `.waterfall` state folder.
    static func site(_ output: String) -> [[UInt8]: String] {
        snapshot(output, skipping: { $0.starts(with: Array(".waterfall".utf8)) && ($0.count == 10 || $0[10] == UInt8(ascii: "/")) })
    }

    /// Relative paths (as text, bytes that are not UTF-8 replaced) of the symbolic links under `root`.
    static func links(in root: String) -> [String] {
        snapshot(root).filter { $0.value.hasPrefix("link ") }.map { String(decoding: $0.key, as: UTF8.self) }.sorted()
    }

    /// The site's files (not `.waterfall`) whose bytes contain `needle`.
    static func files(in output: String, containing needle: [UInt8]) -> [String] {
        site(output).filter { $0.value.hasPrefix("file ") }.keys.compactMap { path in
            let bytes = (try? read(bytes: Array(output.utf8) + [UInt8(ascii: "/")] + path)) ?? []
            return Data(bytes).range(of: Data(needle)) == nil ? nil : String(decoding: path, as: UTF8.self)
        }.sorted()
    }

    /// The site's files (not `.waterfall`) whose bytes are exactly `bytes`.
    static func files(in output: String, equalTo bytes: [UInt8]) -> [String] {
        let wanted = "file \(bytes.count) \(fnv(bytes))"
        return site(output).filter { $0.value == wanted }.map { String(decoding: $0.key, as: UTF8.self) }.sorted()
    }

    /// The paths `OUTPUT/.waterfall/manifest.json` lists (JSON lines after a heading).
    static func manifestPaths(_ output: String) throws -> [String] {
        let text = try read(output + "/.waterfall/manifest.json")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == #"{"waterfall":"manifest","version":1}"#)
        return try lines.dropFirst().filter { !$0.isEmpty }.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            return try #require(object["path"] as? String)
        }.sorted()
    }

    /// Nothing of a build is left half-written: no staged files, no journal, no `wf-` temporaries in the site.
    static func expectNothingHalfWritten(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let staged = snapshot(output + "/.waterfall/tmp")
        #expect(staged.isEmpty, "left in .waterfall/tmp: \(staged.keys.map { String(decoding: $0, as: UTF8.self) })",
                sourceLocation: sourceLocation)
        #expect(describe(Array((output + "/.waterfall/journal").utf8)) == nil, "a journal was left", sourceLocation: sourceLocation)
        let temporaries = site(output).keys.filter { path in
            path.split(separator: UInt8(ascii: "/")).last.map { $0.starts(with: Array("wf-".utf8)) } ?? false
        }
        #expect(temporaries.isEmpty, "temporary files in the site: \(temporaries.map { String(decoding: $0, as: UTF8.self) })",
                sourceLocation: sourceLocation)
    }

    /// Every link resolves, no symlink is in the output, nothing is half-written.
    static func expectSoundSite(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let broken = LinkChecker.brokenLinks(in: output)
        #expect(broken.isEmpty, "broken links: \(broken)", sourceLocation: sourceLocation)
        let links = links(in: output)
        #expect(links.isEmpty, "symbolic links in the output: \(links)", sourceLocation: sourceLocation)
        expectNothingHalfWritten(output, sourceLocation: sourceLocation)
    }

    /// A stable 64-bit FNV-1a of bytes, as hex.
    static func fnv(_ bytes: [UInt8]) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(value, radix: 16)
    }

    /// The lines of stderr that name `text`.
    static func lines(_ run: WaterfallProcess.Outcome, naming text: String) -> [String] {
        run.stderr.split(separator: "\n").map(String.init).filter { $0.contains(text) }
    }

    /// The gallery page's tiles, photos' and albums': (href, img src, width, height), in page order.
    static func tiles(_ html: String) -> [(href: String, src: String, width: Int, height: Int)] {
        html.components(separatedBy: "<li class=\"wf-tile").dropFirst().compactMap { tile in
            guard let href = attribute("href", in: tile), let src = attribute("src", in: tile),
                  let width = attribute("width", in: tile).flatMap({ Int($0) }),
                  let height = attribute("height", in: tile).flatMap({ Int($0) }) else { return nil }
            return (href, src, width, height)
        }
    }

    static func attribute(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: " \(name)=\"")?.upperBound, let end = html[start...].firstIndex(of: "\"") else { return nil }
        return String(html[start..<end])
    }

    /// Pixel size of image files, read by `waterfall inspect --json`.
    static func pixelSizes(_ paths: [String]) throws -> [String: (width: Int, height: Int)] {
        let run = try WaterfallProcess.run(["inspect", "--json"] + paths)
        #expect(run.status == 0, "\(run.stderr)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        var sizes: [String: (width: Int, height: Int)] = [:]
        for item in items {
            if let path = item["path"] as? String, let width = item["width"] as? Int, let height = item["height"] as? Int {
                sizes[path] = (width, height)
            }
        }
        return sizes
    }
}

/// The real binary with a watchdog: killed (and the test failed) if it runs longer than `timeout`.
enum Watchdog {
    static func run(_ arguments: [String], in directory: String? = nil, timeout: Double = 60,
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> WaterfallProcess.Outcome {
        let (outcome, killed) = try runKilling(arguments, in: directory, timeout: timeout)
        #expect(!killed, "waterfall \(arguments.joined(separator: " ")) hung: killed after \(Int(timeout)) s", sourceLocation: sourceLocation)
        return outcome
    }

    /// The run, and whether the watchdog had to kill it.
    static func runKilling(_ arguments: [String], in directory: String? = nil,
                           timeout: Double) throws -> (WaterfallProcess.Outcome, killed: Bool) {
        try WaterfallProcess.runKilling(arguments, in: directory, timeout: timeout)
    }
}
