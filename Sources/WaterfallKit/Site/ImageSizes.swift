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
            for format in encoders.formats.reversed() where (format == .jpeg || !box.request.animate) && !omitted.contains(format) {
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
    /// the same size, and the view.
    private func boxes(for header: ImageHeader, encoders: EncoderSettings) -> [(size: String, role: Derivation.Role, request: ThumbnailRequest)] {
        var boxes: [(size: String, role: Derivation.Role, request: ThumbnailRequest)] = []
        var seenWidths = Set<Int>()
        for width in tileWidths {
            let effective = min(width, header.width)
            guard seenWidths.insert(effective).inserted else { continue }
            var request = ThumbnailRequest(maxWidth: width, maxPixels: encoders.maxPixels)
            request.dense = width > denseAbove
            boxes.append((String(width), .tile, request))
        }
        // The view of an animation stays an animation (an animated WebP, whatever the format asked); tiles
        // show its first frame. So an animated view is made once, as the fallback.
        var view = ThumbnailRequest(maxWidth: viewSize, maxHeight: viewSize, maxPixels: encoders.maxPixels)
        view.animate = header.isAnimated
        boxes.append(("view", .view, view))
        return boxes
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

/// One derived image of one photo: where it goes (`images/SIZE/…`) and how it is made.
struct Derivation: Sendable, Equatable {
    enum Role: Sendable { case tile, view, video, original }

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

    /// A tile or the view: an image made from the photo's pixels (not the video or original published as is).
    var isImage: Bool { role == .tile || role == .view }

    /// Its name in the cache entry: the size for the fallback ("500", "view", as before there were other
    /// formats), the size and the format for the others ("500.avif").
    var label: String { Self.label(size: size, format: format) }

    static func label(size: String, format: DeliveryFormat) -> String {
        format == .jpeg ? size : size + "." + format.rawValue
    }

    /// Everything that changes the output's bytes. A cached file made with another key is made again.
    var key: String {
        if let video { return video.key }
        if let original { return "original-1|\(original.rawValue)" }
        return ownKey + (madeFrom.map { " from " + $0 } ?? "") + (poster.map { " of " + $0 } ?? "")
    }

    /// The box: what the pixels are resampled to, whatever they are encoded as.
    var geometryKey: String {
        "\(Derivation.formatVersion)|\(request.maxWidth ?? 0)x\(request.maxHeight ?? 0)" + (request.animate ? "|animated" : "")
    }

    /// The box and the encoder's settings (only those the format uses).
    var ownKey: String {
        switch request.encoding {
        case .automatic: geometryKey + "|q\(request.quality)|\(request.forcePNG)"
        case .webp: geometryKey + "|webp|q\(request.quality)"
        case .avif: geometryKey + "|avif3|q\(request.quality)|s\(request.speed)"
        }
    }

    /// Bump when the derivation code changes its output for the same request, or the key's shape changes
    /// (one format's encoder alone: its own tag in `ownKey`; avif3: 8 bits and quantisation matrices from
    /// speed 9, as avif_support.h sets them).
    /// 3: the mean colour is recorded with each image; 4: formats (a set's images are made from its largest
    /// box, whatever its encoder: `madeFrom` names that box only); 5: opaque images resampled in fixed point
    /// (within one level of the float filter's bytes); 6: a JPEG that is its own view image is copied
    /// losslessly where that costs no bytes (jpeg_copy.c); 7: the common AVIF decoded by libavif (avif_decode.c);
    /// 8: a YCbCr JPEG made into JPEGs stays in its Y, Cb and Cr planes (raster.c); 9: so does an AVIF stored
    /// as JPEG's YCbCr, and an alpha channel that is all 255 is filtered as RGB in fixed point; 10: one mean
    /// colour per set, from its smallest image, Lanczos weights by rotation (within a float's rounding), and RGB from
    /// every other decoder split into Y, Cb and Cr planes as it arrives when the set is all JPEG (ycc_split.c),
    /// and a size made from the size before it where that is about twice as large (the 500-px tile from the 1000);
    /// 11: the smallest image of an opaque still carries its sketch.
    static let formatVersion = "derive-11"

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
