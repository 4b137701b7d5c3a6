import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Makes each photo's derived images, in parallel, into the cache's image store; a derived image whose
/// source and settings are unchanged and which the store still holds whole is kept, not made again.
/// A photo whose pixels cannot be decoded is skipped with the reason (no half-grey photo is published).
struct ImageDeriver: Sendable {
    var cache: BuildCache
    var sizes: ImageSizes
    var quality: Int
    var maxPixels: Int
    var jobs: Int

    struct Outcome {
        var photos: [PublishedPhoto]
        var skipped: [(path: String, reason: String)]
        var made: Int
        var kept: Int
    }

    /// One photo's derived images: made from one decode.
    private struct Job: Sendable {
        var photo: Int
        var derivations: [Derivation]
        /// Labels of the temporary files its images are made into.
        var staged: [String]
        /// Those the store still holds, by label: made again (they come out the same) but not replaced.
        var kept: [String: DerivedFile]
    }

    /// Makes what is missing. An image is kept only when the store still holds it as its entry describes
    /// it (content hash included); `proven` are files whose content was proven before and that have not
    /// changed since, which need no hashing.
    func derive(_ photos: [Photo], trusting proven: Set<ProvenFile>, observe: @escaping @Sendable (BuildEvent) -> Void) -> Outcome {
        let cache = self.cache, sizes = self.sizes, quality = self.quality, maxPixels = self.maxPixels
        // What each photo needs and which of it the store holds, in parallel: proving an image may hash it.
        let needs = photos.parallelMap(jobs: jobs) { photo -> (set: [Derivation], kept: [DerivedFile]) in
            let set = sizes.derivations(for: photo.header, quality: quality, maxPixels: maxPixels)
            let kept = set.compactMap { derivation -> DerivedFile? in
                guard let stored = photo.cached?.derived[derivation.label], stored.key == derivation.key,
                      cache.holds(stored), cache.open(stored, trusting: proven) != nil else { return nil }
                return DerivedFile(derivation: derivation, stored: stored)
            }
            return (set, kept)
        }
        var files = [[DerivedFile]](repeating: [], count: photos.count)
        var planned: [Job] = []
        for (index, need) in needs.enumerated() {
            if need.kept.count == need.set.count {
                files[index] = need.kept
            } else {
                // Something is missing: the whole set is made from one decode (the smaller images are
                // resampled from the largest, so they are only right when made together).
                planned.append(Job(photo: index, derivations: need.set, staged: need.set.indices.map { "\(index)-\($0)" },
                                   kept: Dictionary(need.kept.map { ($0.label, $0) }, uniquingKeysWith: { first, _ in first })))
            }
        }

        let jobs = planned
        let total = jobs.reduce(0) { $0 + $1.derivations.count }
        observe(.deriving(done: 0, total: total))
        let done = Atomic<Int>(0)
        let thumbnailer = Thumbnailer()
        // Each job stores its images and records its entry itself, so a build killed half way keeps what
        // it finished.
        let results = jobs.parallelMap(jobs: self.jobs) { job -> Result<[DerivedFile], DeriveError> in
            defer { observe(.deriving(done: done.add(job.derivations.count, ordering: .relaxed).newValue, total: total)) }
            let photo = photos[job.photo]
            let outputs = zip(job.staged, job.derivations).map { (path: cache.temporaryPath($0), request: $1.request) }
            var made: [DerivedFile] = []
            var entry = photo.freshEntry
            let images = thumbnailer.make(from: photo.source, outputs: outputs)
            for (derivation, (label, result)) in zip(job.derivations, zip(job.staged, images)) {
                switch result {
                case .success(let image):
                    if let kept = job.kept[derivation.label], let stored = photo.cached?.derived[derivation.label] {
                        cache.discard(label)  // the same bytes are in the store already, under the same name
                        entry.derived[derivation.label] = stored
                        made.append(kept)
                        continue
                    }
                    guard let stored = cache.store(label, content: entry.content, key: derivation.key, image: image) else {
                        job.staged.forEach(cache.discard)
                        return .failure(DeriveError(.write, "cannot store a derived image in the cache"))
                    }
                    entry.derived[derivation.label] = stored
                    made.append(DerivedFile(derivation: derivation, stored: stored, made: true))
                case .failure(let error):
                    job.staged.forEach(cache.discard)
                    return .failure(error)
                }
            }
            cache.save(entry)
            return .success(made)
        }
        for (job, result) in zip(jobs, results) {
            if case .success(let made) = result { files[job.photo] = made }
        }

        var outcome = Outcome(photos: [], skipped: [], made: 0, kept: 0)
        let failures = Dictionary(uniqueKeysWithValues: zip(jobs, results).compactMap { job, result in
            result.failureValue.map { (job.photo, $0.reason) }
        })
        for (index, photo) in photos.enumerated() {
            if let reason = failures[index] {
                outcome.skipped.append((photo.source, reason))
                observe(.skipped(path: photo.source, reason: reason))
                continue
            }
            // Tiles smallest first, then the view: the order the page wants them in.
            let images = files[index].sorted { ($0.role == .view ? 1 : 0, $0.width) < ($1.role == .view ? 1 : 0, $1.width) }
            outcome.photos.append(PublishedPhoto(photo: photo, images: images))
            outcome.made += images.count { $0.made }
            outcome.kept += images.count { !$0.made }
            // A photo found by its content under a new time stamp: record the new one for a quick next build.
            if let cached = photo.cached, cached.modified != photo.status.modified || !BuildCache.sameBytes(cached.name, photo.name),
               !images.contains(where: \.made) {
                var entry = cached
                entry.name = photo.name
                entry.size = photo.status.size
                entry.modified = photo.status.modified
                cache.save(entry)
            }
        }
        return outcome
    }
}

extension DerivedFile {
    /// Its path in the site is given later, by `SiteNames`.
    init(derivation: Derivation, stored: BuildCache.Derived, made: Bool = false) {
        self.init(label: derivation.label, role: derivation.role, key: derivation.key, path: "", width: stored.width,
                  height: stored.height, format: stored.format, stored: stored.file, hash: stored.hash, made: made,
                  averageColor: stored.averageColor)
    }
}
