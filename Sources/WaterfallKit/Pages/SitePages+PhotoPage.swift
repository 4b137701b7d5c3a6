/// A photo page: its inputs, gathered from the album, and the page rendered from them alone.
extension SitePages {
    /// What the photo page of `album.photos[index]` shows; `labels` are the album's photos' labels.
    func photoPageInputs(_ album: Album, index: Int, trail: [Crumb], labels: [String]) -> PhotoPageInputs {
        let published = album.photos[index]
        let photo = published.photo
        let view = published.view
        let galleryPage = index / configuration.perPage + 1
        let tileIndex = (galleryPage == 1 ? album.children.count { $0.cover != nil } : 0) + index % configuration.perPage
        func neighbour(_ other: Int) -> PhotoPageInputs.Link? {
            guard album.photos.indices.contains(other) else { return nil }
            return .init(path: album.photos[other].page, title: labels[other])
        }
        let original = configuration.originals == .none ? nil : Self.original(published)
        return PhotoPageInputs(
            path: published.page, label: labels[index], fileName: photo.fileName, caption: photo.caption,
            summary: photo.facts.summary, takenText: photo.metadata.taken?.value.text,
            view: .init(path: view.path, width: view.width, height: view.height),
            viewSet: published.viewSet(in: .jpeg).map { .init(path: $0.path, width: $0.width) },
            sources: viewSources(published),
            video: published.video.map { .init(path: $0.path, type: Self.mimeType($0), duration: photo.header.video?.durationText) },
            motion: published.motion.map { .init(path: $0.path, type: Self.mimeType($0), duration: nil) },
            color: Self.placeholder(photo, published.tiles[0], mean: view.averageColor ?? published.tiles[0].averageColor),
            sketch: Self.viewSketch(published),
            original: original, fullSize: Self.fullSize(published, original: original),
            previous: neighbour(index - 1), next: neighbour(index + 1),
            back: .init(path: Self.galleryPath(album: album.sitePath, page: galleryPage), title: album.title), backTile: tileIndex,
            trail: trail.map { .init(path: $0.path, title: $0.title) }, keywords: keywords?.links(for: photo) ?? [],
            ahead: [index + 1, index - 1].filter(album.photos.indices.contains).map { ahead(album.photos[$0]) })
    }

    /// What a tile or a view shows while its image loads: the image's mean colour, but nothing behind one that
    /// is see-through, where it would stay visible once the image is there. The header says whether it may
    /// be; a sketch, made only of opaque pixels, proves it is not (an RGBA screenshot keeps its colour).
    static func placeholder(_ photo: Photo, _ tile: DerivedFile, mean: AverageColor?) -> String? {
        photo.facts.seeThrough && tile.sketch == nil ? "transparent" : mean?.hex
    }

    /// A still's sketch for its photo page (a video's page shows its poster's colour only).
    static func viewSketch(_ published: PublishedPhoto) -> Sketch? {
        published.video == nil ? published.tiles.first?.sketch : nil
    }

    /// The view's images in the formats other than the fallback, the visitor's preference first.
    private func viewSources(_ published: PublishedPhoto) -> [(type: String, images: [GalleryPageInputs.Image])] {
        modernFormats.compactMap { format in
            let images = published.viewSet(in: format)
            guard !images.isEmpty, let type = format.mimeType else { return nil }
            return (type, images.map { .init(path: $0.path, width: $0.width) })
        }
    }

    /// A neighbour's view as its page takes it: a video's page shows its view image alone, as the poster.
    private func ahead(_ published: PublishedPhoto) -> PhotoPageInputs.Ahead {
        let view = published.view
        guard published.video == nil else { return .init(width: view.width, viewSet: [.init(path: view.path, width: view.width)], sources: []) }
        return .init(width: view.width, viewSet: published.viewSet(in: .jpeg).map { .init(path: $0.path, width: $0.width) },
                     sources: viewSources(published))
    }

    private static func original(_ published: PublishedPhoto) -> PhotoPageInputs.Original {
        let name = published.original
        let dot = name.lastIndex(of: ".").map { name.index(after: $0) }
        let kind = dot.map { String(name[$0...]).uppercased() }.flatMap { $0.isEmpty || $0.contains("/") ? nil : $0 }
        return .init(path: name, bytes: Int(published.photo.status.size), kind: kind ?? "file")
    }

    /// The full-size image when there is one (`zoomSize`), else the original, when browsers show its format and
    /// it is larger than the view; never a video's.
    private static func fullSize(_ published: PublishedPhoto, original: PhotoPageInputs.Original?) -> PhotoPageInputs.Image? {
        guard published.video == nil else { return nil }
        if let zoom = published.zoom { return .init(path: zoom.path, width: zoom.width, height: zoom.height) }
        guard let original else { return nil }
        let header = published.photo.header
        let shown: Set<ImageFormat> = [.jpeg, .png, .webp, .gif, .avif]
        guard shown.contains(header.format),
              header.width > published.view.width || header.height > published.view.height else { return nil }
        return .init(path: original.path, width: header.width, height: header.height)
    }

    /// The view's `sizes`: the widest the photo page's CSS makes it: the whole width on a phone (up to
    /// 40em), else the window's width less the page's margins; up to the image's own width. A window short
    /// for the photo makes it narrower: the image chosen is then wider than needed, never too narrow. Media
    /// conditions and `calc` only: the HTML checker refuses `min()` there.
    static func viewSizes(width: Int) -> String {
        "(min-width: \(width + 20)px) \(width)px, (max-width: 40em) 100vw, calc(100vw - 20px)"
    }

