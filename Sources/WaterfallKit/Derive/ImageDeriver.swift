import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Makes each photo's derived images into the cache's image store, in parallel, reading new and changed photos
/// on the way. A photo that must be read is opened once (`InputFolder.open`, never through a link), and its
/// first bytes, content hash, header, facts and pixels all come from that one descriptor; its C readers and
/// decoders run in decoder processes (`DecoderPool`), so a photo that crashes or hangs one is skipped with the
/// reason, and the rest of the gallery is built. A photo the cache knows unchanged, whose images the store
/// still holds whole, is not opened at all.
///
/// A file that changes while it is read is skipped (it is read again next time), never stored under another
/// file's hash. A file that cannot be written into the cache stops the build: that is the storage's problem,
/// not a photo's.
struct ImageDeriver: Sendable {
    var cache: BuildCache
    var reader: MediaReader
    var input: InputFolder
    var sizes: ImageSizes
    var encoders: EncoderSettings
    /// FFmpeg and the size limit, for videos.
    var video: VideoSettings
    /// Whether the originals are published (then the store takes them in, from the photo's one open).
    var originals: SiteConfiguration.OriginalsPolicy
    var jobs: Int
    /// Which photos their ratings publish: the others' images are not made.
    var ratings = RatingRule()

    struct Outcome {
        var photos: [PublishedPhoto]
        var skipped: [(path: String, reason: String)]
        var made: Int
        var kept: Int
        /// Photos whose header and facts came from the cache instead of the file.
        var cachedHeaders = 0
        /// Photos published without one of their formats (too large for it), and why: a line each.
        var warnings: [String] = []
        /// Where the time went (read, hash, decode, resample, encode, store).
        var split = WorkSplit()
        /// Photos their rating leaves out, and the stored images they hold (kept in the cache).
        var withheld = 0
        var withheldImages: [String] = []
        /// Images the site does not show that the cache keeps (a Live Photo's video's own poster images).
        var hidden: [String] = []

        /// Counts a photo that was opened: its photo and images when it is published, nil when it was skipped.
        mutating func add(_ result: Processed, of file: ScannedFile,
                                      observe: (BuildEvent) -> Void) -> (Photo, [DerivedFile])? {
            switch result {
            case .published(let photo, let images, let work, let note):
                split = split + work
                if let note { warnings.append("\(PathText.display(file.source)): \(note)") }
                warnings += photo.facts.warnings.map { "\(PathText.display(file.source)): \($0)" }
                return (photo, images)
            case .withheld(_, let images, let work):
                split = split + work
                withhold(images)
                return nil
            case .skipped(let reason, let work):
                split = split + work
                skipped.append((file.source, reason))
                observe(.skipped(path: file.source, reason: reason))
                return nil
            case .stop:
                return nil
            }
        }

        /// Adds the photo with its images in the order the page wants them: tiles smallest first, then the view
        /// and the full-size image,
        /// each size's formats in the order `formats` lists them.
        mutating func publish(_ photo: consuming Photo, images: consuming [DerivedFile]) {
            let rank = { (file: DerivedFile) in
                (file.role == .tile ? 0 : file.role == .view ? 1 : file.role == .zoom ? 2 : 3, file.width,
                 DeliveryFormat.allCases.firstIndex(of: file.delivery)!)
            }
            images.sort { rank($0) < rank($1) }
            // What the cache knew is used up: the pages need none of it (the cache keeps its own copy).
            photo.cached = nil
            made += images.count { $0.made }
            kept += images.count { !$0.made }
            photos.append(PublishedPhoto(photo: photo, images: images))
        }
    }

    /// A set of derivations with their keys (computed once per header: a key is a string built each time).
    typealias DerivationSet = [(derivation: Derivation, key: String)]

