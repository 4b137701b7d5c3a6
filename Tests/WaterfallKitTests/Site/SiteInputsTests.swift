import Testing
@testable import WaterfallKit

/// The digest of what a site is made from (`SiteInputs`) sees every input: a change to any of them is
/// another digest, so a build never takes a changed site for the last one.
struct SiteInputsTests {
    static func photo(_ name: String = "a/IMG_1.jpg") -> PublishedPhoto {
        var photo = Photo(source: "/in/" + name, name: name, header: ImageHeader(format: .jpeg, pixelWidth: 40, pixelHeight: 30),
                          status: FileStatus(size: 10, modified: 20))
        photo.content = "c0ffee"
        photo.facts.summary = "Canon"
        photo.facts.metadata = PhotoMetadata(.exif, description: "E", taken: PhotoMetadata.Taken(text: "2024-05-17 08:30:12", number: 20_240_517_083_012))
        photo.metadata = .merged([PhotoMetadata(.text, title: "T", description: "D", keywords: ["k"], rating: 3, creator: "C", rights: "R"),
                                  photo.facts.metadata])
        let image = DerivedFile(label: "500", size: "500", delivery: .jpeg, role: .tile, key: "k", path: "", width: 40, height: 30,
                                format: .jpeg, stored: "0123456789abcdef.jpg", hash: ContentDigest((1, 2)), made: false,
                                averageColor: AverageColor(red: 1, green: 2, blue: 3))
        return PublishedPhoto(photo: photo, images: [image])
    }

