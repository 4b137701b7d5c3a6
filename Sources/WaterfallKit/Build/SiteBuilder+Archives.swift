#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The albums' archives of their originals (`zip`), written through the site's writer like any other file:
/// planned with the rest, staged in `OUTPUT/.waterfall/tmp`, recorded with their content hash and the digest
/// of their inputs, renamed into place only when the whole site is ready.
extension SiteBuilder {
    /// Each album's archive, from the album tree (named, so each knows its folder in the site).
    func planArchives(_ albums: [Album], configuration: SiteConfiguration, rootName: String) -> [AlbumArchive] {
        guard configuration.zip else { return [] }
        return albums.compactMap { AlbumArchive.plan($0, rootName: rootName, limit: configuration.zipMaxBytes) }
    }

    /// One line for each album whose originals come to more than `zipMaxBytes`: it gets no archive.
    func warnAboutOversizedAlbums(_ photos: [PublishedPhoto], configuration: SiteConfiguration) {
        guard configuration.zip else { return }
        for (album, count, bytes) in AlbumArchive.oversized(photos, limit: configuration.zipMaxBytes) {
            let name = album.isEmpty ? "the top folder" : PathText.display(album)
            observe(.warning("\(name): no archive of its originals: its \(count) photo\(count == 1 ? "" : "s") come\(count == 1 ? "s" : "") to "
                + "\(ByteCount.size(bytes)) (\(bytes) bytes), over zipMaxBytes (\(configuration.zipMaxBytes) bytes)"))
        }
    }

    /// Keeps each archive the last build wrote from the same inputs (unchanged since: no byte is read), writes
    /// the others into the staging folder (archive `index` at `positions.lowerBound + index` of the plan).
    /// Returns what each album's pages link to. A write that fails (a full disk) stops the build, as does an
    /// original that is no longer what the store took in.
    func writeArchives(_ archives: [AlbumArchive], positions: Range<Int>, cache: BuildCache,
                       into writer: inout SiteWriter) throws(BuildError) -> [String: GalleryPageInputs.Download] {
        var downloads: [String: GalleryPageInputs.Download] = [:]
        for (archive, position) in zip(archives, positions) {
            let bytes: Int
            do throws(FileSystemError) {
                if let kept = try writer.kept(archive.path, at: position, madeFrom: archive.inputs) {
                    bytes = kept.size
                } else {
                    observe(.zipping(album: archive.album, photos: archive.entries.count, bytes: archive.bytes))
                    bytes = try write(archive, at: position, cache: cache, into: &writer)
                }
            } catch {
                throw Self.writing(error)
            }
            downloads[archive.sitePath] = GalleryPageInputs.Download(path: archive.path, photos: archive.entries.count, bytes: bytes)
        }
        return downloads
    }

    /// Writes one archive into a new file of the staging folder and stages it; its size.
    private func write(_ archive: AlbumArchive, at position: Int, cache: BuildCache,
                       into writer: inout SiteWriter) throws(FileSystemError) -> Int {
        let scratch = try writer.createScratch()
        do throws(FileSystemError) {
            defer { close(scratch.descriptor) }
            let zip = try ZipArchive(descriptor: scratch.descriptor, path: scratch.path, hasher: writer.records.hasher)
            for entry in archive.entries {
                let file = try cache.folder.images.openFile(entry.stored)
                // Exactly the bytes the photo was hashed as, or no archive; the stored file that is not goes (the
                // next build reads the photo again).
                guard file.size == entry.size, try zip.add(entry.name, from: file, size: entry.size) == entry.hash else {
                    cache.drop(stored: entry.stored)
                    throw FileSystemError(entry.source, "is not what it was when it was read (edited in place, its time stamp "
                        + "kept?): its album's archive was not written, the build stopped, and the last site was left as it "
                        + "was; the next build reads it again")
                }
            }
            let (bytes, hash) = try zip.close()
            try writer.adopt(scratch: scratch.name, as: archive.path, at: position, hash: hash, inputs: archive.inputs)
            return bytes
        } catch {
            writer.discard(scratch: scratch.name)
            throw error
        }
    }
}
