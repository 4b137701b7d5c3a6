/// The digest of everything a build's site is made from once its images are known: the settings, the
/// albums' settings, the theme (its templates and assets, with the renderer's identity: `SitePages`'s
/// digests), the top folder's name, and every published photo, in order, with its derived images.
///
/// The album tree, the site's names, every page's inputs and the plan of the output are functions of these
/// alone. So when a build's digest is the one the last finished build recorded beside its manifest, and every
/// file that manifest lists is still the file it recorded, the site is already the one this build would
/// write, and nothing needs working out again (`SiteWriter.lastPlan`). A new field of `Photo`,
/// `DerivedFile`, `ImageHeader` or `PhotoFacts` is a new line here (SiteInputsTests lists their fields).
enum SiteInputs {
    static func digest(photos: [PublishedPhoto], configuration: SiteConfiguration,
                       albumSettings: [[UInt8]: SiteConfiguration.AlbumSettings],
                       siteDigest: ContentDigest, galleryDigest: ContentDigest,
                       assets: [(path: String, bytes: [UInt8])], rootTitle: String, input: String,
                       jobs: Int = Parallelism.available) -> ContentDigest {
        var builder = DigestBuilder(capacity: 16 * photos.count + 4096)
        builder.add(Versions.siteInputs)
        builder.add(Versions.zip)
        builder.add(siteDigest)
        builder.add(galleryDigest)
        // Plain structs, enums and arrays of them: the same text for the same values in every run.
        builder.add(String(reflecting: configuration))
        for (folder, settings) in albumSettings.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            builder.add(String(decoding: folder, as: UTF8.self))
            builder.add(folder.count)
            builder.add(String(reflecting: settings))
        }
        builder.add(assets.count)
        for asset in assets {
            builder.add(asset.path)
            builder.add(ContentDigest.of(asset.bytes))
        }
        builder.add(rootTitle)
        builder.add(input)
        builder.add(photos.count)
        // A digest per photo, on every core: no buffer of all 100,000 photos' bytes at once.
        for digest in photos.parallelMap(jobs: jobs, digest) { builder.add(digest) }
        return builder.digest
    }

    /// Every field of `metadata` with its source (a field absent is a source absent).
    private static func add(_ metadata: PhotoMetadata, to builder: inout DigestBuilder) {
        for field in [metadata.title, metadata.description, metadata.creator, metadata.rights] {
            builder.add(field?.source.rawValue)
            builder.add(field?.value)
        }
        builder.add(metadata.keywords?.source.rawValue)
        builder.add(metadata.keywords?.value.count)
        for word in metadata.keywords?.value ?? [] { builder.add(word) }
        builder.add(metadata.rating?.source.rawValue)
        builder.add(metadata.rating?.value)
        builder.add(metadata.taken?.source.rawValue)
        builder.add(metadata.taken?.value.text)
        builder.add(metadata.taken?.value.number)
        builder.add(metadata.descriptionHTML)
    }

    private static func digest(_ published: PublishedPhoto) -> ContentDigest {
        var builder = DigestBuilder(capacity: 512)
        let photo = published.photo
        builder.add(photo.source)
        builder.add(photo.name)
        builder.add(photo.content)
        builder.add(photo.status.size)
        builder.add(photo.status.modified)
        let header = photo.header
        builder.add(header.format.rawValue)
        for value in [header.pixelWidth, header.pixelHeight, header.orientation.rawValue, header.frames] { builder.add(value) }
        if let video = header.video {
            builder.add(String(reflecting: video))
        } else {
            builder.add(nil as String?)
        }
        add(photo.metadata, to: &builder)
        add(photo.facts.metadata, to: &builder)
        builder.add(photo.facts.summary)
        builder.add(photo.facts.contentIdentifier)
        builder.add(photo.facts.seeThrough)
        builder.add(published.images.count)
        for image in published.images {
            builder.add(image.label)
            builder.add(image.size)
            builder.add(image.delivery.rawValue)
            builder.add("\(image.role)")
            builder.add(image.key)
            builder.add(image.width)
            builder.add(image.height)
            builder.add(image.format.rawValue)
            builder.add(image.stored)
            builder.add(image.hash != nil)
            if let hash = image.hash { builder.add(hash) }
            builder.add(image.averageColor?.hex)
            builder.add(image.sketch?.base64)
        }
        return builder.digest
    }
}