    static func digest(_ photos: [PublishedPhoto], configuration: SiteConfiguration = SiteConfiguration(),
                       albums: [[UInt8]: SiteConfiguration.AlbumSettings] = [:], assets: [(path: String, bytes: [UInt8])] = [("assets/w.css", [1])],
                       root: String = "Photos") throws -> ContentDigest {
        let templates = try TemplateLibrary(folder: Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Templates").path)
        let pages = SitePages(configuration: configuration, sizes: ImageSizes(configuration: configuration), templates: templates)
        return SiteInputs.digest(photos: photos, configuration: configuration, albumSettings: albums,
                                 siteDigest: pages.siteDigest, galleryDigest: pages.galleryDigest, assets: assets,
                                 rootTitle: root, input: "/in")
    }

    @Test func everyInputChangesTheDigest() throws {
        let base = try Self.digest([Self.photo(), Self.photo("a/IMG_2.jpg")])
        #expect(try Self.digest([Self.photo(), Self.photo("a/IMG_2.jpg")]) == base)  // the same inputs, the same digest
        func changed(_ change: (inout PublishedPhoto) -> Void) -> PublishedPhoto {
            var photo = Self.photo()
            change(&photo)
            return photo
        }
        func rebuilt(_ change: (inout Photo) -> Void) -> PublishedPhoto {
            var photo = Self.photo().photo
            change(&photo)
            return PublishedPhoto(photo: photo, images: Self.photo().images)
        }
        var variants: [(String, [PublishedPhoto])] = [
            ("order", [Self.photo("a/IMG_2.jpg"), Self.photo()]),
            ("a photo fewer", [Self.photo()]),
            ("name", [Self.photo("a/IMG_3.jpg"), Self.photo("a/IMG_2.jpg")]),
        ]
        let photoChanges: [(String, (inout Photo) -> Void)] = [
            ("source", { $0.source = "/elsewhere" }), ("content", { $0.content = "beef" }),
            ("size", { $0.status = FileStatus(size: 11, modified: 20) }), ("time", { $0.status = FileStatus(size: 10, modified: 21) }),
            ("title", { $0.metadata.title?.value = "U" }), ("description", { $0.metadata.description = nil }),
            ("title's source", { $0.metadata.title?.source = .xmp }), ("keywords", { $0.metadata.keywords?.value.append("l") }),
            ("rating", { $0.metadata.rating?.value = 4 }), ("creator", { $0.metadata.creator?.value = "D" }),
            ("rights", { $0.metadata.rights = nil }), ("description HTML", { $0.metadata.descriptionHTML = "<p>D</p>" }), ("taken text", { $0.metadata.taken?.value.text = "x" }),
            ("taken", { $0.metadata.taken?.value.number = 1 }), ("summary", { $0.facts.summary = nil }),
            ("embedded description", { $0.facts.metadata.description?.value = "F" }),
            ("content identifier", { $0.facts.contentIdentifier = "A" }),
            ("width", { $0.header.pixelWidth = 41 }), ("orientation", { $0.header.orientation = Orientation(rawValue: 6) }),
            ("frames", { $0.header.frames = 2 }), ("format", { $0.header.format = .png }),
            ("video", { $0.header.video = VideoFacts(container: "mov", codec: "h264", pixelFormat: "yuv420p", audioCodec: nil,
                                                     durationMilliseconds: 1_000, codedWidth: 40, codedHeight: 30, rotation: 0) }),
        ]
        for (what, change) in photoChanges { variants.append((what, [rebuilt(change), Self.photo("a/IMG_2.jpg")])) }
        let imageChanges: [(String, (inout DerivedFile) -> Void)] = [
            ("label", { $0.label = "1000" }), ("image size", { $0.size = "1000" }), ("delivery", { $0.delivery = .avif }),
            ("role", { $0.role = .view }), ("key", { $0.key = "k2" }), ("image width", { $0.width = 39 }), ("image height", { $0.height = 29 }),
            ("image format", { $0.format = .png }), ("stored", { $0.stored = "fedcba9876543210.jpg" }), ("hash", { $0.hash = nil }),
            ("colour", { $0.averageColor = nil }),
        ]
        for (what, change) in imageChanges { variants.append((what, [changed { change(&$0.images[0]) }, Self.photo("a/IMG_2.jpg")])) }
        var seen: Set<ContentDigest> = [base]
        for (what, photos) in variants {
            let digest = try Self.digest(photos)
            #expect(seen.insert(digest).inserted, "\(what) does not change the digest")
        }
        var titled = SiteConfiguration()
        titled.title = "Other"
        var album = SiteConfiguration.AlbumSettings()
        album.title = "Trip"
        let photos = [Self.photo(), Self.photo("a/IMG_2.jpg")]
        for (what, digest) in [("settings", try Self.digest(photos, configuration: titled)),
                               ("an album's settings", try Self.digest(photos, albums: [Array("a".utf8): album])),
                               ("an asset", try Self.digest(photos, assets: [("assets/w.css", [2])])),
                               ("the top folder's name", try Self.digest(photos, root: "Other"))] {
            #expect(seen.insert(digest).inserted, "\(what) does not change the digest")
        }
    }

    /// Each field of what a site is made from is either in the digest or known to follow from what is:
    /// a new field fails this test until `SiteInputs` is taught it.
    @Test func everyFieldIsAccountedFor() {
        func fields(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        let published = Self.photo()
        #expect(fields(published.photo) == ["source", "name", "header", "status", "metadata", "facts", "cachedEntry", "content"])
        #expect(fields(published) == ["box", "images", "page", "original"])  // page and original: named from the inputs
        // components, progressive, bitDepth, bytesRead: they change only the derived images (their keys and hashes).
        #expect(fields(published.photo.header) == ["format", "pixelWidth", "pixelHeight", "orientation", "components", "progressive",
                                                   "bitDepth", "bytesRead", "frames", "videoBox"])
        // warnings: said once, when the file is read; they change nothing on the pages.
        #expect(fields(published.photo.facts) == ["summary", "metadata", "contentIdentifier", "seeThrough", "warnings"])
        #expect(fields(published.photo.metadata) == ["title", "description", "keywords", "rating", "creator", "rights", "taken",
                                                     "descriptionHTML"])
        // path: named later; made: whether this build made it, not what it is.
        #expect(fields(published.images[0]) == ["label", "size", "delivery", "role", "key", "path", "width", "height", "format", "stored",
                                                "hash", "made", "averageColor", "sketch"])
    }
}