    /// What became of one photo that had to be opened.
    enum Processed {
        /// With the decoder's note for the user, if it left one (an ICC profile over the cap, left out).
        case published(Photo, [DerivedFile], WorkSplit, note: String?)
        /// Left out by its rating, with the images the store holds of it.
        case withheld(Photo, [DerivedFile], WorkSplit)
        case skipped(String, WorkSplit)
        /// A write failed: the build stops.
        case stop(String)
    }

    /// Makes what is missing. An image is kept only when the store still holds it as its entry describes it
    /// (content hash included); `proven` are files whose content was proven before and that have not changed
    /// since, which need no hashing.
    func derive(_ files: [ScannedFile], trusting proven: ProvenFiles,
                observe: @escaping @Sendable (BuildEvent) -> Void) throws(BuildError) -> Outcome {
        // Photos of one header (one camera's size) share one set of derivations and keys: made once.
        var sets: [ImageHeader: DerivationSet] = [:]
        for file in files {
            guard let header = file.cached?.entry.header, sets[header] == nil else { continue }
            sets[header] = derivationSet(for: header)
        }
        let known = sets
        // Which of each known photo's set the store holds, in parallel: proving an image may hash it. A photo with
        // nothing to make keeps this list as its images (no second copy of 200,000 of them).
        var held = files.parallelMap(jobs: jobs) { file -> [DerivedFile] in
            guard let entry = file.cached?.entry else { return [] }
            return holds(known[entry.header]!, of: entry, trusting: proven, unchanged: file)
        }
        // A likely Live Photo's video (a still of its name beside it) is read after the stills: when it is one
        // with its still, it needs no image of its own, only the video.
        let candidates = LivePhotoPairing.candidates(files.map(\.name))
        func needs(_ index: Int, motion: Bool) -> Bool {
            guard let entry = files[index].cached?.entry, entry.factsVersion == Versions.facts else { return true }
            // A photo its rating leaves out needs nothing made (its entry and images are kept).
            guard !withholds(files[index].metadata(with: entry.facts).rating?.value, clip: candidates[index] != nil) else { return false }
            let set = known[entry.header]!
            if !motion && Self.coversEither(held[index], set, header: entry.header, facts: entry.facts) { return false }
            return !Self.covers(held[index], Self.needed(set, motion: motion))
        }
        let work = files.indices.filter { candidates[$0] == nil && needs($0, motion: false) }
        // (A video read after the stills needs at least its own video: the total counts those missing it.)
        let total = work.count + candidates.keys.count { needs($0, motion: true) }
        var results = try process(work, of: files, held: held, known: known, stills: [:], trusting: proven,
                                  progress: (0, total), observe: observe)
        let stills = candidates.mapValues { $0.compactMap { Self.facts(of: $0, files: files, results: results) } }
        let clips = candidates.keys.sorted().filter { clip in
            guard let entry = files[clip].cached?.entry, entry.factsVersion == Versions.facts else { return true }
            return needs(clip, motion: Self.isMotion(stills[clip], clip: entry.facts, header: entry.header))
        }
        results.merge(try process(clips, of: files, held: held, known: known, stills: stills, trusting: proven,
                                  progress: (work.count, total), observe: observe)) { $1 }
        var outcome = Outcome(photos: [], skipped: [], made: 0, kept: 0)
        var found: [Found] = []
        found.reserveCapacity(files.count)  // 100,000 photos grown by doubling would pass through twice the room
        var withheld = Set<Int>()
        for (index, file) in files.enumerated() {
            if let result = results[index] {
                if case .withheld = result { withheld.insert(index) }
                guard let (read, made) = outcome.add(result, of: file, observe: observe) else { continue }
                found.append((index, read, made))
            } else {
                var images: [DerivedFile] = []
                // Taken out of `held`: the list is not copied. (A Live Photo's video keeps what it holds of its own.)
                swap(&images, &held[index])
                let photo = Photo(file, entry: file.cached!)
                guard !withholds(photo.rating, clip: candidates[index] != nil) else {
                    outcome.withhold(images)
                    withheld.insert(index)
                    continue
                }
                found.append((index, photo, images))
            }
        }
        // The facts of the stills their rating left out, by the video of their name beside them.
        let withheldStills = candidates.compactMapValues { stillIndices -> [PhotoFacts]? in
            let facts = stillIndices.filter(withheld.contains).compactMap { Self.facts(of: $0, files: files, results: results) }
            return facts.isEmpty ? nil : facts
        }
        try pairLivePhotos(&found, of: files, known: known, withheldStills: withheldStills, trusting: proven, into: &outcome,
                           observe: observe)
        publish(found, into: &outcome)
        if let line = ratings.report(leftOut: outcome.withheld) { observe(.note(line)) }
        return outcome
    }

