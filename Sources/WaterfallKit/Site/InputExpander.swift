import Foundation

/// Turns the paths a user typed into the files to read: a file stays itself, a folder becomes every file
/// under it (dot-files and dot-folders skipped) in natural name order, depth first.
struct InputExpander {
    enum Entry: Equatable, Sendable {
        case file(String)
        /// A folder that could not be listed: reported like an unreadable file, and the rest goes on.
        case unreadable(String, reason: String)

        var path: String {
            switch self {
            case .file(let path), .unreadable(let path, _): path
            }
        }
    }

    func expand(_ paths: [String]) -> [Entry] {
        var visited = Set<FileIdentity>()
        return paths.flatMap { path -> [Entry] in
            isDirectory(path) ? walk(path, visited: &visited) : [.file(path)]
        }
    }

    private func walk(_ folder: String, visited: inout Set<FileIdentity>) -> [Entry] {
        // Symbolic links may point back up the tree; each real folder is walked once.
        guard let identity = FileIdentity(path: folder), visited.insert(identity).inserted else { return [] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            return [.unreadable(folder, reason: "cannot list folder: \(Self.reason(error))")]
        }
        return names
            .filter { !$0.hasPrefix(".") }
            .sorted(by: NaturalOrder.areInIncreasingOrder)
            .flatMap { name -> [Entry] in
                let path = Self.join(folder, name)
                return isDirectory(path) ? walk(path, visited: &visited) : [.file(path)]
            }
    }

    private func isDirectory(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return nsError.localizedDescription
    }
}

/// A file's device and inode: the same folder reached through two paths has one identity.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
