extension PhotoMetadata {
    /// Each field from the first of `readings` that gives it, in `MetadataSource`'s order of precedence
    /// (their own order does not matter): the one place that order is applied.
    static func merged(_ readings: [PhotoMetadata]) -> PhotoMetadata {
        var result = PhotoMetadata()
        func first<Value>(_ field: KeyPath<PhotoMetadata, Sourced<Value>?>) -> Sourced<Value>? {
            readings.compactMap { $0[keyPath: field] }.min { $0.source < $1.source }
        }
        result.title = first(\.title)
        result.description = first(\.description)
        result.keywords = first(\.keywords)
        result.rating = first(\.rating)
        result.creator = first(\.creator)
        result.rights = first(\.rights)
        result.taken = first(\.taken)
        result.descriptionHTML = readings.first { $0.description != nil && $0.description == result.description }?.descriptionHTML
        return result
    }
}