    /// Publishes what was found, in order, with the warnings of formats left out (once per header).
    private func publish(_ found: [Found], into outcome: inout Outcome) {
        outcome.photos.reserveCapacity(found.count)
        // Only a build with another format than the fallback can leave one out; once per header.
        var omissions: [ImageHeader: String?] = [:]
        for (_, photo, images) in found {
            if photo.cachedEntry != nil { outcome.cachedHeaders += 1 }
            if encoders.formats.count > 1 {
                let header = photo.header
                if omissions[header] == nil { omissions[header] = sizes.omissionWarning(for: header, encoders: encoders) }
                if let warning = omissions[header]! { outcome.warnings.append("\(PathText.display(photo.source)): \(warning)") }
            }
            outcome.publish(photo, images: images)
        }
    }

    /// Reads and makes what the photos at `work` miss, in parallel (the names of one file one after another),
    /// by index; a write that failed stops it all.
    /// `stills` are the facts of the stills of the same name beside a likely Live Photo's video; `progress`
    /// counts the photos done of all the calls' total.
    func process(_ work: [Int], of files: [ScannedFile], held: [[DerivedFile]], known: [ImageHeader: DerivationSet],
                 stills: [Int: [PhotoFacts]], trusting proven: ProvenFiles, progress: (start: Int, total: Int),
                 observe: @escaping @Sendable (BuildEvent) -> Void) throws(BuildError) -> [Int: Processed] {
        if !work.isEmpty {
            Thumbnailer.keepFreedBuffers()
            if let failure = reader.decoders.start() { throw BuildError(failure.detail) }
        }
        let total = max(progress.total, progress.start + work.count)
        observe(.deriving(done: progress.start, total: total))
        let done = Atomic<Int>(progress.start), stopped = Atomic<Bool>(false)
        let groups = Self.oneFileAtATime(work, of: files)
        let processed = groups.parallelMap(jobs: jobs) { names -> [Processed] in
            names.map { index in
                defer { observe(.deriving(done: done.add(1, ordering: .relaxed).newValue, total: total)) }
                // After a write failed, nothing more is read or made: the build is stopping.
                guard !stopped.load(ordering: .relaxed) else { return .skipped("", WorkSplit()) }
                let result = process(files[index], at: index, held: held[index], known: known, stills: stills[index], trusting: proven)
                if case .stop = result { stopped.store(true, ordering: .relaxed) }
                return result
            }
        }.joined()
        if let stop = processed.lazy.compactMap({ if case .stop(let reason) = $0 { reason } else { nil } }).first {
            throw BuildError(stop)
        }
        var results: [Int: Processed] = [:]
        results.reserveCapacity(work.count)
        for (index, result) in zip(groups.joined(), processed) { results[index] = result }
        return results
    }

    /// `work` in groups of the names of one file, each to be read one after another: storing one name's
    /// original (a hard link, then a rename) moves the file's change time, which would make the other names,
    /// read at the same moment, look changed while they were read.
    private static func oneFileAtATime(_ work: [Int], of files: [ScannedFile]) -> [[Int]] {
        var groups: [[Int]] = [], group: [FileIdentity: Int] = [:]
        for index in work {
            if let position = group[files[index].identity] {
                groups[position].append(index)
            } else {
                group[files[index].identity] = groups.count
                groups.append([index])
            }
        }
        return groups
    }

