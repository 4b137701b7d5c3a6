/// Live Photos in the derive stage: a video that is one Live Photo with a still needs only its published
/// video (no poster, no tile), and leaves the site as a tile of its own: its still shows it on demand.
extension ImageDeriver {
    typealias Found = (index: Int, photo: Photo, images: [DerivedFile])

    /// Whether `held` has every derivation of `set`.
    static func covers(_ held: [DerivedFile], _ set: DerivationSet) -> Bool {
        let labels = Set(held.map(\.label))
        return set.allSatisfy { labels.contains($0.derivation.label) }
    }

    /// The derivations a photo needs: all of them, or a Live Photo's video's own video alone.
    static func needed(_ set: DerivationSet, motion: Bool) -> DerivationSet {
        motion ? set.filter { !$0.derivation.isImage } : set
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
        let paired = Set(pairs.map(\.clip))
        let alone = found.indices.filter { position in
            found[position].photo.header.isVideo && !paired.contains(position) && !found[position].images.contains { $0.role == .view }
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

    private static func pairs(_ found: [Found]) -> [(still: Int, clip: Int)] {
        LivePhotoPairing.pairs(found.map { entry in
            LivePhotoPairing.Item(name: entry.photo.name, isVideo: entry.photo.header.isVideo,
                                  identifier: entry.photo.facts.contentIdentifier,
                                  milliseconds: entry.photo.header.video?.durationMilliseconds ?? 0)
        })
    }
}
