/// What the cache knows of one photo (`BuildCache`): the file as it was read, its header and facts, and
/// its derived images.
struct CacheEntry: Sendable, Equatable {
    var name: String
    var size: Int
    var modified: Int
    var content: String
    var header: ImageHeader
    var facts = PhotoFacts()
    /// The `Versions.facts` its facts were read under: facts of another are read again (its images kept).
    var factsVersion = Versions.facts
    var derived = DerivedImages()
}
