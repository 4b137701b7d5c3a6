/// Live Photos in the derive stage: a video that is one Live Photo with a still needs only its published
/// video (no poster, no tile), and leaves the site as a tile of its own: its still shows it on demand.
extension ImageDeriver {
    typealias Found = (index: Int, photo: Photo, images: [DerivedFile])

    /// Whether `held` has every derivation of `set`, with its key (a video's `video` made for the other role,
    /// a video's own or a Live Photo's clip, is not it).
    static func covers(_ held: [DerivedFile], _ set: DerivationSet) -> Bool {
        let made = Set(held.map { $0.label + "\u{0}" + $0.key })
        return set.allSatisfy { made.contains($0.derivation.label + "\u{0}" + $0.key) }
    }

    /// The derivations a photo needs: all of them but a Live Photo's clip, or a Live Photo's video's own video
    /// alone (the Live Photo's clip when its set has one: `VideoRequest.Mode.live`).
    static func needed(_ set: DerivationSet, motion: Bool) -> DerivationSet {
        let converted = set.contains { $0.derivation.video?.mode == .live }
        return set.filter { entry in
            let live = entry.derivation.video?.mode == .live
            guard motion else { return !live }
            return !entry.derivation.isImage && (entry.derivation.role != .video || live || !converted)
        }
    }

    /// `held` without what `set` makes with another key (the video made for the other role): made again.
    static func usable(_ held: [DerivedFile], for set: DerivationSet) -> [DerivedFile] {
        let keys = Dictionary(set.map { ($0.derivation.label, $0.key) }, uniquingKeysWith: { first, _ in first })
        return held.filter { file in keys[file.label].map { $0 == file.key } ?? true }
    }

    /// Whether a video that may pair across names (it has an identifier) holds all it needs as either its own
    /// video or a Live Photo's clip: the pairing settles which it is (`makeLiveClips`, `pairLivePhotos`).
    static func coversEither(_ held: [DerivedFile], _ set: DerivationSet, header: ImageHeader, facts: PhotoFacts) -> Bool {
        guard header.isVideo, facts.contentIdentifier != nil else { return false }
        let images = needed(set, motion: false).filter { $0.derivation.role != .video }
        return covers(held, images + needed(set, motion: true))
    }

    /// What a still that was read or kept this build says (also one its rating leaves out), nil when it was
    /// skipped.
    static func facts(of index: Int, files: [ScannedFile], results: [Int: Processed]) -> PhotoFacts? {
        guard let result = results[index] else { return files[index].cached?.entry.facts }
        switch result {
        case .published(let photo, _, _, _), .withheld(let photo, _, _): return photo.facts
        default: return nil
        }
    }

    /// Whether a video pairs with one of the stills of its name (`LivePhotoPairing.matches`).
    static func isMotion(_ stills: [PhotoFacts]?, clip facts: PhotoFacts, header: ImageHeader) -> Bool {
        guard let stills, let video = header.video else { return false }
        return stills.contains {
            LivePhotoPairing.matches(still: $0.contentIdentifier, clip: facts.contentIdentifier,
                                     milliseconds: video.durationMilliseconds, sameName: true)
        }
    }

    /// The set a photo just read needs; for a Live Photo's video, its video alone (the images of its own it
    /// holds stay its own: they are kept, should it not pair after all).
    func needed(for photo: Photo, stills: [PhotoFacts]?, known: [ImageHeader: DerivationSet]) -> DerivationSet {
        let set = known[photo.header] ?? derivationSet(for: photo.header)
        return Self.needed(set, motion: Self.isMotion(stills, clip: photo.facts, header: photo.header))
    }

