/// What the pages and the publishing rules read of a photo's metadata.
extension Photo {
    /// Its keywords as its metadata lists them (`keywordPages`).
    var keywords: [String] { metadata.keywords?.value ?? [] }

    /// Its rating, -1 (rejected) to 5; nil when no source gives one (unrated, as 0).
    var rating: Int? { metadata.rating?.value }
}
