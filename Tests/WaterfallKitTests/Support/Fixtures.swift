import Foundation

/// Paths of the committed fixtures and of the built `waterfall` binary.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func header(_ name: String) -> String { root.appendingPathComponent("headers/\(name)").path }
    static func conformance(_ path: String) -> String { root.appendingPathComponent("conformance/\(path)").path }

    static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Every regular file under a built site, relative and sorted, leaving out the `.waterfall` state folder.
    static func siteFiles(in output: String) throws -> [String] {
        let manager = FileManager.default
        return (manager.enumerator(atPath: output)?.compactMap { $0 as? String } ?? [])
            .filter { !$0.hasPrefix(".waterfall") }
            .filter { path in
                var isFolder: ObjCBool = false
                return manager.fileExists(atPath: output + "/" + path, isDirectory: &isFolder) && !isFolder.boolValue
            }
            .sorted()
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// A scratch folder, removed when the test ends.
final class TemporaryFolder {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("waterfall-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file.path
    }

    @discardableResult
    func copy(_ source: String, as name: String) throws -> String {
        try write(name, try Fixtures.bytes(source))
    }
}
