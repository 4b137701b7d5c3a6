/// One entry of the `formats` setting: a format every tile and view image is made in. The list is in the
/// visitor's preference order; `jpeg` is always last and stands for the `<img>` fallback (JPEG, or PNG
/// where the photo has alpha); the others become `<picture>` `<source>`s.
public enum DeliveryFormat: String, Sendable, Equatable, CaseIterable {
    case avif
    case webp
    case jpeg

    /// What the encoder is asked for.
    var encoding: ThumbnailRequest.Encoding {
        switch self {
        case .avif: .avif
        case .webp: .webp
        case .jpeg: .automatic
        }
    }

    /// The longest side an image in this format may have: WebP's own limit, the side past which AVIF decoders
    /// refuse to decode by default (libavif's, which the browsers use), and JPEG's.
    var maximumSide: Int {
        switch self {
        case .webp: 16_383
        case .avif: 32_768
        case .jpeg: 65_500
        }
    }

    /// The longest side every fallback holds, JPEG's: a PNG (for images with transparency) holds more, but
    /// which of the two a still becomes is known only once it is decoded, so both are held to it.
    static var fallbackSide: Int { DeliveryFormat.jpeg.maximumSide }

    /// Its name in messages.
    var name: String {
        switch self {
        case .avif: "AVIF"
        case .webp: "WebP"
        case .jpeg: "JPEG"
        }
    }

    /// The `<source type>` of a modern format; nil for the fallback, which is the `<img>`.
    var mimeType: String? {
        switch self {
        case .avif: "image/avif"
        case .webp: "image/webp"
        case .jpeg: nil
        }
    }

    /// The default list. JPEG only until the default is chosen by measurement (bytes saved per second of
    /// build time, at equal SSIMULACRA2): see the README.
    public static let defaultList: [DeliveryFormat] = [.jpeg]

    /// The list these names make, or why they make none: a phrase that follows the setting's name
    /// (`'formats' lists 'webp' twice`); the caller adds the key and the file.
    static func list(_ names: [String]) -> Result<[DeliveryFormat], ListProblem> {
        var formats: [DeliveryFormat] = []
        for name in names {
            guard let format = DeliveryFormat(rawValue: name) else { return .failure(ListProblem("may list only 'avif', 'webp' and 'jpeg' (got '\(name)')")) }
            guard !formats.contains(format) else { return .failure(ListProblem("lists '\(name)' twice")) }
            formats.append(format)
        }
        guard formats.last == .jpeg else {
            return .failure(ListProblem("must end with 'jpeg' (the fallback every browser shows)", showsExample: true))
        }
        return .success(formats)
    }

    struct ListProblem: Error, Equatable {
        var message: String
        /// Whether an example list should follow, written as the setting was (a flag's or a file's).
        var showsExample = false
        init(_ message: String, showsExample: Bool = false) {
            self.message = message
            self.showsExample = showsExample
        }
    }
}
