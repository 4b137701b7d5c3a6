import Synchronization

/// Finds the photos under the input folder (every sub-folder is an album), their captions and the albums'
/// own settings, and reads the headers in parallel; a photo whose size and time stamp match the cache is
/// not read again.
struct PhotoScanner: Sendable {
    var input: String
    /// Folders never scanned (the output, when it sits inside the input).
    var excluding: Set<FileIdentity>
    var reader: HeaderReader
    var jobs: Int

    struct Result {
        var photos: [Photo]
        var skipped: [(path: String, reason: String)]
        /// Each sub-folder's `waterfall.json`, by album folder (relative to the input).
        var albumSettings: [String: String]
        /// Photos whose header came from the cache.
        var cachedHeaders = 0
    }

    /// Sidecar captions larger than this are not captions.
    static let maximumCaptionBytes = 64 * 1024

    func scan(cache: BuildCache, observe: @escaping @Sendable (BuildEvent) -> Void) -> Result {
        let prefix = FolderWalker.join(input, "").count
        var found: [FolderWalker.Entry] = []
        var sidecars = Set<String>()
        var albumSettings: [String: String] = [:]
        for entry in FolderWalker(recursive: true, excluding: excluding).files(under: input) {
            guard case .file(let path) = entry else {
                found.append(entry)  // an unlistable folder is reported
                continue
            }
            let relative = String(path.dropFirst(prefix))
            let fileName = String(relative.split(separator: "/").last ?? "")
            if Photo.looksLikePhoto(fileName) {
                found.append(entry)
            } else if fileName.lowercased().hasSuffix(".txt") {
                sidecars.insert(relative)
            } else if fileName == "waterfall.json" && relative.contains("/") {
                albumSettings[SitePath.folder(of: relative)] = path
            }
        }
        let entries = found, texts = sidecars
        observe(.reading(total: entries.count))
        let done = Atomic<Int>(0), hits = Atomic<Int>(0)
        let reader = self.reader, input = self.input
        let results = entries.parallelMap(jobs: jobs) { entry -> Swift.Result<Photo, ImageReadError> in
            defer { observe(.read(done: done.add(1, ordering: .relaxed).newValue, total: entries.count)) }
            let path: String
            switch entry {
            case .file(let file): path = file
            case .unreadable(_, let reason): return .failure(ImageReadError(.io, reason))
            }
            let name = String(path.dropFirst(prefix))
            // No status means the file cannot be opened either: let the reader say why in its words.
            guard let status = FileStatus(path: path) else {
                return .failure(reader.read(path: path).failureValue ?? ImageReadError(.io, "cannot read"))
            }
            let caption = Self.sidecarCaption(for: name, texts: texts, input: input)
            if let entry = cache.entry(for: name, path: path, status: status), entry.header.pixelCount <= reader.maxPixels {
                hits.add(1, ordering: .relaxed)
                var photo = Photo(source: path, name: name, header: entry.header, status: status, caption: caption)
                photo.cached = entry
                photo.content = entry.content
                photo.facts = entry.facts
                photo.caption = caption ?? entry.facts.description.map { Caption(title: $0) }
                return .success(photo)
            }
            return reader.read(path: path).flatMap { header in
                guard let content = BuildCache.contentHash(path) else { return .failure(ImageReadError(.io, "cannot read")) }
                var photo = Photo(source: path, name: name, header: header, status: status, caption: caption)
                photo.content = content
                photo.facts = PhotoFacts(ExifReader().read(path: path))
                photo.caption = caption ?? photo.facts.description.map { Caption(title: $0) }
                return .success(photo)
            }
        }
        var scanned = Result(photos: [], skipped: [], albumSettings: albumSettings, cachedHeaders: hits.load(ordering: .relaxed))
        for (entry, result) in zip(entries, results) {
            switch result {
            case .success(let photo): scanned.photos.append(photo)
            case .failure(let error):
                scanned.skipped.append((entry.path, error.reason))
                observe(.skipped(path: entry.path, reason: error.reason))
            }
        }
        return scanned
    }

    /// `NAME.txt` beside the photo, where NAME is the photo's file name with or without its extension
    /// (`IMG_2.jpg.txt` or `IMG_2.txt`; the first wins).
    static func sidecarCaption(for name: String, texts: Set<String>, input: String) -> Caption? {
        var stem = name
        if let dot = name.lastIndex(of: "."), !name[dot...].contains("/") { stem = String(name[..<dot]) }
        for candidate in [name + ".txt", stem + ".txt", stem + ".TXT"] where texts.contains(candidate) {
            let path = FolderWalker.join(input, candidate)
            guard let status = FileStatus(path: path), status.size <= maximumCaptionBytes,
                  let bytes = SiteWriter.contents(of: path) else { return nil }
            return Caption(text: String(decoding: bytes, as: UTF8.self))
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
