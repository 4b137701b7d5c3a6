/// What the pages and the publishing rules read of a photo's metadata.
extension Photo {
    /// Its keywords as its metadata lists them (`keywordPages`).
    var keywords: [String] { metadata.keywords?.value ?? [] }
}
