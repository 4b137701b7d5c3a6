import Synchronization

/// Finds the photos under the input folder (every sub-folder is an album), their captions and the albums'
/// own settings, and reads the headers in parallel; a photo whose size and time stamp match the cache is
/// not read again.
///
/// Only what is the gallery's is read: links that lead outside the input (unless the user allows them),
/// special files (a FIFO would hang a read), names that are not UTF-8 and folders holding an earlier site
/// or a cache are left out, each one that matters with a line saying why.
struct PhotoScanner: Sendable {
    var input: String
    /// Folders never scanned (the output and the cache, when they sit inside the input).
    var excluding: Set<FileIdentity>
    var reader: MediaReader
    var jobs: Int
    /// Links to anywhere are followed (`--follow-symlinks`).
    var followsAllLinks = false
    /// The photos' content hash (keyed in keyed mode): the cache and the output's records use the same.
    var hasher = ContentHasher.plain

    struct Result {
        var photos: [Photo]
        var skipped: [(path: String, reason: String)]
        /// Each sub-folder's `waterfall.json`, by album folder (relative to the input, as bytes).
        var albumSettings: [[UInt8]: String]
        /// Photos whose header came from the cache.
        var cachedHeaders = 0
        /// Time spent reading and hashing new photos.
        var split = WorkSplit()
    }

    /// Photos larger than this are refused before a byte is read (a sparse terabyte file would take hours
    /// to hash); a 250-megapixel photo is far smaller.
    static let maximumPhotoBytes = 4 << 30
    /// Videos are larger: an hour of 4K from a phone is some 20 GB.
    static let maximumVideoBytes = 64 << 30

    /// A new photo up to this size is read into memory once for its hash, header and EXIF facts; a larger one
    /// is read as a stream by each (a 100-megapixel JPEG is some 40 MB).
    static let maximumInMemoryBytes = 128 << 20

    /// The photo's bytes, in one read; nil when it is larger than `maximumInMemoryBytes` or cannot be read
    /// whole (the readers then open it themselves and say why).
    static func load(_ path: String, size: Int) -> [UInt8]? {
        guard size <= maximumInMemoryBytes, let file = try? OpenFile.open(path), file.size == size else { return nil }
        return try? file.read(limit: maximumInMemoryBytes)
    }

    /// Sidecar captions larger than this are not captions.
    static let maximumCaptionBytes = 64 * 1024

