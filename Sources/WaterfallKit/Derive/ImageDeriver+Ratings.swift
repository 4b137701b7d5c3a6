/// Photos their rating leaves out (`RatingRule`): decided once their metadata is known, before any image is
/// made; their cache entries and images stay, so a photo rated in again costs no image.
extension ImageDeriver {
    /// An opened photo its rating leaves out: its entry saved with its facts, so the next build decides
    /// without opening it, and the images the store holds of it kept.
    func withhold(_ photo: Photo, source: OpenFile, held: [DerivedFile], split: WorkSplit) -> Processed {
        guard source.isUnchanged else { return .skipped(Self.changed, split) }
        var entry = photo.cached ?? photo.freshEntry
        let saved = photo.cached
        entry.name = photo.name
        entry.size = photo.status.size
        entry.modified = photo.status.modified
        entry.facts = photo.facts
        entry.factsVersion = Versions.facts
        if entry != saved {
            do {
                try cache.save(entry)
            } catch {
                return .stop(Self.stopping(error.description))
            }
        }
        return .withheld(photo, held, split)
    }

    /// Whether a photo of this rating is left out. A video beside a still of its name that has no rating of
    /// its own is not rated on its own: it goes where its still goes (`pairLivePhotos`).
    func withholds(_ rating: Int?, clip: Bool) -> Bool {
        !ratings.publishes(rating) && !(clip && rating == nil)
    }
}

extension ImageDeriver.Outcome {
    /// Keeps the images of a Live Photo's video that goes with its still, left out (counted with the still).
    mutating func keep(_ images: [DerivedFile]) {
        withheldImages += images.map(\.stored)
    }

    /// Counts a photo its rating leaves out, keeping its images in the cache.
    mutating func withhold(_ images: [DerivedFile]) {
        withheld += 1
        withheldImages += images.map(\.stored)
    }
}
