#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `build --watch`: notices a change to the input (photos, captions, album settings), the theme or the
/// configuration by polling their files' sizes and time stamps: portable, and cheap next to a build.
struct FolderWatcher {
    let options: BuildOptions
    private var last: [String: FileStatus]

    init(options: BuildOptions) {
        self.options = options
        last = Self.signature(options)
    }

    /// Blocks until something differs from the last time it looked.
    mutating func waitForChange(every interval: Double = 1) {
        while true {
            usleep(UInt32(interval * 1_000_000))
            let now = Self.signature(options)
            if now != last {
                last = now
                return
            }
        }
    }

    private static func signature(_ options: BuildOptions) -> [String: FileStatus] {
        let excluded = Set([options.output, options.cacheFolder].compactMap { FileIdentity(path: $0) })
        // The same walk as the build's (links out of the input are not followed: a link to / would
        // otherwise be walked every second).
        let input = LinkPolicy(root: options.input, label: "the input", followsAll: options.followSymlinks)
        var files = FolderWalker(recursive: true, excluding: excluded, links: input, skipsWaterfallFolders: true, honoursNoMedia: true)
            .files(under: options.input).map(\.path)
        if let theme = options.templates {
            let links = LinkPolicy(root: theme, label: "the theme", followsAll: options.followSymlinks)
            files += FolderWalker(recursive: true, links: links).files(under: theme).map(\.path)
        }
        if let config = options.configFile { files.append(config) }
        var signature: [String: FileStatus] = [:]
        for file in files { signature[file] = FileStatus(path: file) }
        return signature
    }
}