    /// The derivations a photo of this header needs, with their keys.
    func derivationSet(for header: ImageHeader) -> DerivationSet {
        sizes.derivations(for: header, encoders: encoders, video: video, originals: originals).map { ($0, $0.key) }
    }

    /// The images of `set` the store holds as `entry` describes them. `unchanged` is the photo as the scan
    /// found it, when the cache knew it by its size and time stamp: an original linked to it is held on that.
    private func holds(_ set: DerivationSet, of entry: BuildCache.Entry, trusting proven: ProvenFiles,
                       unchanged file: ScannedFile? = nil) -> [DerivedFile] {
        set.compactMap { derivation, key -> DerivedFile? in
            guard let stored = entry.derived[derivation.label], stored.key == key else { return nil }
            let linked = derivation.role == .original
                && file.map { cache.holdsLinkedInput(stored, identity: $0.identity, status: $0.status, content: entry.content) } == true
            guard linked || cache.holds(stored, trusting: proven) else { return nil }
            return DerivedFile(derivation: derivation, key: key, stored: stored)
        }
    }
}

extension ImageDeriver {
    /// What an open file is, from its first bytes (nothing is hashed of a file that is no format Waterfall
    /// reads: a sparse file of terabytes, say), and a new video's probe: it is probed before its bytes are
    /// hashed, so that a file of tens of gigabytes behind a real `ftyp` box that no program plays is refused
    /// in a moment.
    private func identify(_ source: OpenFile, known: Bool) -> Result<(SniffedFormat, (ImageHeader, PhotoFacts)?), ImageReadError> {
        reader.sniff(source).flatMap { sniffed in
            guard sniffed.isVideo && !known else { return .success((sniffed, nil)) }
            return reader.read(source, sniffed: sniffed, facts: true).map { (sniffed, $0) }
        }
    }

    /// Reads what is not known of one photo and makes what the store misses, all from one open of its file.
    private func process(_ file: ScannedFile, at index: Int, held: [DerivedFile], known: [ImageHeader: DerivationSet],
                         stills: [PhotoFacts]?, trusting proven: ProvenFiles) -> Processed {
        var split = WorkSplit()
        var start = ContinuousClock.now
        let source: OpenFile
        do {
            source = try input.open(file.source)
        } catch {
            return .skipped(error.reason, split)
        }
        guard source.status == file.status else { return .skipped(Self.changed, split) }
        let sniffed: SniffedFormat, probed: (ImageHeader, PhotoFacts)?
        switch identify(source, known: file.cached != nil) {
        case .failure(let error): return .skipped(error.reason, split)
        case .success(let found): (sniffed, probed) = found
        }
        split.read += WorkSplit.seconds(since: start)
        start = ContinuousClock.now
        let content: String
        do {
            content = try cache.hasher.digest(source).hex
        } catch {
            return .skipped(error.reason, split)
        }
        split.hash += WorkSplit.seconds(since: start)
        start = ContinuousClock.now

        var photo: Photo
        var held = held
        var box = file.cached?.entry.content == content ? file.cached : nil
        if box == nil, let moved = cache.entry(for: file.name, content: content, status: file.status),
           moved.entry.header.pixelCount <= reader.images.maxPixels {
            // The same photo under another name or time stamp (moved, copied, another checkout).
            box = moved
            held = holds(known[moved.entry.header] ?? derivationSet(for: moved.entry.header), of: moved.entry, trusting: proven)
        }
        if let box, box.entry.factsVersion == Versions.facts {
            photo = Photo(file, entry: box)
        } else {
            // New, or known with facts an older Waterfall read: its images, if any, are kept.
            switch probed.map(Result.success) ?? reader.read(source, sniffed: sniffed, facts: true) {
            case .failure(let error): return .skipped(error.reason, split)
            case .success(let (header, facts)):
                photo = Photo(source: file.source, name: file.name, header: header, status: file.status,
                              metadata: file.metadata(with: facts), facts: facts)
                photo.content = content
                photo.cachedEntry = box
            }
            if box == nil { held = [] }
        }
        split.read += WorkSplit.seconds(since: start)
        guard !withholds(photo.rating, clip: stills != nil) else { return withhold(photo, source: source, held: held, split: split) }
        let set = needed(for: photo, stills: stills, known: known)
        held = Self.usable(held, for: set)
        var made: [String: Made] = [:]
        var job: Job?
        if !Self.covers(held, set) {
            let missing = Self.job(photo: index, set: set.map(\.derivation), kept: held, cached: photo.cached)
            switch make(missing, photo: photo, source: source, format: sniffed.name, split: &split) {
            case .failure(let error): return error.kind == .write ? .stop(Self.stopping(error.reason)) : .skipped(error.reason, split)
            case .success(let outputs): made = outputs
            }
            job = missing
        } else if !source.isUnchanged {
            // Its hash, at least, was read from it: from one version of it, or it is not recorded.
            return .skipped(Self.changed, split)
        }
        start = ContinuousClock.now
        defer { split.store += WorkSplit.seconds(since: start) }
        do {
            let images = try store(made, of: job, photo: photo, held: held)
            // A decoder's note, once for the photo.
            let note = made.values.lazy.compactMap { made -> String? in
                if case .encoded(let encoded, _) = made { encoded.image.warning } else { nil }
            }.min()
            return .published(photo, images, split, note: note)
        } catch {
            return .stop(Self.stopping(error.description))
        }
    }

