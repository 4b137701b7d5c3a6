/// One derived image in the site: `path` there (given by `SiteNames`), `stored` in the cache's image
/// store (the site gets a hard link to it, or a copy) with its content `hash`; `made` when this build
/// decoded it.
struct DerivedFile: Sendable, Equatable {
    var label: String
    /// The size's name and folder (`Derivation.size`), and the entry of `formats` it was made for.
    var size: String
    var delivery: DeliveryFormat
    var role: Derivation.Role
    var key: String
    var path: String
    var width: Int
    var height: Int
    var format: ImageFormat
    /// The file's name in the cache's `images/` folder.
    var stored: String
    var hash: ContentDigest?
    var made: Bool
    /// Its mean colour (stills), shown while it loads.
    var averageColor: AverageColor? = nil
    /// Its sketch (an opaque still's smallest image), shown inline on the first screen while it loads.
    var sketch: Sketch? = nil
}
