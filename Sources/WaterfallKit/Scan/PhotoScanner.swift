import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Finds the photos under the input folder (every sub-folder is an album), their captions and the albums'
/// own settings, and which photos the cache already knows (same size and time stamp: no byte is read). Reading
/// the rest is the deriver's, from one open of each file. An XMP sidecar unchanged since the last build is
/// taken from the cache's memo (`SidecarMemo`), read-only here: the readings go back with the result.
///
/// Only what is the gallery's is read: links that lead outside the input (unless the user allows them),
/// special files (a FIFO would hang a read), names that are not UTF-8 and folders holding an earlier site
/// or a cache are left out, each one that matters with a line saying why.
struct PhotoScanner: Sendable {
    var input: InputFolder
    /// Folders never scanned (the output and the cache, when they sit inside the input).
    var excluding: Set<FileIdentity>
    var jobs: Int
    /// Cached headers over this many pixels are read again (and refused).
    var maxPixels: Int
    /// Renders sigal's Markdown sidecars (`NAME.md`, `index.md`) and parses XMP sidecars; without one, neither is used.
    var decoders: DecoderPool? = nil

    struct Result {
        var photos: [ScannedFile]
        var skipped: [(path: String, reason: String)]
        /// Each sub-folder's `waterfall.json`, by album folder (relative to the input, as bytes).
        var albumSettings: [[UInt8]: String]
        /// Each folder's sigal `index.md`, read (`SigalMarkdown.albumSettings`), with the file's path.
        var albumIndexes: [[UInt8]: (settings: SiteConfiguration.AlbumSettings, file: String)] = [:]
        /// The readings of the XMP sidecars seen, for the next build's memo (`SidecarMemo`): one each.
        var sidecarMemo: [SidecarMemo.Item] = []
        /// XMP sidecars a decoder parsed (the others came from the memo).
        var sidecarsParsed = 0
    }

    /// One file's scan: the file or why not, the lines about it, and its XMP sidecar's memo item.
    private struct FileRead: Sendable {
        var file: Swift.Result<ScannedFile, FileSystemError>
        var warnings: [String] = []
        var sidecar = XMPSidecar.Outcome()
    }

    /// Photos larger than this are refused before a byte is read (a sparse terabyte file would take hours
    /// to hash); a 250-megapixel photo is far smaller.
    static let maximumPhotoBytes = 4 << 30
    /// Videos are larger: an hour of 4K from a phone is some 20 GB.
    static let maximumVideoBytes = 64 << 30

    /// Sidecar captions larger than this are not captions.
    static let maximumCaptionBytes = 64 * 1024

    func scan(cache: BuildCache?, observe: @escaping @Sendable (BuildEvent) -> Void) -> Result {
        let prefix = FolderPath.join(input.path, "").count
        var found: [String] = []
        var sidecars = Set<[UInt8]>()
        var indexes: [String] = []
        var result = Result(photos: [], skipped: [], albumSettings: [:])
        let walker = FolderWalker(recursive: true, excluding: excluding, links: input.links, skipsWaterfallFolders: true, honoursNoMedia: true)
        for entry in walker.files(under: input.path) {
            switch entry {
            case .file(let path):
                let relative = String(path.dropFirst(prefix))
                let fileName = FolderPath.lastComponent(of: relative)
                if Photo.looksLikePhoto(fileName) {
                    found.append(path)
                } else if Self.isSidecar(fileName) {
                    sidecars.insert(Array(relative.utf8))
                    if fileName == SigalMarkdown.albumFile { indexes.append(path) }
                } else if fileName == "waterfall.json" && relative.contains("/") {
                    result.albumSettings[Array(SitePath.folder(of: relative).utf8)] = path
                }
            case .skipped(let path, let reason, let isFolder):
                let fileName = FolderPath.lastComponent(of: path)
                // The top folder's waterfall.json is the build's settings file, which says for itself why not.
                let isTopSettings = fileName == "waterfall.json" && !path.dropFirst(prefix).contains("/")
                guard isFolder || Photo.looksLikePhoto(fileName) || Self.isSidecar(fileName) || fileName == NoMedia.name
                    || (fileName == "waterfall.json" && !isTopSettings) else { continue }
                result.skipped.append((path, reason))
                observe(.skipped(path: path, reason: reason))
            case .note(let path, let note):
                observe(.note("\(PathText.display(path)): \(note)"))
            }
        }
        readAlbumIndexes(indexes, prefix: prefix, into: &result, observe: observe)
        let entries = found, texts = sidecars
        observe(.reading(total: entries.count))
        let done = Atomic<Int>(0)
        let memo = cache?.sidecars ?? SidecarMemo()
        let reads = entries.parallelMap(jobs: jobs) { path -> FileRead in
            defer { observe(.read(done: done.add(1, ordering: .relaxed).newValue, total: entries.count)) }
            return read(path, name: String(path.dropFirst(prefix)), texts: texts, cache: cache, memo: memo)
        }
        result.photos.reserveCapacity(reads.count)
        var memoItems: [[UInt8]: SidecarMemo.Item] = [:]
        for (path, read) in zip(entries, reads) {
            read.warnings.forEach { observe(.warning($0)) }
            if let item = read.sidecar.memo { memoItems[Array(item.name.utf8)] = item }
            if read.sidecar.parsed { result.sidecarsParsed += 1 }
            switch read.file {
            case .success(let file): result.photos.append(file)
            case .failure(let error):
                result.skipped.append((path, error.reason))
                observe(.skipped(path: path, reason: error.reason))
            }
        }
        result.sidecarMemo = Array(memoItems.values)
        return result
    }