    /// The photo page, from its inputs alone.
    func photoPage(_ page: PhotoPageInputs) throws(BuildError) -> String {
        let path = page.path
        var context = common(page: path, title: page.label, trail: page.trail.map { ($0.title, $0.path) } + [(page.label, path)])
        context["photo"] = photoValue(page)
        context["caption"] = page.caption.map { caption in
            ["title": .string(caption.title), "description": caption.description.map { .string($0) } ?? .null,
             "descriptionHTML": caption.descriptionHTML.map { .string($0) } ?? .null]
        } ?? .null
        context["exif"] = page.summary.map { .string($0) } ?? .null
        context["taken"] = page.takenText.map { .string($0) } ?? .null
        context["original"] = page.original.map { original in
            ["href": .string(SitePath.url(from: path, to: original.path)), "size": .string(ByteCount.size(original.bytes)),
             "format": .string(original.kind)]
        } ?? .null
        context["fullSize"] = page.fullSize.map { image in
            ["href": .string(SitePath.url(from: path, to: image.path)), "width": .int(image.width), "height": .int(image.height)]
        } ?? .null
        context["hasActions"] = .bool(page.original != nil || page.fullSize != nil)
        context["keywords"] = .list(page.keywords.map { ["href": .string(SitePath.url(from: path, to: $0.path)), "title": .string($0.title)] })
        context["hasKeywords"] = .bool(!page.keywords.isEmpty)
        // Whether the figure has a caption to show (a description, EXIF facts, the date, keywords, the downloads).
        context["hasDetails"] = .bool(page.caption?.description != nil || page.summary != nil || page.takenText != nil
                                      || !page.keywords.isEmpty || page.original != nil || page.fullSize != nil)
        func link(_ neighbour: PhotoPageInputs.Link?) -> TemplateValue {
            guard let neighbour else { return .null }
            return ["href": .string(SitePath.url(from: path, to: neighbour.path)), "title": .string(neighbour.title)]
        }
        context["previous"] = link(page.previous)
        context["next"] = link(page.next)
        context["back"] = [
            "href": .string(SitePath.url(from: path, to: page.back.path) + "#tile-\(page.backTile)"), "title": .string(page.back.title),
        ]
        context["ahead"] = .list(page.ahead.map { aheadValue($0, from: path) })
        context["speculation"] = Self.speculation([page.next, page.previous].compactMap { $0 }.map { SitePath.url(from: path, to: $0.path) })
        context["share"] = share(page.trail.first?.title)?.value(page: path, title: page.label, description: page.caption?.description,
                                                                 image: page.view, imageAlt: page.label) ?? .null
        return try render("photo", context)
    }

    private func photoValue(_ page: PhotoPageInputs) -> TemplateValue {
        let path = page.path
        let sizes = Self.viewSizes(width: page.view.width)
        let sources = Self.sourceValues(page.sources, sizes: sizes, from: path)
        return [
            "picture": .bool(!sources.isEmpty),
            "sources": .list(sources),
            "src": .string(SitePath.url(from: path, to: page.view.path)),
            "srcset": .string(Self.srcset(page.viewSet, from: path)),
            "sizes": .string(sizes),
            "width": .int(page.view.width),
            "height": .int(page.view.height),
            "alt": .string(page.label),
            "name": .string(page.fileName),
            "color": page.color.map { .string($0) } ?? .null,
            "sketch": page.sketch.map { .string($0.dataURL) } ?? .null,
            // The theme plays the video in the view's place, its view image the poster (a theme that does not
            // know videos shows the poster).
            "video": page.video.map { video -> TemplateValue in
                ["file": .string(SitePath.url(from: path, to: video.path)), "mimeType": .string(video.type),
                 "duration": video.duration.map { .string($0) } ?? .null]
            } ?? .null,
            // A Live Photo's video, played over the still on demand (a theme that does not know it shows the still).
            "motion": page.motion.map { motion -> TemplateValue in
                ["file": .string(SitePath.url(from: path, to: motion.path)), "mimeType": .string(motion.type)]
            } ?? .null,
        ]
    }

    /// A view's `<source>`s, one per format, each with the view's `sizes`.
    private static func sourceValues(_ sources: [(type: String, images: [GalleryPageInputs.Image])], sizes: String,
                                     from path: String) -> [TemplateValue] {
        sources.map { ["type": .string($0.type), "srcset": .string(srcset($0.images, from: path)), "sizes": .string(sizes)] }
    }

    /// A neighbour's view as its page asks for it (the same `srcset` and `sizes`), so the image fetched
    /// ahead is the one that page takes.
    private func aheadValue(_ ahead: PhotoPageInputs.Ahead, from path: String) -> TemplateValue {
        let sizes = Self.viewSizes(width: ahead.width)
        let sources = Self.sourceValues(ahead.sources, sizes: sizes, from: path)
        return [
            "picture": .bool(!sources.isEmpty), "sources": .list(sources), "sizes": .string(sizes),
            "src": .string(SitePath.url(from: path, to: ahead.viewSet.last?.path ?? "")),
            "srcset": .string(Self.srcset(ahead.viewSet, from: path)),
        ]
    }

    /// The speculation rules' list of URLs (the neighbours' pages, prerendered where the browser can), as
    /// JSON that cannot end the script element: `<`, `>` and `&`, which JSON's structure never uses, are
    /// written `\u003c` and so on. Nil without neighbours.
    static func speculation(_ urls: [String]) -> TemplateValue {
        guard !urls.isEmpty else { return .null }
        var json = JSONValue.array(urls.map { .string($0) }).rendered()
        for (character, escaped) in [("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")] {
            json = json.replacingOccurrences(of: character, with: escaped)
        }
        return .string(json)
    }
}