    /// Pairs the Live Photos among what was found: the still takes its video's published file (`role` video),
    /// the video leaves the list, and its other images, if any, stay in the cache (`Outcome.hidden`). A video
    /// made as a Live Photo's that did not pair after all (its still was skipped, another video took it) gets
    /// its own images first.
    /// A video that is one Live Photo with a still its rating left out (`withheldStills`, by the video) and
    /// has no rating of its own is left out with it, its images kept.
    func pairLivePhotos(_ found: inout [Found], of files: [ScannedFile], known: [ImageHeader: DerivationSet],
                        withheldStills: [Int: [PhotoFacts]], trusting proven: ProvenFiles, into outcome: inout Outcome,
                        observe: @escaping @Sendable (BuildEvent) -> Void) throws(BuildError) {
        var pairs = Self.pairs(found)
        let following = Set(found.indices.filter { position in
            let entry = found[position]
            guard entry.photo.rating == nil, let stills = withheldStills[entry.index],
                  !pairs.contains(where: { $0.clip == position }) else { return false }
            return Self.isMotion(stills, clip: entry.photo.facts, header: entry.photo.header)
        })
        if !following.isEmpty {
            following.forEach { outcome.keep(found[$0].images) }
            found = found.indices.filter { !following.contains($0) }.map { found[$0] }
            pairs = Self.pairs(found)
        }
        try makeLiveClips(&found, pairs: pairs, of: files, known: known, trusting: proven, into: &outcome, observe: observe)
        let paired = Set(pairs.map(\.clip))
        let alone = found.indices.filter { position in
            let (_, photo, images) = found[position]
            guard photo.header.isVideo, !paired.contains(position) else { return false }
            let own = Self.needed(known[photo.header] ?? derivationSet(for: photo.header), motion: false)
            return !images.contains { $0.role == .view } || !Self.covers(images, own.filter { $0.derivation.role == .video })
        }
        if !alone.isEmpty {
            var held = [[DerivedFile]](repeating: [], count: files.count)
            for position in alone { held[found[position].index] = found[position].images }
            let results = try process(alone.map { found[$0].index }, of: files, held: held, known: known, stills: [:],
                                      trusting: proven, progress: (0, alone.count), observe: observe)
            var dropped = Set<Int>()
            for position in alone {
                let index = found[position].index
                if let result = results[index], let (photo, images) = outcome.add(result, of: files[index], observe: observe) {
                    found[position] = (index, photo, images)
                } else {
                    dropped.insert(position)
                }
            }
            if !dropped.isEmpty {
                found = found.indices.filter { !dropped.contains($0) }.map { found[$0] }
                pairs = Self.pairs(found)
            }
        }
        for (still, clip) in pairs {
            let images = found[clip].images
            found[still].images += images.filter { $0.role == .video }
            let hidden = images.filter { $0.role != .video }
            outcome.hidden += hidden.map(\.stored)
            outcome.made += hidden.count { $0.made }
            outcome.kept += hidden.count { !$0.made }
        }
        let clips = Set(pairs.map(\.clip))
        found = found.indices.filter { !clips.contains($0) }.map { found[$0] }
    }

    /// A clip paired across names was read as a video of its own (or kept so from the last build): its Live
    /// Photo's clip is made now where its own video is not that (an HEVC clip becomes H.264).
    private func makeLiveClips(_ found: inout [Found], pairs: [(still: Int, clip: Int)], of files: [ScannedFile],
                               known: [ImageHeader: DerivationSet], trusting proven: ProvenFiles, into outcome: inout Outcome,
                               observe: @escaping @Sendable (BuildEvent) -> Void) throws(BuildError) {
        let stale = pairs.filter { pair in
            let clip = found[pair.clip]
            return !Self.covers(clip.images, Self.needed(known[clip.photo.header] ?? derivationSet(for: clip.photo.header), motion: true))
        }
        guard !stale.isEmpty else { return }
        var held = [[DerivedFile]](repeating: [], count: files.count)
        var stills: [Int: [PhotoFacts]] = [:]
        var files = files
        for pair in stale {
            let index = found[pair.clip].index
            held[index] = found[pair.clip].images
            stills[index] = [found[pair.still].photo.facts]
            // What its first making stored this build stays in its entry.
            if let saved = cache.savedEntry(named: files[index].name) { files[index].cached = CachedEntry(saved) }
        }
        let results = try process(stale.map { found[$0.clip].index }, of: files, held: held, known: known, stills: stills,
                                  trusting: proven, progress: (0, stale.count), observe: observe)
        for pair in stale {
            let index = found[pair.clip].index
            // (One that fails keeps the video it had.)
            if let result = results[index], let (photo, images) = outcome.add(result, of: files[index], observe: observe) {
                found[pair.clip] = (index, photo, images)
            }
        }
    }

    private static func pairs(_ found: [Found]) -> [(still: Int, clip: Int)] {
        LivePhotoPairing.pairs(found.map { entry in
            LivePhotoPairing.Item(name: entry.photo.name, isVideo: entry.photo.header.isVideo,
                                  identifier: entry.photo.facts.contentIdentifier,
                                  milliseconds: entry.photo.header.video?.durationMilliseconds ?? 0)
        })
    }
}
