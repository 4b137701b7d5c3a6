/// One album's archive of its originals (`zip`), planned before anything is written: where it goes in the
/// site, what each entry is called and which stored original it holds, and the digest of all that, which
/// decides whether the archive the last build wrote can stay.
///
/// - It holds the album's own photos and videos (a sub-album has its own archive), in natural name order,
///   each as the original file the cache's store took in from the photo's one open (the very file,
///   hard-linked, or a copy), so its bytes are the ones the photo was hashed as.
/// - It lives at `ALBUM/originals/NAME.zip`, NAME the album's folder name (the input folder's, for the
///   top): no photo or video is ever called `*.zip`, and `originals` is already a name no album folder
///   takes, so the path can meet nothing else of the site.
/// - Entries are named after the photos' file names, flat: never a `/` or `\`, a control character (each
///   becomes `_`) or a leading `.`, and no two alike once case and Unicode spelling are folded (as
///   `NameAllocator` folds them: the second gets a stable `~` tag), so it unpacks the same on every file
///   system. Names that need nothing changed claim theirs first.
struct AlbumArchive: Sendable {
    struct Entry: Sendable, Equatable {
        /// Its name in the archive.
        var name: String
        /// The original's file in the cache's store, its size and content hash.
        var stored: String
        var size: Int
        var hash: ContentDigest
        /// The photo's path, for messages.
        var source: String
    }

    /// The album's folder in the input ("" for the top), for messages, and in the site (its pages' key).
    var album: String
    var sitePath: String
    /// The archive's path in the site.
    var path: String
    var entries: [Entry]
    /// What the entries come to (the archive is that and some 120 bytes an entry more).
    var bytes: Int
    /// Everything the archive's bytes are made from: a kept archive with the same inputs is this one.
    var inputs: ContentDigest

    /// The archive of `album`'s own photos, named after `rootName` for the top album; nil when it has none
    /// (an album of sub-albums only), or when they come to more than `limit` bytes.
    static func plan(_ album: Album, rootName: String, limit: Int) -> AlbumArchive? {
        // In natural name order, whatever order the gallery shows: sorting the album another way writes no
        // archive again.
        let photos = NaturalOrder.sorted(album.photos.filter { $0.originalFile?.hash != nil }, by: { $0.photo.fileName })
        guard !photos.isEmpty else { return nil }
        let bytes = photos.reduce(0) { $0 + $1.photo.status.size }
        guard bytes <= limit else { return nil }
        let names = entryNames(photos.map(\.photo.fileName), identities: photos.map(\.photo.name))
        let entries = zip(photos, names).map { published, name in
            let original = published.originalFile!
            return Entry(name: name, stored: original.stored, size: published.photo.status.size, hash: original.hash!,
                         source: published.photo.source)
        }
        let folderName = album.path.isEmpty ? rootName : FolderPath.lastComponent(of: album.path)
        var files = NameAllocator()
        let fileName = files.claim(stem: sanitized(folderName.isEmpty ? "album" : folderName), ext: ".zip", identity: album.path)
        return AlbumArchive(album: album.path, sitePath: album.sitePath, path: SitePath.join(album.sitePath, "originals/" + fileName),
                            entries: entries, bytes: bytes, inputs: digest(entries))
    }

    /// The albums whose own photos come to more than `limit` bytes (no archive for them), in byte order of
    /// their folders: each with its photo count and bytes. From the photos alone, so a build that writes
    /// nothing still says so.
    static func oversized(_ photos: [PublishedPhoto], limit: Int) -> [(album: String, photos: Int, bytes: Int)] {
        var albums: [String: (photos: Int, bytes: Int)] = [:]
        for published in photos {
            albums[published.photo.album, default: (0, 0)].photos += 1
            albums[published.photo.album, default: (0, 0)].bytes += published.photo.status.size
        }
        return albums.filter { $0.value.bytes > limit }.sorted { ExactPath.precedes($0.key, $1.key) }
            .map { ($0.key, $0.value.photos, $0.value.bytes) }
    }

    /// The entries' names, in the order of `fileNames`: each sanitized, and unique once folded. Claims are
    /// made in byte order of the photos' paths (`identities`, which also give the tags), names left as
    /// they are first.
    static func entryNames(_ fileNames: [String], identities: [String]) -> [String] {
        let clean = fileNames.map(sanitized)
        let order = fileNames.indices.sorted { ExactPath.precedes(identities[$0], identities[$1]) }
        var names = NameAllocator()
        var result = Array(repeating: "", count: fileNames.count)
        for index in order.filter({ clean[$0] == fileNames[$0] }) + order.filter({ clean[$0] != fileNames[$0] }) {
            let (stem, ext) = NameAllocator.split(clean[index])
            result[index] = names.claim(stem: stem, ext: ext, identity: identities[index])
        }
        return result
    }

    /// A file name as an archive entry may hold it anywhere it is unpacked: a flat name (`/` and `\`, which
    /// some unpackers take for folders, become `_`, and so does every control character, C0, DEL and C1), not
    /// hidden and never `.` or `..` (a leading `.` gets a `_` before it), never empty.
    static func sanitized(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            let value = scalar.value
            let refused = value < 0x20 || (0x7F...0x9F).contains(value) || scalar == "/" || scalar == "\\"
            scalars.append(refused ? "_" : scalar)
        }
        let text = String(scalars)
        return text.isEmpty || text.hasPrefix(".") ? "_" + text : text
    }

    private static func digest(_ entries: [Entry]) -> ContentDigest {
        var builder = DigestBuilder(capacity: 96 * entries.count + 64)
        builder.add(Versions.zip)
        builder.add(entries.count)
        for entry in entries {
            builder.add(entry.name)
            builder.add(entry.size)
            builder.add(entry.hash)
        }
        return builder.digest
    }
}
