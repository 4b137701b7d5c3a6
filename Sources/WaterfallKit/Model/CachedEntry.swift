/// A cache entry held by reference: by the cache's table, and by the photo found unchanged (`Photo.cached`).
final class CachedEntry: Sendable {
    let entry: CacheEntry

    init(_ entry: CacheEntry) { self.entry = entry }
}
