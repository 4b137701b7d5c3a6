import Synchronization

/// Finds the photos directly in the input folder and reads their headers, in parallel; a photo whose
/// size and time stamp match the cache is not read again.
struct PhotoScanner: Sendable {
    var input: String
    /// Folders never scanned (the output, when it sits inside the input).
    var excluding: Set<FileIdentity>
    var reader: HeaderReader
    var jobs: Int

    func scan(cache: BuildCache, observe: @escaping @Sendable (BuildEvent) -> Void) -> (photos: [Photo], skipped: [(path: String, reason: String)]) {
        let entries = FolderWalker(recursive: false, excluding: excluding).files(under: input).filter { entry in
            guard case .file(let path) = entry else { return true }  // an unlistable folder is reported
            return Photo.looksLikePhoto(String(path.split(separator: "/").last ?? ""))
        }
        observe(.reading(total: entries.count))
        let prefix = FolderWalker.join(input, "").count
        let done = Atomic<Int>(0)
        let reader = self.reader
        let results = entries.parallelMap(jobs: jobs) { entry -> Result<Photo, ImageReadError> in
            defer { observe(.read(done: done.add(1, ordering: .relaxed).newValue, total: entries.count)) }
            let name = String(entry.path.dropFirst(prefix))
            let path: String
            switch entry {
            case .file(let file): path = file
            case .unreadable(_, let reason): return .failure(ImageReadError(.io, reason))
            }
            // No status means the file cannot be opened either: let the reader say why in its words.
            guard let status = FileStatus(path: path) else {
                return .failure(reader.read(path: path).failureValue ?? ImageReadError(.io, "cannot read"))
            }
            if let cached = cache.entries[name], cached.size == status.size, cached.modified == status.modified,
               cached.header.pixelCount <= reader.maxPixels {
                return .success(Photo(source: path, name: name, header: cached.header, status: status))
            }
            return reader.read(path: path).map { Photo(source: path, name: name, header: $0, status: status) }
        }
        var photos: [Photo] = []
        var skipped: [(path: String, reason: String)] = []
        for (entry, result) in zip(entries, results) {
            switch result {
            case .success(let photo): photos.append(photo)
            case .failure(let error):
                skipped.append((entry.path, error.reason))
                observe(.skipped(path: entry.path, reason: error.reason))
            }
        }
        return (photos, skipped)
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
