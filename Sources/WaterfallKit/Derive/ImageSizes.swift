/// The derived images a gallery needs: tile images at the widths of the layout's ladder (or at each density of
/// a `tileWidth` the configuration names), and a view image a tile links to. Also the `sizes` attribute that tells the browser which tile image
/// fits, band by band.
struct ImageSizes: Sendable, Equatable {
    /// Widths of the tile images, smallest first.
    let tileWidths: [Int]
    /// Tile images wider than this are taken only by screens denser than 1× (or 1× boards wider than
    /// `SiteConfiguration.widestBoard`), whose smaller pixels hide more of a JPEG's loss: they are made at
    /// `denseQuality`.
    let denseAbove: Int
    /// Long edge of the view image.
    let viewSize: Int
    /// Long edge of the full-size image of a photo larger than its view; 0: none.
    let zoomSize: Int
    /// The `<img sizes>` attribute: each band's tile width as a function of the viewport.
    let sizesAttribute: String

    init(configuration: SiteConfiguration) {
        if let base = configuration.tileWidth {
            tileWidths = Array(Set(configuration.densities.map { $0 * base })).sorted()
            denseAbove = configuration.densities.contains(1) ? base : 0
        } else {
            let widths = TileWidthLadder(configuration).widths
            tileWidths = widths
            let widestSingle = TileWidthLadder.widestSingleDensityNeed(configuration)
            denseAbove = widestSingle.map { need in widths.first { Double($0) >= need } ?? Int.max } ?? 0
        }
        viewSize = configuration.viewSize
        zoomSize = configuration.zoomSize
        sizesAttribute = Self.sizes(configuration)
    }

    /// `(min-width: 1420px) calc((100vw - 60px) / 5), …, calc((100vw - 30px) / 2)`: the viewport stands in
    /// for the board, which spans it less any classic scroll bar. So a band's condition starts a scroll bar's
    /// width above the band: at viewports where the board may still be in the band below, the browser is told
    /// that band's wider tile, and takes an image too wide rather than too narrow.
    static func sizes(_ configuration: SiteConfiguration) -> String {
        let bands = configuration.layoutBands
        var parts: [String] = []
        for (position, band) in bands.enumerated().reversed() {
            let c = band.configuration(basedOn: configuration.layoutConfiguration)
            let gutters = c.edgeInsets.left + c.edgeInsets.right + Double(c.columnCount - 1) * c.columnSpacing
            let width = "calc((100vw - \(DecimalText.format(gutters, decimals: 2))px) / \(c.columnCount))"
            let start = DecimalText.format(band.minimumWidth + scrollBarAllowance, decimals: 2)
            parts.append(position == 0 ? width : "(min-width: \(start)px) \(width)")
        }
        return parts.joined(separator: ", ")
    }

    /// What to make from one photo: each tile width and the view size, clamped to the photo (never
    /// upscaled), without two files of the same size, each in every format of `encoders` (the fallback
    /// first within a size, so that a partial remake re-encodes the cheapest one of the largest size).
    /// A modern format can hold none of an image larger than it allows: that format is left out for the photo
    /// (its `<source>` with it), and the `<img>` fallback is made as ever.
    func derivations(for header: ImageHeader, encoders: EncoderSettings, video: VideoSettings? = nil,
                     originals: SiteConfiguration.OriginalsPolicy = .none) -> [Derivation] {
        let omitted = Set(omissions(for: header, encoders: encoders).map(\.format))
        var derivations: [Derivation] = []
        for box in boxes(for: header, encoders: encoders) {
            // An animated view, and the full-size image (one file, opened on its own), in the fallback only.
            let fallbackOnly = box.request.animate || box.role == .zoom
            for format in encoders.formats.reversed() where (format == .jpeg || !fallbackOnly) && !omitted.contains(format) {
                derivations.append(Derivation(size: box.size, format: format, role: box.role,
                                              request: encoders.request(box.request, in: format)))
            }
        }
        // All of a photo's images come from one decode: the largest is resampled from the decoder, the others
        // from it (wf_derive_set; an animated view is made apart). So the others' bytes depend on the
        // largest's box too: it is in their key.
        let areas = derivations.map { $0.request.animate ? -1 : $0.fittedSize(display: header).area }
        let primary = derivations[areas.firstIndex(of: areas.max()!)!].geometryKey
        for index in derivations.indices where derivations[index].geometryKey != primary {
            derivations[index].madeFrom = primary
        }
        // A video's images are made from its poster frame, and the video itself is published beside them.
        if let facts = header.video, let video {
            for index in derivations.indices { derivations[index].poster = video.posterKey }
            var published = Derivation(size: "video", format: .jpeg, role: .video, request: ThumbnailRequest())
            published.video = VideoRequest(for: facts, maxEdge: video.maxEdge, ffmpeg: video.ffmpegVersion)
            derivations.append(published)
            // Made instead when the video is a Live Photo's clip that is not H.264 (`needed(_:motion:)`).
            let live = VideoRequest(for: facts, live: true, maxEdge: min(viewSize, video.maxEdge), ffmpeg: video.ffmpegVersion)
            if live.mode == .live {
                published.video = live
                derivations.append(published)
            }
        }
        // The original, when it is published: taken into the store from the one open of the photo it is.
        if originals != .none {
            var original = Derivation(size: "original", format: .jpeg, role: .original, request: ThumbnailRequest())
            original.original = originals
            derivations.append(original)
        }
        return derivations
    }