    /// The photo or video at `path` (`name` relative to the input), its sidecars read (an XMP sidecar's
    /// through `memo` when unchanged), and its cache entry when that still holds.
    private func read(_ path: String, name: String, texts: Set<[UInt8]>, cache: BuildCache?, memo: SidecarMemo) -> FileRead {
        var info = stat()
        guard stat(path, &info) == 0 else { return FileRead(file: .failure(.system(path, "cannot read"))) }
        let status = FileStatus(info)
        let isVideo = Photo.isVideoName(name)
        let limit = isVideo ? Self.maximumVideoBytes : Self.maximumPhotoBytes
        guard status.size <= limit else {
            return FileRead(file: .failure(FileSystemError(path, "larger than the \(ByteCount.text(limit)) limit for a \(isVideo ? "video" : "photo")")))
        }
        var warnings: [String] = []
        let caption = Self.sidecarCaption(for: name, texts: texts, input: input) { warnings.append($0) }
        let xmp = decoders.map {
            XMPSidecar.read(for: name, sidecars: texts, input: input, decoders: $0, memo: memo) { warnings.append("\(PathText.display(path)): \($0)") }
        } ?? XMPSidecar.Outcome()
        var file = ScannedFile(source: path, name: name, status: status, identity: FileIdentity(info))
        if let caption { file.sidecars.append(PhotoMetadata(.text, title: caption.title, description: caption.description)) }
        file.sidecars += [SigalMarkdown.reading(for: name, among: texts, isVideo: isVideo, input: input, decoders: decoders) { warnings.append($0) },
                          TakeoutSidecar.reading(for: name, among: texts, input: input) { warnings.append($0) }].compactMap { $0 }
        if let reading = xmp.reading { file.sidecars.append(reading) }
        if let entry = cache?.unchangedEntry(for: name, status: status), entry.entry.header.pixelCount <= maxPixels {
            file.cached = entry
        }
        return FileRead(file: .success(file), warnings: warnings, sidecar: xmp)
    }

    static func isSidecar(_ fileName: String) -> Bool {
        fileName.lowercased().hasSuffix(".txt") || fileName.hasSuffix(".md") || TakeoutSidecar.isCandidate(fileName)
            || XMPSidecar.isSidecar(fileName)
    }

    private func readAlbumIndexes(_ paths: [String], prefix: Int, into result: inout Result, observe: (BuildEvent) -> Void) {
        for path in paths {
            guard let settings = SigalMarkdown.albumSettings(path, input: input, decoders: decoders, warn: { observe(.warning($0)) }) else { continue }
            result.albumIndexes[Array(SitePath.folder(of: String(path.dropFirst(prefix))).utf8)] = (settings, path)
        }
    }

    /// `NAME.txt` beside the photo, where NAME is the photo's file name with or without its extension
    /// (`IMG_2.jpg.txt` or `IMG_2.txt`; the first wins). One that cannot be used is reported to `warn`.
    static func sidecarCaption(for name: String, texts: Set<[UInt8]>, input: InputFolder, warn: (String) -> Void) -> Caption? {
        guard !texts.isEmpty else { return nil }
        var stem = name
        if let dot = name.lastIndex(ofASCII: "."), !name[dot...].contains("/") { stem = String(name[..<dot]) }
        for candidate in [name + ".txt", stem + ".txt", stem + ".TXT"] where texts.contains(Array(candidate.utf8)) {
            let path = FolderPath.join(input.path, candidate)
            do {
                let bytes = try input.open(path).read(limit: maximumCaptionBytes)
                return Caption(text: String(decoding: bytes, as: UTF8.self))
            } catch {
                warn("\(error); the caption is not used")
                return nil
            }
        }
        return nil
    }
}
