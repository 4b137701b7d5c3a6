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
        return PhotoPageInputs(
            path: published.page, label: labels[index], fileName: photo.fileName, caption: photo.caption,
            summary: photo.facts.summary, takenText: photo.facts.takenText,
            view: .init(path: view.path, width: view.width, height: view.height),
            viewSet: published.viewSet(in: .jpeg).map { .init(path: $0.path, width: $0.width) },
            sources: modernFormats.compactMap { format in
                let images = published.viewSet(in: format)
                guard !images.isEmpty, let type = format.mimeType else { return nil }
                return (type, images.map { .init(path: $0.path, width: $0.width) })
            },
            video: published.video.map { .init(path: $0.path, type: Self.mimeType($0), duration: photo.header.video?.durationText) },
            color: (view.averageColor ?? published.tiles[0].averageColor)?.hex,
            sketch: Self.viewSketch(published),
            original: configuration.originals == .none ? nil : published.original,
            previous: neighbour(index - 1), next: neighbour(index + 1),
            back: .init(path: Self.galleryPath(album: album.sitePath, page: galleryPage), title: album.title), backTile: tileIndex,
            trail: trail.map { .init(path: $0.path, title: $0.title) })
    }

    /// A still's sketch for its photo page (a video's page shows its poster's colour only).
    static func viewSketch(_ published: PublishedPhoto) -> Sketch? {
        published.video == nil ? published.tiles.first?.sketch : nil
    }

    /// The view's `sizes`: the widest the photo page's CSS makes it, the window's width less the page's
    /// margins, up to the image's own width (a window short for the photo makes it narrower: the image chosen
    /// is then wider than needed, never too narrow). Media conditions and `calc` only: the HTML checker
    /// refuses `min()` there.
    static func viewSizes(width: Int) -> String {
        "(min-width: \(width + 20)px) \(width)px, calc(100vw - 20px)"
    }

    /// The photo page, from its inputs alone.
    func photoPage(_ page: PhotoPageInputs) throws(BuildError) -> String {
        let path = page.path
        var context = common(page: path, title: page.label, trail: page.trail.map { ($0.title, $0.path) } + [(page.label, path)])
        let sizes = Self.viewSizes(width: page.view.width)
        let sources: [TemplateValue] = page.sources.map {
            ["type": .string($0.type), "srcset": .string(Self.srcset($0.images, from: path)), "sizes": .string(sizes)]
        }
        context["photo"] = [
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
        ]
        context["caption"] = page.caption.map { caption in
            ["title": .string(caption.title), "description": caption.description.map { .string($0) } ?? .null]
        } ?? .null
        context["exif"] = page.summary.map { .string($0) } ?? .null
        context["taken"] = page.takenText.map { .string($0) } ?? .null
        context["original"] = page.original.map { .string(SitePath.url(from: path, to: $0)) } ?? .null
        // Whether the figure has a caption to show (a description, EXIF facts, the date, the original's link).
        context["hasDetails"] = .bool(page.caption?.description != nil || page.summary != nil || page.takenText != nil
                                      || page.original != nil)
        func link(_ neighbour: PhotoPageInputs.Link?) -> TemplateValue {
            guard let neighbour else { return .null }
            return ["href": .string(SitePath.url(from: path, to: neighbour.path)), "title": .string(neighbour.title)]
        }
        context["previous"] = link(page.previous)
        context["next"] = link(page.next)
        context["back"] = [
            "href": .string(SitePath.url(from: path, to: page.back.path) + "#tile-\(page.backTile)"), "title": .string(page.back.title),
        ]
        context["share"] = share(page.trail.first?.title)?.value(page: path, title: page.label, description: page.caption?.description,
                                                                 image: page.view, imageAlt: page.label) ?? .null
        return try render("photo", context)
    }
}