    func scan(cache: BuildCache?, observe: @escaping @Sendable (BuildEvent) -> Void) -> Result {
        let prefix = FolderPath.join(input, "").count
        var found: [String] = []
        var sidecars = Set<[UInt8]>()
        var result = Result(photos: [], skipped: [], albumSettings: [:])
        let walker = FolderWalker(recursive: true, excluding: excluding,
                                  links: LinkPolicy(root: input, label: "the input", followsAll: followsAllLinks),
                                  skipsWaterfallFolders: true)
        for entry in walker.files(under: input) {
            switch entry {
            case .file(let path):
                let relative = String(path.dropFirst(prefix))
                let fileName = FolderPath.lastComponent(of: relative)
                if Photo.looksLikePhoto(fileName) {
                    found.append(path)
                } else if Self.isSidecar(fileName) {
                    sidecars.insert(Array(relative.utf8))
                } else if fileName == "waterfall.json" && relative.contains("/") {
                    result.albumSettings[Array(SitePath.folder(of: relative).utf8)] = path
                }
            case .skipped(let path, let reason, let isFolder):
                let fileName = FolderPath.lastComponent(of: path)
                // The top folder's waterfall.json is the build's settings file, which says for itself why not.
                let isTopSettings = fileName == "waterfall.json" && !path.dropFirst(prefix).contains("/")
                guard isFolder || Photo.looksLikePhoto(fileName) || Self.isSidecar(fileName)
                    || (fileName == "waterfall.json" && !isTopSettings) else { continue }
                result.skipped.append((path, reason))
                observe(.skipped(path: path, reason: reason))
            case .note(let path, let note):
                observe(.note("\(PathText.display(path)): \(note)"))
            }
        }
        let entries = found, texts = sidecars
        observe(.reading(total: entries.count))
        let done = Atomic<Int>(0), hits = Atomic<Int>(0)
        let reader = self.reader, input = self.input, hasher = self.hasher
        let results = entries.parallelMap(jobs: jobs) { path -> (Swift.Result<Photo, ImageReadError>, warnings: [String], split: WorkSplit) in
            defer { observe(.read(done: done.add(1, ordering: .relaxed).newValue, total: entries.count)) }
            let name = String(path.dropFirst(prefix))
            // A file that cannot be read: the reader says why in its words.
            let unreadable = { reader.read(path: path).failureValue ?? ImageReadError(.io, "cannot read") }
            guard let status = FileStatus(path: path) else { return (.failure(unreadable()), [], WorkSplit()) }
            let isVideo = Photo.isVideoName(name)
            let limit = isVideo ? Self.maximumVideoBytes : Self.maximumPhotoBytes
            guard status.size <= limit else {
                return (.failure(ImageReadError(.tooLarge, "larger than the \(ByteCount.text(limit)) limit for a \(isVideo ? "video" : "photo")")), [], WorkSplit())
            }
            var warnings: [String] = []
            let caption = Self.sidecarCaption(for: name, texts: texts, input: input) { warnings.append($0) }
            var split = WorkSplit()
            func cached(_ box: CachedEntry) -> Swift.Result<Photo, ImageReadError> {
                hits.add(1, ordering: .relaxed)
                let entry = box.entry
                var photo = Photo(source: path, name: name, header: entry.header, status: status, caption: caption)
                photo.cachedEntry = box
                photo.content = entry.content
                photo.facts = entry.facts
                photo.caption = caption ?? entry.facts.description.map { Caption(title: $0) }
                return .success(photo)
            }
            if let entry = cache?.unchangedEntry(for: name, status: status), entry.entry.header.pixelCount <= reader.images.maxPixels {
                return (cached(entry), warnings, split)
            }
            // A new or changed photo: its content hash, header and EXIF facts come from one read of the file.
            var start = ContinuousClock.now
            let bytes = Self.load(path, size: status.size)
            split.read += WorkSplit.seconds(since: start)
            start = ContinuousClock.now
            let hashed = bytes.map { hasher.digest($0).hex } ?? hasher.hash(path: path)
            split.hash += WorkSplit.seconds(since: start)
            guard let content = hashed else { return (.failure(unreadable()), warnings, split) }
            if let entry = cache?.entry(for: name, content: content, status: status), entry.entry.header.pixelCount <= reader.images.maxPixels {
                return (cached(entry), warnings, split)
            }
            start = ContinuousClock.now
            defer { split.read += WorkSplit.seconds(since: start) }
            let header = bytes.map { reader.read(bytes: $0, path: path, expecting: status) } ?? reader.read(path: path, expecting: status)
            let read = header.map { header -> Photo in
                var photo = Photo(source: path, name: name, header: header, status: status, caption: caption)
                photo.content = content
                if let video = header.video {
                    photo.facts = PhotoFacts(video: video)
                } else {
                    photo.facts = PhotoFacts(bytes.map { ExifReader().read(bytes: $0) } ?? ExifReader().read(path: path))
                }
                photo.caption = caption ?? photo.facts.description.map { Caption(title: $0) }
                return photo
            }
            return (read, warnings, split)
        }
        result.cachedHeaders = hits.load(ordering: .relaxed)
        result.split = results.reduce(WorkSplit()) { $0 + $1.split }
        result.photos.reserveCapacity(results.count)
        for (path, (read, warnings, _)) in zip(entries, results) {
            warnings.forEach { observe(.warning($0)) }
            switch read {
            case .success(let photo): result.photos.append(photo)
            case .failure(let error):
                result.skipped.append((path, error.reason))
                observe(.skipped(path: path, reason: error.reason))
            }
        }
        return result
    }

    static func isSidecar(_ fileName: String) -> Bool { fileName.lowercased().hasSuffix(".txt") }

    /// `NAME.txt` beside the photo, where NAME is the photo's file name with or without its extension
    /// (`IMG_2.jpg.txt` or `IMG_2.txt`; the first wins). One that cannot be used is reported to `warn`.
    static func sidecarCaption(for name: String, texts: Set<[UInt8]>, input: String, warn: (String) -> Void) -> Caption? {
        guard !texts.isEmpty else { return nil }
        var stem = name
        if let dot = name.lastIndex(ofASCII: "."), !name[dot...].contains("/") { stem = String(name[..<dot]) }
        for candidate in [name + ".txt", stem + ".txt", stem + ".TXT"] where texts.contains(Array(candidate.utf8)) {
            let path = FolderPath.join(input, candidate)
            do {
                let bytes = try OpenFile.open(path).read(limit: maximumCaptionBytes)
                return Caption(text: String(decoding: bytes, as: UTF8.self))
            } catch {
                warn("\(error); the caption is not used")
                return nil
            }
        }
        return nil
    }
}

extension Swift.Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
