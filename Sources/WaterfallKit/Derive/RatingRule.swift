/// Which photos their rating publishes (`minRating`, `publishRejected`): decided from their metadata before
/// their images are made, so a rejected photo costs no decode. A photo left out keeps its cache entry and
/// any images it has, so a change of mind (a sidecar's rating, a setting) brings it back without making them
/// again. Left out on purpose, it is not a skipped file: `--strict` says nothing of it.
struct RatingRule: Sendable, Equatable {
    var minRating: Int?
    var publishRejected: Bool

    init(minRating: Int? = nil, publishRejected: Bool = false) {
        self.minRating = minRating
        self.publishRejected = publishRejected
    }

    init(configuration: SiteConfiguration) {
        self.init(minRating: configuration.minRating, publishRejected: configuration.publishRejected)
    }

    /// Whether a photo of this rating (nil: unrated, as 0) is published.
    func publishes(_ rating: Int?) -> Bool {
        let rating = rating ?? 0
        if let minRating { return rating >= minRating }
        return rating != -1 || publishRejected
    }

    /// The one line that says how many photos were left out, nil for none.
    func report(leftOut count: Int) -> String? {
        guard count > 0 else { return nil }
        let photos = count == 1 ? "1 photo" : "\(count) photos"
        if let minRating { return "\(photos) rated under \(minRating) not published (minRating)" }
        return "\(photos) rated -1 (rejected) not published (publishRejected publishes them)"
    }
}
