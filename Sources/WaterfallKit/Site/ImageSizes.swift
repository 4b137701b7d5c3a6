/// The derived images a gallery needs: tile images at each density of the widest tile the bands produce,
/// and a view image a tile links to. Also the `sizes` attribute that tells the browser which tile image
/// fits, band by band.
struct ImageSizes: Sendable, Equatable {
    /// Widths of the tile images, smallest first (1×, 2×, …).
    let tileWidths: [Int]
    /// Long edge of the view image.
    let viewSize: Int
    /// The `<img sizes>` attribute: each band's tile width as a function of the viewport.
    let sizesAttribute: String

    init(configuration: SiteConfiguration) {
        let base = configuration.tileWidth ?? Self.automaticTileWidth(configuration)
        tileWidths = Array(Set(configuration.densities.map { $0 * base })).sorted()
        viewSize = configuration.viewSize
        sizesAttribute = Self.sizes(configuration)
    }

    /// The 1× tile width when the configuration names none: the widest tile, but never so wide that a
    /// density makes an image wider than `SettingLimits.widestImage` (a band may start at 100,000 px).
    static func automaticTileWidth(_ configuration: SiteConfiguration) -> Int {
        min(widestTile(configuration), SettingLimits.widestImage / max(1, configuration.densities.max() ?? 1))
    }

    /// The widest tile any band lays out, up to `SiteConfiguration.widestBoard`, rounded up to 10 px.
    static func widestTile(_ configuration: SiteConfiguration) -> Int {
        let bands = configuration.layoutBands
        var widest = 0.0
        for (position, band) in bands.enumerated() {
            let edge = position + 1 < bands.count ? bands[position + 1].minimumWidth : SiteConfiguration.widestBoard
            let bandConfiguration = band.configuration(basedOn: configuration.layoutConfiguration)
            widest = max(widest, bandConfiguration.itemWidth(forContainerWidth: max(edge, band.minimumWidth)))
        }
        return max(10, Int((widest / 10).rounded(.up)) * 10)
    }

    /// `(min-width: 1400px) calc((100vw - 60px) / 5), …, calc((100vw - 30px) / 2)`: the viewport stands in
    /// for the board, which spans it.
    static func sizes(_ configuration: SiteConfiguration) -> String {
        let bands = configuration.layoutBands
        var parts: [String] = []
        for (position, band) in bands.enumerated().reversed() {
            let c = band.configuration(basedOn: configuration.layoutConfiguration)
            let gutters = c.edgeInsets.left + c.edgeInsets.right + Double(c.columnCount - 1) * c.columnSpacing
            let width = "calc((100vw - \(DecimalText.format(gutters, decimals: 2))px) / \(c.columnCount))"
            parts.append(position == 0 ? width : "(min-width: \(DecimalText.format(band.minimumWidth, decimals: 2))px) \(width)")
        }
        return parts.joined(separator: ", ")
    }

    /// What to make from one photo: each tile width and the view size, clamped to the photo (never
    /// upscaled), without two files of the same size.
    func derivations(for header: ImageHeader, quality: Int, maxPixels: Int) -> [Derivation] {
        var derivations: [Derivation] = []
        var seenWidths = Set<Int>()
        for width in tileWidths {
            let effective = min(width, header.width)
            guard seenWidths.insert(effective).inserted else { continue }
            derivations.append(Derivation(label: String(width), role: .tile,
                                          request: ThumbnailRequest(maxWidth: width, quality: quality, maxPixels: maxPixels)))
        }
        // The view of an animation stays an animation (an animated WebP); tiles show its first frame.
        var view = ThumbnailRequest(maxWidth: viewSize, maxHeight: viewSize, quality: quality, maxPixels: maxPixels)
        view.animate = header.isAnimated
        derivations.append(Derivation(label: "view", role: .view, request: view))
        // All of a photo's images come from one decode: the largest is resampled from the decoder, the others
        // from it (wf_derive_set). So the others' bytes depend on the largest's box too: it is in their key.
        let areas = derivations.map { $0.fittedSize(display: header).area }
        let primary = areas.firstIndex(of: areas.max()!)!
        for index in derivations.indices where index != primary {
            derivations[index].madeFrom = derivations[primary].ownKey
        }
        return derivations
    }
}

/// One derived image of one photo: where it goes (`images/LABEL/…`) and how it is made.
struct Derivation: Sendable, Equatable {
    enum Role: Sendable { case tile, view }

    var label: String
    var role: Role
    var request: ThumbnailRequest
    /// The key of the larger image of the same set this one is resampled from; nil for the largest.
    var madeFrom: String?

    /// Everything that changes the output's bytes. A cached file made with another key is made again.
    var key: String { ownKey + (madeFrom.map { " from " + $0 } ?? "") }

    var ownKey: String {
        "\(Derivation.formatVersion)|\(request.maxWidth ?? 0)x\(request.maxHeight ?? 0)|q\(request.quality)|\(request.forcePNG)"
            + (request.animate ? "|animated" : "")
    }

    /// Bump when the derivation code changes its output for the same request.
    static let formatVersion = "derive-3"  // 3: the mean colour is recorded with each image

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
