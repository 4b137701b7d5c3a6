/// How each format is encoded: the settings that change a derived image's bytes, besides its box.
struct EncoderSettings: Sendable, Equatable {
    var formats: [DeliveryFormat]
    var quality: Int
    var denseQuality: Int
    var webpQuality: Int
    var avifQuality: Int?
    var avifSpeed: Int
    var maxPixels: Int

    init(configuration: SiteConfiguration) {
        formats = configuration.formats
        quality = configuration.quality
        denseQuality = configuration.resolvedDenseQuality
        webpQuality = configuration.webpQuality
        avifQuality = configuration.avifQuality
        avifSpeed = configuration.avifSpeed
        maxPixels = configuration.maxPixels
    }

    /// `box` made in `format`.
    func request(_ box: ThumbnailRequest, in format: DeliveryFormat) -> ThumbnailRequest {
        var request = box
        request.encoding = format.encoding
        switch format {
        case .jpeg: request.quality = box.dense ? denseQuality : quality
        case .webp: request.quality = webpQuality
        case .avif:
            request.quality = avifQuality ?? Thumbnailer.matchedAVIFQuality(speed: avifSpeed)
            request.speed = avifSpeed
        }
        return request
    }
}
