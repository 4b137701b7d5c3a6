/// The gallery page: the photos laid out in every band, and the context the theme's `page.mustache` sees.
struct GalleryPage {
    var title: String
    var configuration: SiteConfiguration
    var sizes: ImageSizes

    func render(_ photos: [PublishedPhoto], with templates: TemplateLibrary) throws(BuildError) -> String {
        let board: BoardStyle
        do {
            let displaySizes = photos.map { Size(width: Double($0.photo.header.width), height: Double($0.photo.header.height)) }
            let items = try SizedItems(displaySizes: displaySizes)
            let layout = try ResponsiveLayout(bands: configuration.layoutBands,
                                              configuration: configuration.layoutConfiguration, items: items)
            board = BoardStyle(layout: layout, aspectRatios: items.aspectRatios, footerHeight: configuration.footerHeight)
        } catch {
            throw BuildError("layout: \(error)")
        }
        let tiles = photos.enumerated().map { index, published in
            tile(published, index: index, style: board.tileStyles[index], eager: board.firstScreen[index])
        }
        let count = photos.count
        let context: TemplateValue = [
            "language": "en",
            "generator": .string("Waterfall \(WaterfallCLI.version)"),
            "title": .string(title),
            "description": configuration.description.map { .string($0) } ?? .null,
            "assets": "assets/",
            "layoutCSS": .string(board.css),
            "tiles": .list(tiles),
            "photoCount": .int(count),
            "photoCountText": .string(count == 0 ? "No photos" : count == 1 ? "1 photo" : "\(count) photos"),
            "footerText": .string(configuration.footerText),
        ]
        do {
            return try templates.render(name: "page", value: context)
        } catch {
            throw BuildError("\(error)")
        }
    }

    private func tile(_ published: PublishedPhoto, index: Int, style: String, eager: Bool) -> TemplateValue {
        let photo = published.photo
        let tiles = published.tiles
        let srcset = tiles.map { "\(URLPath.encode(path: $0.path)) \($0.width)w" }.joined(separator: ", ")
        return [
            "index": .int(index),
            "href": .string(URLPath.encode(path: published.view.path)),
            "src": .string(URLPath.encode(path: tiles[0].path)),
            "srcset": .string(srcset),
            "sizes": .string(sizes.sizesAttribute),
            "width": .int(photo.header.width),
            "height": .int(photo.header.height),
            "alt": .string(Photo.readableName(photo.name)),
            "style": .string(style),
            "eager": .bool(eager),
            "name": .string(photo.name),
            "original": configuration.originals == .none ? .null : .string(URLPath.encode(path: photo.originalPath)),
        ]
    }
}
