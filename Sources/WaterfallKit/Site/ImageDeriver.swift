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
    var encoders: EncoderSettings
    /// FFmpeg and the size limit, for videos.
    var video: VideoSettings
    var jobs: Int

    struct Outcome {
        var photos: [PublishedPhoto]
        var skipped: [(path: String, reason: String)]
        var made: Int
        var kept: Int
        /// Where the making's time went (decode, resample, encode, store).
        var split = WorkSplit()
    }

    /// One photo's derived images that are missing, made from one decode (with the largest box's
    /// fallback image when that one is not missing: the others are resampled from that box).
    private struct Job: Sendable {
        var photo: Int
        var derivations: [Derivation]
        /// The photo's images the store holds that the job does not make again, by label.
        var untouched: [String: BuildCache.Derived]
        /// Labels of the temporary files its images are made into.
        var staged: [String]
        /// Those the store still holds, by label: made again (they come out the same) but not replaced.
        var kept: [String: DerivedFile]
    }

    /// Makes what is missing. An image is kept only when the store still holds it as its entry describes
    /// it (content hash included); `proven` are files whose content was proven before and that have not
    /// changed since, which need no hashing.
    func derive(_ photos: [Photo], trusting proven: ProvenFiles, observe: @escaping @Sendable (BuildEvent) -> Void) -> Outcome {
        let cache = self.cache
        // Photos of one header (one camera's size) share one set of derivations and keys: made once.
        var sets: [ImageHeader: [(derivation: Derivation, key: String)]] = [:]
        for photo in photos where sets[photo.header] == nil {
            sets[photo.header] = sizes.derivations(for: photo.header, encoders: encoders, video: video).map { ($0, $0.key) }
        }
        let setsByHeader = sets
        // Which of each photo's set the store holds, in parallel: proving an image may hash it. A photo with
        // nothing to make keeps this list as its images (no second copy of 200,000 of them).
        var files = photos.parallelMap(jobs: jobs) { photo -> [DerivedFile] in
            setsByHeader[photo.header]!.compactMap { derivation, key -> DerivedFile? in
                guard let stored = photo.cachedEntry?.entry.derived[derivation.label], stored.key == key,
                      cache.holds(stored, trusting: proven) else { return nil }
                return DerivedFile(derivation: derivation, key: key, stored: stored)
            }
        }
        var planned: [Job] = []
        for (index, photo) in photos.enumerated() {
            let set = setsByHeader[photo.header]!
            if files[index].count != set.count {
                planned.append(Self.job(photo: index, set: set.map(\.derivation), kept: files[index], cached: photo.cached))
            }
        }

        let jobs = planned
        let total = jobs.reduce(0) { $0 + $1.derivations.count }
        observe(.deriving(done: 0, total: total))
        let done = Atomic<Int>(0)
        if !jobs.isEmpty { Thumbnailer.keepFreedBuffers() }
        let thumbnailer = Thumbnailer()
        // Each job stores its images and records its entry itself, so a build killed half way keeps what
        // it finished.
        let timed = jobs.parallelMap(jobs: self.jobs) { job -> (Result<[DerivedFile], DeriveError>, WorkSplit) in
            defer { observe(.deriving(done: done.add(job.derivations.count, ordering: .relaxed).newValue, total: total)) }
            var split = WorkSplit()
            let result = make(job, photo: photos[job.photo], thumbnailer: thumbnailer, split: &split) { observe(.warning($0)) }
            return (result, split)
        }
        let results = timed.map(\.0)
        let split = timed.reduce(WorkSplit()) { $0 + $1.1 }
        for (job, result) in zip(jobs, results) {
            if case .success(let made) = result {
                let making = Set(job.derivations.map(\.label))
                files[job.photo] = made + files[job.photo].filter { !making.contains($0.label) }
            }
        }

        var outcome = Outcome(photos: [], skipped: [], made: 0, kept: 0, split: split)
        outcome.photos.reserveCapacity(photos.count)  // 100,000 photos grown by doubling would pass through twice the room
        let failures = Dictionary(uniqueKeysWithValues: zip(jobs, results).compactMap { job, result in
            result.failureValue.map { (job.photo, $0.reason) }
        })
        for (index, photo) in photos.enumerated() {
            if let reason = failures[index] {
                outcome.skipped.append((photo.source, reason))
                observe(.skipped(path: photo.source, reason: reason))
                continue
            }
            // Tiles smallest first, then the view, each size's formats in the order `formats` lists them:
            // the order the page wants them in.
            let rank = { (file: DerivedFile) in
                (file.role == .tile ? 0 : file.role == .view ? 1 : 2, file.width, DeliveryFormat.allCases.firstIndex(of: file.delivery)!)
            }
            // Taken out of `files`, so the sort is in place: the list is not copied.
            var images: [DerivedFile] = []
            swap(&images, &files[index])
            images.sort { rank($0) < rank($1) }
            // What the cache knew is used up: the pages need none of it (the cache keeps its own copy).
            var published = photo
            published.cached = nil
            outcome.photos.append(PublishedPhoto(photo: published, images: images))
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

extension ImageDeriver {
    /// The job that makes what `set` misses. The images of another format or size that the store holds
    /// whole stay as they are, except the largest box's fallback, which is made again (and its file kept)
    /// whenever a missing image needs that box's pixels: every image of a set is resampled from its largest
    /// box, so making a subset without it would give other bytes than its key says.
    private static func job(photo index: Int, set: [Derivation], kept: [DerivedFile], cached: BuildCache.Entry?) -> Job {
        let keptLabels = Set(kept.map(\.label))
        var making = set.filter { !keptLabels.contains($0.label) }
        // (A video's published file is made apart from its images: it is no image's primary.)
        let images = making.filter { $0.role != .video }
        if !images.isEmpty, !images.contains(where: { $0.madeFrom == nil }),
           let primary = set.first(where: { $0.madeFrom == nil && $0.role != .video }) {
            making.insert(primary, at: 0)
        }
        let makingLabels = Set(making.map(\.label))
        var untouched: [String: BuildCache.Derived] = [:]
        for file in kept where !makingLabels.contains(file.label) {
            if let stored = cached?.derived[file.label] { untouched[file.label] = stored }
        }
        return Job(photo: index, derivations: making, untouched: untouched, staged: making.indices.map { "\(index)-\($0)" },
                   kept: Dictionary(kept.map { ($0.label, $0) }, uniquingKeysWith: { first, _ in first }))
    }
}

extension ImageDeriver {
    /// Makes one job's images into the store and records the photo's entry.
    private func make(_ job: Job, photo: Photo, thumbnailer: Thumbnailer, split: inout WorkSplit,
                      warn: (String) -> Void) -> Result<[DerivedFile], DeriveError> {
        let outputs = zip(job.staged, job.derivations).map { (path: cache.temporaryPath($0), request: $1.request) }
        var made: [DerivedFile] = []
        var entry = photo.freshEntry
        entry.derived = DerivedImages(job.untouched)
        let images = photo.header.isVideo ? makeVideo(job, photo: photo, outputs: outputs, thumbnailer: thumbnailer, split: &split)
            : thumbnailer.make(from: photo.source, outputs: outputs, split: &split)
        // A decoder's note (a colour profile left out), once for a photo that is published, naming it.
        if images.allSatisfy({ (try? $0.get()) != nil }), let note = images.lazy.compactMap({ try? $0.get().warning }).first {
            warn("\(PathText.display(photo.source)): \(note)")
        }
        let start = ContinuousClock.now
        defer { split.store += WorkSplit.seconds(since: start) }
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
}

extension ImageDeriver {
    /// A video's job: its images from its poster frame, made once into the cache's scratch folder and
    /// removed after, and the published video itself; results in the job's order.
    private func makeVideo(_ job: Job, photo: Photo, outputs: [(path: String, request: ThumbnailRequest)], thumbnailer: Thumbnailer,
                           split: inout WorkSplit) -> [Result<DerivedImage, DeriveError>] {
        guard let tools = video.tools else {
            return job.derivations.map { _ in .failure(DeriveError(.unsupported, VideoTools.missing)) }
        }
        var results = [Result<DerivedImage, DeriveError>](repeating: .failure(DeriveError(.invalidRequest, "not made")),
                                                          count: job.derivations.count)
        let images = job.derivations.indices.filter { job.derivations[$0].role != .video }
        if !images.isEmpty {
            let start = ContinuousClock.now
            let poster = cache.temporaryName("\(job.photo)-poster")
            let made = PosterFrame(tools: tools).make(source: photo.source, status: photo.status, header: photo.header,
                                                      into: cache.folder.tmp, as: poster)
            split.decode += WorkSplit.seconds(since: start)
            switch made {
            case .success:
                let imageResults = thumbnailer.make(from: cache.folder.tmp.childPath(poster), outputs: images.map { outputs[$0] }, split: &split)
                for (index, result) in zip(images, imageResults) {
                    // The poster's header says PNG; the images are the video's.
                    results[index] = result.map { image in
                        var image = image
                        image.source = photo.header
                        return image
                    }
                }
            case .failure(let error):
                // The video is skipped: its file is not made either.
                cache.folder.tmp.remove(poster)
                return results.map { _ in .failure(error) }
            }
            cache.folder.tmp.remove(poster)
        }
        for index in job.derivations.indices {
            guard let request = job.derivations[index].video else { continue }
            let start = ContinuousClock.now
            results[index] = VideoPublisher(tools: tools).make(source: photo.source, status: photo.status, header: photo.header, request: request,
                                                               into: cache.folder.tmp, as: cache.temporaryName(job.staged[index]))
            split.encode += WorkSplit.seconds(since: start)
        }
        return results
    }
}

extension DerivedFile {
    /// Its path in the site is given later, by `SiteNames`.
    init(derivation: Derivation, key: String? = nil, stored: BuildCache.Derived, made: Bool = false) {
        self.init(label: derivation.label, size: derivation.size, delivery: derivation.format, role: derivation.role,
                  key: key ?? derivation.key, path: "", width: stored.width,
                  height: stored.height, format: stored.format, stored: stored.file, hash: stored.hash, made: made,
                  averageColor: stored.averageColor)
    }
}
