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

    private struct Job: Sendable {
        var photo: Int
        var derivation: Derivation
        var staged: String
    }

    func derive(_ photos: [Photo], cache: BuildCache, observe: @escaping @Sendable (BuildEvent) -> Void) -> Outcome {
        var files = [[DerivedFile]](repeating: [], count: photos.count)
        var planned: [Job] = []
        for (index, photo) in photos.enumerated() {
            let cached = cache.entries[photo.name].flatMap { $0.size == photo.status.size && $0.modified == photo.status.modified ? $0 : nil }
            for derivation in sizes.derivations(for: photo.header, quality: quality, maxPixels: maxPixels) {
                if let kept = cached?.derived[derivation.label], kept.key == derivation.key,
                   FileStatus(path: SiteWriter.join(output, kept.path)) != nil {
                    files[index].append(DerivedFile(label: derivation.label, role: derivation.role, key: kept.key,
                                                    path: kept.path, width: kept.width, height: kept.height, staged: nil))
                } else {
                    let staged = SiteWriter.join(output, "\(Self.stagingFolder)/\(planned.count)")
                    planned.append(Job(photo: index, derivation: derivation, staged: staged))
                }
            }
        }

        let jobs = planned
        observe(.deriving(done: 0, total: jobs.count))
        let done = Atomic<Int>(0)
        let thumbnailer = Thumbnailer()
        let results = jobs.parallelMap(jobs: self.jobs) { job -> Result<DerivedImage, DeriveError> in
            defer { observe(.deriving(done: done.add(1, ordering: .relaxed).newValue, total: jobs.count)) }
            return Result { () throws(DeriveError) in
                try thumbnailer.make(from: photos[job.photo].source, to: job.staged, request: job.derivation.request)
            }
        }

        var failures = [String?](repeating: nil, count: photos.count)
        for (job, result) in zip(jobs, results) {
            switch result {
            case .success(let image):
                let name = photos[job.photo].name
                files[job.photo].append(DerivedFile(
                    label: job.derivation.label, role: job.derivation.role, key: job.derivation.key,
                    path: Derivation.path(label: job.derivation.label, name: name, format: image.format),
                    width: image.width, height: image.height, staged: job.staged))
            case .failure(let error):
                failures[job.photo] = failures[job.photo] ?? error.reason
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
