import Synchronization

/// Makes each photo's derived images, in parallel, into a staging folder inside the output; a derived
/// image whose source, settings and file are unchanged since the last build is kept, not made again.
/// A photo whose pixels cannot be decoded is skipped with the reason (no half-grey photo is published).
struct ImageDeriver: Sendable {
    var output: String
    var sizes: ImageSizes
    var quality: Int
    var maxPixels: Int
    var jobs: Int

    static let stagingFolder = ".waterfall/staging"

    struct Outcome {
        var photos: [PublishedPhoto]
        var skipped: [(path: String, reason: String)]
        /// The cache for the next build: what every published photo's derived images are.
        var cache: BuildCache
        var made: Int
        var kept: Int
    }

    /// One photo's missing derived images: made from one decode.
    private struct Job: Sendable {
        var photo: Int
        var derivations: [Derivation]
        var staged: [String]
    }

    func derive(_ photos: [Photo], cache: BuildCache, observe: @escaping @Sendable (BuildEvent) -> Void) -> Outcome {
        var files = [[DerivedFile]](repeating: [], count: photos.count)
        var keptFiles = [[String: DerivedFile]](repeating: [:], count: photos.count)
        var planned: [Job] = []
        for (index, photo) in photos.enumerated() {
            let cached = cache.entries[photo.name].flatMap { $0.size == photo.status.size && $0.modified == photo.status.modified ? $0 : nil }
            let set = sizes.derivations(for: photo.header, quality: quality, maxPixels: maxPixels)
            var kept: [String: DerivedFile] = [:]
            for derivation in set {
                if let file = cached?.derived[derivation.label], file.key == derivation.key,
                   FileStatus(path: SiteWriter.join(output, file.path)) != nil {
                    kept[derivation.label] = DerivedFile(label: derivation.label, role: derivation.role, key: file.key,
                                                         path: file.path, width: file.width, height: file.height, staged: nil)
                }
            }
            keptFiles[index] = kept
            guard kept.count < set.count else { continue }
            // Something is missing: the whole set is made again from one decode (what is still there comes out
            // byte for byte the same, and is kept as it is).
            planned.append(Job(photo: index, derivations: set,
                               staged: set.indices.map { SiteWriter.join(output, "\(Self.stagingFolder)/\(index)-\($0)") }))
        }

        let remade = Set(planned.map(\.photo))
        for (index, kept) in keptFiles.enumerated() where !remade.contains(index) {
            files[index] = Array(kept.values)
        }
        let jobs = planned
        let total = jobs.reduce(0) { $0 + $1.derivations.count }
        observe(.deriving(done: 0, total: total))
        let done = Atomic<Int>(0)
        let thumbnailer = Thumbnailer()
        let results = jobs.parallelMap(jobs: self.jobs) { job -> [Result<DerivedImage, DeriveError>] in
            defer { observe(.deriving(done: done.add(job.derivations.count, ordering: .relaxed).newValue, total: total)) }
            let outputs = zip(job.staged, job.derivations).map { (path: $0, request: $1.request) }
            return thumbnailer.make(from: photos[job.photo].source, outputs: outputs)
        }

        var failures = [String?](repeating: nil, count: photos.count)
        for (job, outcomes) in zip(jobs, results) {
            for (derivation, (staged, result)) in zip(job.derivations, zip(job.staged, outcomes)) {
                if let kept = keptFiles[job.photo][derivation.label] {
                    files[job.photo].append(kept)
                    continue
                }
                switch result {
                case .success(let image):
                    let photo = photos[job.photo]
                    files[job.photo].append(DerivedFile(
                        label: derivation.label, role: derivation.role, key: derivation.key,
                        path: SitePath.join(photo.album, Derivation.path(label: derivation.label, name: photo.fileName, format: image.format)),
                        width: image.width, height: image.height, staged: staged))
                case .failure(let error):
                    failures[job.photo] = failures[job.photo] ?? error.reason
                }
            }
        }

        var outcome = Outcome(photos: [], skipped: [], cache: BuildCache(), made: 0, kept: 0)
        for (index, photo) in photos.enumerated() {
            if let reason = failures[index] {
                outcome.skipped.append((photo.source, reason))
                observe(.skipped(path: photo.source, reason: reason))
                continue
            }
            // Tiles smallest first, then the view: the order the page wants them in.
            let images = files[index].sorted { ($0.role == .view ? 1 : 0, $0.width) < ($1.role == .view ? 1 : 0, $1.width) }
            outcome.photos.append(PublishedPhoto(photo: photo, images: images))
            outcome.made += images.count { $0.staged != nil }
            outcome.kept += images.count { $0.staged == nil }
            var entry = BuildCache.Entry(size: photo.status.size, modified: photo.status.modified, header: photo.header)
            for image in images {
                entry.derived[image.label] = BuildCache.Derived(key: image.key, path: image.path, width: image.width, height: image.height)
            }
            outcome.cache.entries[photo.name] = entry
        }
        return outcome
    }
}
