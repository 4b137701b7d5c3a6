/// One derived image of one photo: where it goes (`images/SIZE/…`) and how it is made.
struct Derivation: Sendable, Equatable {
    /// A tile image, the view, the full-size image (`zoomSize`), a video, an original.
    enum Role: Sendable { case tile, view, zoom, video, original }

    /// The size's name and folder: the 1× tile width ("500"), or "view".
    var size: String
    var format: DeliveryFormat
    var role: Role
    var request: ThumbnailRequest
    /// The key of the larger image of the same set this one is resampled from; nil for the largest.
    var madeFrom: String?
    /// A video's image: the poster frame's key (`VideoSettings.posterKey`), what the pixels come from.
    var poster: String?
    /// The published video (role `video`): how it is made.
    var video: VideoRequest?
    /// The published original (role `original`): linked or copied.
    var original: SiteConfiguration.OriginalsPolicy?

    /// A tile, the view or the full-size image: made from the photo's pixels (not the video or original
    /// published as is).
    var isImage: Bool { role == .tile || role == .view || role == .zoom }

    /// Its name in the cache entry: the size for the fallback ("500", "view", as before there were other
    /// formats), the size and the format for the others ("500.avif").
    var label: String { Self.label(size: size, format: format) }

    static func label(size: String, format: DeliveryFormat) -> String {
        format == .jpeg ? size : size + "." + format.rawValue
    }

    /// Everything that changes the output's bytes. A cached file made with another key is made again.
    var key: String {
        if let video { return video.key }
        if let original { return "\(Versions.original)|\(original.rawValue)" }
        return ownKey + (madeFrom.map { " from " + $0 } ?? "") + (poster.map { " of " + $0 } ?? "")
    }

    /// The box: what the pixels are resampled to, whatever they are encoded as.
    var geometryKey: String {
        "\(Versions.derive)|\(request.maxWidth ?? 0)x\(request.maxHeight ?? 0)" + (request.animate ? "|animated" : "")
    }

    /// The box and the encoder's settings (only those the format uses).
    var ownKey: String {
        switch request.encoding {
        case .automatic: geometryKey + "|q\(request.quality)|\(request.forcePNG)"
        case .webp: geometryKey + "|\(Versions.webpEncoder)|q\(request.quality)"
        case .avif: geometryKey + "|\(Versions.avifEncoder)|q\(request.quality)|s\(request.speed)"
        }
    }

    /// The output size for a photo of this display size: fits the box, never larger (as wf_derive's fit).
    func fittedSize(display header: ImageHeader) -> (width: Int, height: Int, area: Int) {
        let width = header.width, height = header.height
        var widthLimits = request.maxWidth.map { $0 < width } ?? false
        var heightLimits = request.maxHeight.map { $0 < height } ?? false
        if widthLimits && heightLimits {
            if request.maxWidth! * height <= request.maxHeight! * width { heightLimits = false } else { widthLimits = false }
        }
        if widthLimits {
            let scaled = max(1, (height * request.maxWidth! + width / 2) / width)
            return (request.maxWidth!, scaled, request.maxWidth! * scaled)
        }
        if heightLimits {
            let scaled = max(1, (width * request.maxHeight! + height / 2) / height)
            return (scaled, request.maxHeight!, scaled * request.maxHeight!)
        }
        return (width, height, width * height)
    }

    /// `images/500/coffee.jpg`.
    static func path(label: String, name: String, format: ImageFormat) -> String {
        "images/\(label)/" + fileName(name, format: format)
    }

    /// The photo's name, with `.jpg`, `.png` or `.webp` added when it does not already say the format.
    static func fileName(_ name: String, format: ImageFormat) -> String {
        format.isNamed(by: name) ? name : name + format.fileExtension
    }
}
