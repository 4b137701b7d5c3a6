import CImageIO

/// Reads the header of a photo or a video the build opened, from that open file: first what its first bytes
/// say (nothing else is read of a file that is no format Waterfall reads), then a photo's header and facts in
/// a decoder process, a video's with `VideoProbe` (ffprobe, under limits).
public struct MediaReader: Sendable {
    public var images: HeaderReader
    var videos: VideoTools?
    let decoders: DecoderPool

    init(images: HeaderReader, videos: VideoTools?, decoders: DecoderPool) {
        self.images = images
        self.videos = videos
        self.decoders = decoders
    }

    /// What the file's first bytes say it is; a refusal for anything that is neither an image Waterfall reads
    /// nor a video, and for an empty file.
    func sniff(_ file: OpenFile) -> Result<SniffedFormat, ImageReadError> {
        let first: [UInt8]
        do {
            first = try file.read(upTo: 4096)
        } catch {
            return .failure(ImageReadError(.io, error.reason))
        }
        guard !first.isEmpty else { return .failure(ImageReadError(.empty, "empty file")) }
        let sniffed = SniffedFormat(first)
        if sniffed.readable != nil || sniffed.isVideo { return .success(sniffed) }
        return .failure(HeaderReader.unsupported(sniffed, magic: Array(first.prefix(8))))
    }

    /// The header of the open file and, with `facts`, what its metadata says.
    func read(_ file: OpenFile, sniffed: SniffedFormat, facts: Bool) -> Result<(ImageHeader, PhotoFacts), ImageReadError> {
        if sniffed.isVideo {
            guard let videos else { return .failure(ImageReadError(.unsupported, VideoTools.missing)) }
            return VideoProbe(tools: videos, maxPixels: images.maxPixels).read(file).map { ($0, $0.video.map(PhotoFacts.init(video:)) ?? PhotoFacts()) }
        }
        switch decoders.read(file, metadata: facts) {
        case .failure(let failure):
            return .failure(failure.readError(format: sniffed.name))
        case .success(let (raw, metadata)):
            return images.interpret(raw).map { header in (header, Self.facts(raw, metadata)) }
        }
    }
}

extension MediaReader {
    /// What the header and, when read, the metadata say.
    static func facts(_ header: wf_header, _ metadata: ExifReader.RawMetadata?) -> PhotoFacts {
        var facts = metadata.map(Self.facts) ?? PhotoFacts()
        facts.seeThrough = header.alpha != 0
        return facts
    }

    /// What a photo's own bytes say: EXIF (and PNG text), IPTC and XMP, merged in their order of precedence.
    static func facts(_ raw: ExifReader.RawMetadata) -> PhotoFacts {
        var facts = PhotoFacts(ExifReader().facts(from: raw))
        let records = MetadataRecords(raw.records, truncated: raw.recordsTruncated)
        facts.metadata = .merged(records.readings + [facts.metadata])
        facts.warnings = records.warnings
        return facts
    }

    /// The header of the file at a path the user named (`inspect`, `layout`): opened once (a link at its end is
    /// followed: the user chose it), checked to be a regular file, and read from that descriptor.
    func read(path: String) -> Result<ImageHeader, ImageReadError> {
        read(path: path, facts: false).map(\.0)
    }

    /// The same, and with `facts` what its metadata says, read in the same decoder job.
    func read(path: String, facts: Bool) -> Result<(ImageHeader, PhotoFacts), ImageReadError> {
        let file: OpenFile
        do {
            file = try OpenFile.open(path)
        } catch {
            return .failure(FolderWalker.isDirectory(path) ? ImageReadError(.directory, "is a directory") : ImageReadError(.io, error.reason))
        }
        return sniff(file).flatMap { read(file, sniffed: $0, facts: facts) }
    }
}