    /// The boxes a photo's images fit: each tile width clamped to the photo (never upscaled), without two of
    /// the same size, the view, and the full-size image when asked for. Every box also fits the fallback, which
    /// must be made: a tile of a photo so tall that its width would make it more than
    /// `DeliveryFormat.fallbackSide` tall is that tall and narrower (a 1080×80000 scroll capture's 1000-px tile
    /// is 884×65500; its `srcset` says 884w). Only such a photo's boxes get a height, so every other image keeps
    /// its key. (The view and the full-size image are at most `SettingLimits.widestImage` a side: they fit.)
    private func boxes(for header: ImageHeader, encoders: EncoderSettings) -> [(size: String, role: Derivation.Role, request: ThumbnailRequest)] {
        var boxes: [(size: String, role: Derivation.Role, request: ThumbnailRequest)] = []
        var seenWidths = Set<Int>()
        for width in tileWidths {
            var request = ThumbnailRequest(maxWidth: width, maxPixels: encoders.maxPixels)
            request.dense = width > denseAbove
            let side = DeliveryFormat.fallbackSide
            if Self.fitted(request, header).height > side { request.maxHeight = side }
            guard seenWidths.insert(Self.fitted(request, header).width).inserted else { continue }
            boxes.append((String(width), .tile, request))
        }
        // The view of an animation stays an animation (an animated WebP, whatever the format asked); tiles
        // show its first frame. So an animated view is made once, as the fallback, and fits WebP's sides.
        let side = header.isAnimated ? min(viewSize, DeliveryFormat.webp.maximumSide) : viewSize
        var view = ThumbnailRequest(maxWidth: side, maxHeight: side, maxPixels: encoders.maxPixels)
        view.animate = header.isAnimated
        boxes.append(("view", .view, view))
        // The full-size image, for a still larger than its view.
        if zoomSize > viewSize && !header.isAnimated && header.video == nil && max(header.width, header.height) > viewSize {
            boxes.append(("zoom", .zoom, ThumbnailRequest(maxWidth: zoomSize, maxHeight: zoomSize, maxPixels: encoders.maxPixels)))
        }
        return boxes
    }

    private static func fitted(_ request: ThumbnailRequest, _ header: ImageHeader) -> (width: Int, height: Int, area: Int) {
        Derivation(size: "", format: .jpeg, role: .tile, request: request).fittedSize(display: header)
    }

    /// The widest classic scroll bar (Windows: 17 px) and a little.
    static let scrollBarAllowance = 20.0

    /// The modern formats of `encoders` that cannot hold one of this photo's images (a 1080×20000 screenshot's
    /// 1000-px tile is 18519 px tall: too tall for WebP), each with the largest such image's size.
    func omissions(for header: ImageHeader, encoders: EncoderSettings) -> [(format: DeliveryFormat, width: Int, height: Int)] {
        // (An animation's view is made as the fallback only.)
        let sizes = boxes(for: header, encoders: encoders).filter { !$0.request.animate }.map { box in
            Derivation(size: box.size, format: .jpeg, role: box.role, request: box.request).fittedSize(display: header)
        }
        return encoders.formats.filter { $0 != .jpeg }.compactMap { format in
            let over = sizes.filter { max($0.width, $0.height) > format.maximumSide }
            guard let largest = over.max(by: { max($0.width, $0.height) < max($1.width, $1.height) }) else { return nil }
            return (format, largest.width, largest.height)
        }
    }

    /// What a build says of a photo some of whose formats are left out; nil when none is.
    func omissionWarning(for header: ImageHeader, encoders: EncoderSettings) -> String? {
        let omitted = omissions(for: header, encoders: encoders)
        guard !omitted.isEmpty else { return nil }
        let names = omitted.map { $0.format.name }.joined(separator: " and ")
        let sizes = omitted.map { "a \($0.width)×\($0.height) image is too large for \($0.format.name), which holds \($0.format.maximumSide) pixels a side" }
        return "its \(names) images are left out (\(sizes.joined(separator: "; "))); the JPEG or PNG fallback is published"
    }
}