    /// Why a file that changed while the build read it is skipped.
    static let changed = "changed while it was read; it is read again next time"

    /// The one line a build that stops on a write error ends with.
    static func stopping(_ reason: String) -> String {
        "\(reason); the build stopped, and the last site was left as it was"
    }
}

extension ImageDeriver {
    /// One photo's derived images that are missing, made from one decode (with the largest box's fallback
    /// image when that one is not missing: the others are resampled from that box).
    private struct Job: Sendable {
        var derivations: [Derivation]
        /// The photo's images the store holds that the job does not make again, by label.
        var untouched: [String: BuildCache.Derived]
        /// Labels of the temporary files its images are stored through.
        var staged: [String]
        /// Those the store still holds, by label: made again (they come out the same) but not replaced.
        var kept: [String: DerivedFile]
    }

    /// A made image: in memory (from a decoder process), or a file in the cache's scratch folder (a video, by
    /// ffmpeg) at its staged label's name.
    private enum Made {
        case encoded(EncodedImage, label: String)
        case file(DerivedImage, label: String)

        var label: String {
            switch self {
            case .encoded(_, let label), .file(_, let label): label
            }
        }
    }

    /// The job that makes what `set` misses. The images of another format or size that the store holds
    /// whole stay as they are, except the largest box's fallback, which is made again (and its file kept)
    /// whenever a missing image needs that box's pixels: every image of a set is resampled from its largest
    /// box, so making a subset without it would give other bytes than its key says.
    private static func job(photo index: Int, set: [Derivation], kept: [DerivedFile], cached: BuildCache.Entry?) -> Job {
        let keptLabels = Set(kept.map(\.label))
        var making = set.filter { !keptLabels.contains($0.label) }
        // (A video or an original published is made apart from the images: it is no image's primary.)
        let images = making.filter(\.isImage)
        if !images.isEmpty, !images.contains(where: { $0.madeFrom == nil }),
           let primary = set.first(where: { $0.madeFrom == nil && $0.isImage }) {
            making.insert(primary, at: 0)
        }
        let makingLabels = Set(making.map(\.label))
        var untouched: [String: BuildCache.Derived] = [:]
        for file in kept where !makingLabels.contains(file.label) {
            if let stored = cached?.derived[file.label] { untouched[file.label] = stored }
        }
        return Job(derivations: making, untouched: untouched, staged: making.indices.map { "\(index)-\($0)" },
                   kept: Dictionary(kept.map { ($0.label, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Makes the job's files from the open file, by staged label; the first failure fails the photo. The images
    /// and a video's file first; then, only when everything read came from one version of the file (else it is
    /// skipped as changed), the original, whose hard link would itself move the file's change time.
    private func make(_ job: Job, photo: Photo, source: OpenFile, format: String?,
                      split: inout WorkSplit) -> Result<[String: Made], DeriveError> {
        var results: [Result<Made, DeriveError>] = []
        let images = job.derivations.indices.filter { job.derivations[$0].isImage }
        if !images.isEmpty {
            let requests = images.map { job.derivations[$0].request }
            let made = photo.header.isVideo
                ? posterImages(requests, of: photo, source: source, label: job.staged[images[0]], split: &split)
                : Thumbnailer().make(from: source, requests: requests, pixels: photo.header.decodedPixels, decoders: reader.decoders,
                                     format: format, split: &split)
            results += zip(images, made).map { index, result in result.map { .encoded($0, label: job.staged[index]) } }
        }
        for (derivation, label) in zip(job.derivations, job.staged) {
            guard let request = derivation.video else { continue }
            let start = ContinuousClock.now
            results.append(publishVideo(request, of: photo, source: source, label: label))
            split.encode += WorkSplit.seconds(since: start)
        }
        if results.allSatisfy({ $0.failureValue == nil }) && !source.isUnchanged {
            results.append(.failure(DeriveError(.io, Self.changed)))
        }
        for (derivation, label) in zip(job.derivations, job.staged) where results.allSatisfy({ $0.failureValue == nil }) {
            guard let policy = derivation.original else { continue }
            let start = ContinuousClock.now
            results.append(takeOriginal(source, of: photo, policy: policy, label: label))
            split.store += WorkSplit.seconds(since: start)
        }
        let made = results.compactMap { result -> Made? in if case .success(let output) = result { output } else { nil } }
        let failures = results.compactMap(\.failureValue)
        // A write that failed stops the build, whatever else failed with it.
        if let failure = failures.first(where: { $0.kind == .write }) ?? failures.first {
            made.forEach { discard($0) }
            return .failure(failure)
        }
        return .success(Dictionary(made.map { ($0.label, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    /// The original as the store keeps it: a hard link to the very file that is open (`link`, where the cache is
    /// on its file system), else a copy of its bytes, read from that descriptor.
    private func takeOriginal(_ source: OpenFile, of photo: Photo, policy: SiteConfiguration.OriginalsPolicy,
                              label: String) -> Result<Made, DeriveError> {
        let name = cache.temporaryName(label)
        cache.folder.tmp.remove(name)
        do {
            if policy != .link || !cache.folder.tmp.link(source, as: name) { try cache.folder.tmp.copy(source, as: name) }
        } catch {
            return .failure(DeriveError(error.path == source.path ? .io : .write, error.description))
        }
        // What the store takes in is the very bytes the photo was hashed as.
        guard let taken = try? cache.folder.tmp.openFile(name), (try? cache.hasher.digest(taken)) == ContentDigest(hex: photo.content) else {
            cache.folder.tmp.remove(name)
            return .failure(DeriveError(.io, Self.changed))
        }
        let header = photo.header
        return .success(.file(DerivedImage(format: header.format, width: header.width, height: header.height, source: header),
                              label: label))
    }

    /// Stores what was made, records the photo's entry (also when nothing was made but its name or time stamp
    /// is new, so the next build finds it quickly), and returns the photo's images.
    private func store(_ made: [String: Made], of job: Job?, photo: Photo, held: [DerivedFile]) throws(FileSystemError) -> [DerivedFile] {
        guard let job else {
            if let cached = photo.cached, cached.modified != photo.status.modified || cached.size != photo.status.size
                || !BuildCache.sameBytes(cached.name, photo.name) || cached.factsVersion != Versions.facts {
                var entry = cached
                entry.name = photo.name
                entry.size = photo.status.size
                entry.modified = photo.status.modified
                entry.facts = photo.facts
                entry.header = photo.header  // read again with the facts (a video's probe says more now)
                entry.factsVersion = Versions.facts
                try cache.save(entry)
            }
            return held
        }
        var entry = photo.freshEntry
        entry.derived = DerivedImages(job.untouched)
        var images: [DerivedFile] = []
        var left = made
        for (derivation, label) in zip(job.derivations, job.staged) {
            guard let output = left.removeValue(forKey: label) else { continue }
            if let kept = job.kept[derivation.label], let stored = photo.cached?.derived[derivation.label] {
                discard(output)  // the same bytes are in the store already, under the same name
                entry.derived[derivation.label] = stored
                images.append(kept)
                continue
            }
            let stored: BuildCache.Derived
            do {
                switch output {
                case .encoded(let encoded, let label):
                    stored = try cache.store(encoded, label: label, content: entry.content, key: derivation.key)
                case .file(let image, let label):
                    stored = try cache.store(label, content: entry.content, key: derivation.key, image: image,
                                             suffix: derivation.role == .original ? BuildCache.originalSuffix : nil)
                }
            } catch {
                left.values.forEach { discard($0) }
                throw error
            }
            entry.derived[derivation.label] = stored
            images.append(DerivedFile(derivation: derivation, stored: stored, made: true))
        }
        try cache.save(entry)
        let making = Set(job.derivations.map(\.label))
        return images + held.filter { !making.contains($0.label) }
    }

    private func discard(_ made: Made) {
        if case .file(_, let label) = made { cache.discard(label) }
    }
}

extension ImageDeriver {
    /// A video's images, made from its poster frame (made once into the cache's scratch folder, and removed after).
    private func posterImages(_ requests: [ThumbnailRequest], of photo: Photo, source: OpenFile, label: String,
                              split: inout WorkSplit) -> [Result<EncodedImage, DeriveError>] {
        guard let tools = video.tools else { return requests.map { _ in .failure(DeriveError(.unsupported, VideoTools.missing)) } }
        let start = ContinuousClock.now
        let poster = cache.temporaryName("\(label)-poster")
        let made = PosterFrame(tools: tools).make(source: source, header: photo.header, into: cache.folder.tmp, as: poster)
        split.decode += WorkSplit.seconds(since: start)
        defer { cache.folder.tmp.remove(poster) }
        let frame: OpenFile
        do {
            try made.get()
            frame = try cache.folder.tmp.openFile(poster)
        } catch let error as DeriveError {
            return requests.map { _ in .failure(error) }
        } catch {
            return requests.map { _ in .failure(DeriveError(.write, "\(error)")) }
        }
        return Thumbnailer().make(from: frame, requests: requests, pixels: photo.header.pixelCount, decoders: reader.decoders,
                                  format: "poster (PNG)", split: &split).map { result in
            // The poster's header says PNG; the images are the video's.
            result.map { encoded in
                var encoded = encoded
                encoded.image.source = photo.header
                return encoded
            }
        }
    }

    /// The video as it is published, made from the open video into the cache's scratch folder.
    private func publishVideo(_ request: VideoRequest, of photo: Photo, source: OpenFile, label: String) -> Result<Made, DeriveError> {
        guard let tools = video.tools else { return .failure(DeriveError(.unsupported, VideoTools.missing)) }
        return VideoPublisher(tools: tools).make(source: source, header: photo.header, request: request, into: cache.folder.tmp,
                                                 as: cache.temporaryName(label))
            .map { .file($0, label: label) }
    }
}
