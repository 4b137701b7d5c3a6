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
        let base = configuration.tileWidth ?? Self.widestTile(configuration)
        tileWidths = Array(Set(configuration.densities.map { $0 * base })).sorted()
        viewSize = configuration.viewSize
        sizesAttribute = Self.sizes(configuration)
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
        derivations.append(Derivation(label: "view", role: .view,
                                      request: ThumbnailRequest(maxWidth: viewSize, maxHeight: viewSize, quality: quality,
                                                                maxPixels: maxPixels)))
        return derivations
    }
}

/// One derived image of one photo: where it goes (`images/LABEL/…`) and how it is made.
struct Derivation: Sendable, Equatable {
    enum Role: Sendable { case tile, view }

    var label: String
    var role: Role
    var request: ThumbnailRequest

    /// Everything that changes the output's bytes. A cached file made with another key is made again.
    var key: String {
        "\(Derivation.formatVersion)|\(request.maxWidth ?? 0)x\(request.maxHeight ?? 0)|q\(request.quality)|\(request.forcePNG)"
    }

    /// Bump when the derivation code changes its output for the same request.
    static let formatVersion = "derive-1"

    /// `images/500/coffee.jpg`.
    static func path(label: String, name: String, format: ImageFormat) -> String {
        "images/\(label)/" + fileName(name, format: format)
    }

    /// The photo's name, with `.jpg` or `.png` added when it does not already say the format.
    static func fileName(_ name: String, format: ImageFormat) -> String {
        let lower = name.lowercased()
        let matches = format == .jpeg ? lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") : lower.hasSuffix(".png")
        return name + (matches ? "" : format == .jpeg ? ".jpg" : ".png")
    }
}
