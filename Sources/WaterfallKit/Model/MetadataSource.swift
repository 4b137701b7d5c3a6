/// Where a piece of a photo's metadata came from. The cases are in the order of precedence, the first
/// winning: for each field separately, the earliest source that gives it (docs/metadata.md).
enum MetadataSource: String, CaseIterable, Comparable, Sendable {
    /// Waterfall's own `NAME.txt` sidecar.
    case text
    /// sigal's `NAME.md` sidecar.
    case sigal
    /// An XMP sidecar (`IMG_1.jpg.xmp`, `IMG_1.xmp`), as darktable and Lightroom write them.
    case xmpSidecar = "xmp-sidecar"
    /// The XMP packet inside the photo.
    case xmp
    /// IPTC IIM (JPEG APP13, TIFF).
    case iptc
    /// EXIF (and PNG's text chunks, which take its place in a PNG).
    case exif
    /// A video's container (its `creation_time`).
    case container
    /// A Google Takeout JSON sidecar: for what the photo itself lacks.
    case takeout

    static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// How `inspect` names it.
    var label: String {
        switch self {
        case .text: "NAME.txt"
        case .sigal: "NAME.md"
        case .xmpSidecar: "XMP sidecar"
        case .xmp: "XMP"
        case .iptc: "IPTC"
        case .exif: "EXIF"
        case .container: "video container"
        case .takeout: "Takeout JSON"
        }
    }
}
